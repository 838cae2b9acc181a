// Issue 36 items 4-6 on the real binary: the newer surfaces bounded like the core.
//   * hostile capture files (a header length of 0xFFFFFFFF, a trailer length of 2^63, a header
//     that is not JSON, 100,000 levels deep or of an unknown format version, records out of
//     order, a header string with a terminal escape): exit 2 with one line naming the file and
//     the part, never exit 5 or a signal, the replay target's bytes unchanged (SHA-256);
//   * a long sparse capture (300 KB, last IO at 27.5 h) replayed at --speed 100000 --step 1s in
//     a child whose address space is limited and whose peak RSS is measured (getrusage);
//   * app settings and --instances out of their documented ranges, and scratch instances
//     beyond the host's RAM: exit 2 before anything exists (no state, no output directory);
//   * --db in libpq's keyword form: PostgreSQL (never an SQLite file named after it), its
//     password never printed; a mistyped one refused;
//   * capture integrity on a loop device (root, perf events): the header is in the file before
//     the first IO, a capture killed with SIGKILL reads back as incomplete with its records, a
//     loop device detached mid-capture ends the capture with exit 5 and "device_vanished", an
//     unwritable capture file (/dev/full) is one line, not SIGSEGV.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/capture/block_capture.hpp>
#include <ptsuite/capture/capture_file.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/results/replay.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/sha256.hpp>
#include <ptsuite/workload/workload_runner.hpp>

#include "integration/workload_process.hpp"
#include "support/capture_bytes.hpp"
#include "support/loop_support.hpp"
#include "support/sanitizers.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite {
namespace {

namespace fs = std::filesystem;
using workload::test::Child;
using workload::test::ProcessOptions;
using workload::test::ProcessResult;
using workload::test::run_ptsuite;

// A command that must be refused: its exit code, the words of its one line, and - when it names
// a target - the target's SHA-256 unchanged.
void expect_refusal(const std::string& name, const std::vector<std::string>& args, int exit_code,
                    const std::vector<std::string>& words, const std::string& target = "") {
  SCOPED_TRACE(name);
  const std::string before = target.empty() ? "" : sha256_file_hex(target);
  const ProcessResult r = run_ptsuite(args);
  EXPECT_EQ(r.term_signal, 0) << "killed by a signal";
  EXPECT_EQ(r.exit_code, exit_code) << r.err;
  EXPECT_EQ(r.err.rfind("ptsuite: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  for (const std::string& w : words) EXPECT_NE(r.err.find(w), std::string::npos) << "no \"" << w << "\": " << r.err;
  if (!target.empty()) {
    EXPECT_EQ(sha256_file_hex(target), before) << "the target was written";
  }
}

std::string random_bytes_file(const test_support::ShmTempDir& dir, const std::string& name, size_t bytes) {
  std::string content(bytes, '\0');
  std::mt19937_64 rng(bytes + 36);
  for (char& c : content) c = static_cast<char>(rng());
  write_file_atomic(test_support::output_path(dir.file(name)), content);
  return dir.file(name);
}

// Exit status and peak RSS (KiB) of the binary run with an address-space limit of `as_bytes`,
// its stdout in `out_path`.
struct Measured {
  int exit_code = -1;
  int term_signal = 0;
  long max_rss_kib = 0;
};

Measured run_with_memory_limit(const std::vector<std::string>& args, uint64_t as_bytes, const std::string& out_path) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_RDWR);
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(out, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    if (test_support::k_address_space_limit_applies) {
      const rlimit as{as_bytes, as_bytes};
      ::setrlimit(RLIMIT_AS, &as);
    }
    std::vector<std::string> storage{PTSUITE_BINARY};
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : storage) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  Measured m;
  m.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  m.term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  m.max_rss_kib = usage.ru_maxrss;
  return m;
}

class HostileCaptureFiles : public ::testing::Test {
 protected:
  std::string write_capture(const std::string& name, test_support::CaptureParts parts) const {
    if (parts.records.empty()) parts.records = test_support::spaced_records(4, 1'000'000);
    const std::string path = m_dir.file(name);
    test_support::write_file(path, test_support::capture_bytes(std::move(parts)));
    return path;
  }
  test_support::ShmTempDir m_dir{"ptsuite-surfaces-capture"};
  std::string m_target = random_bytes_file(m_dir, "target.img", 8 << 20);
};

// Each hostile file through `capture show` and `replay` (with consent: the refusal, not the
// gate, must keep the target's bytes): exit 2, one line naming the file and what is wrong.
TEST_F(HostileCaptureFiles, AreExitTwoWithAMessageNeverASignal) {
  const std::string trailer = test_support::valid_capture_trailer(4);
  std::string deep(100'000, '[');
  std::string v2 = test_support::valid_capture_header();
  v2.replace(v2.find("capture/1"), 9, "capture/2");
  struct FileCase {
    std::string name;
    test_support::CaptureParts parts;
    std::string words;
  };
  std::vector<FileCase> cases;
  const auto add = [&](const std::string& name, auto change, const std::string& words) {
    test_support::CaptureParts p;
    p.trailer = trailer;
    change(p);
    cases.push_back({name, std::move(p), words});
  };
  add(
      "header length 0xFFFFFFFF", [](auto& p) { p.header_bytes = 0xFFFFFFFFU; }, "header length 4294967295");
  add(
      "trailer length 2^63", [](auto& p) { p.trailer_bytes = 1ULL << 63; }, "the trailer is damaged");
  add(
      "header not JSON", [](auto& p) { p.header = "PTSCAPT1 is not JSON"; }, "header: not valid JSON");
  add(
      "header 100,000 levels deep", [&](auto& p) { p.header = deep; }, "nesting deeper than 64 levels");
  add(
      "unknown format version", [&](auto& p) { p.header = v2; }, "format \"ptsuite-capture/2\" is not one");
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string file = write_capture(fmt::format("hostile-{}.ptcap", i), cases[i].parts);
    expect_refusal(cases[i].name + " (capture show)", {"capture", "show", file}, 2, {file, cases[i].words});
    expect_refusal(cases[i].name + " (replay)",
                   {"replay", file, "--target", m_target, "--allow-destructive", "--step", "1s", "--quiet"}, 2,
                   {file, cases[i].words}, m_target);
  }
  // Records whose times go back (a damaged file): the replay would wait ~2^64 ns; refused first.
  test_support::CaptureParts back;
  back.records = test_support::spaced_records(3, 1'000'000);
  capture::IoRecord early;
  early.issue_ns = 10;
  early.length_bytes = 4096;
  back.records += test_support::capture_record_bytes(early);
  back.trailer = trailer;
  const std::string out_of_order = write_capture("back.ptcap", back);
  expect_refusal("records out of issue order",
                 {"replay", out_of_order, "--target", m_target, "--allow-destructive", "--step", "1s", "--quiet"}, 2,
                 {"IO 4 of device 0 is issued at 10 ns, before the one ahead of it"}, m_target);
}

// A header's strings reach the terminal escaped (an OSC sequence would set the title, CSI move
// the cursor); the file itself is otherwise valid and characterized.
TEST_F(HostileCaptureFiles, HeaderStringsAreEscapedOnTheTerminal) {
  nlohmann::json h = nlohmann::json::parse(test_support::valid_capture_header());
  h["devices"][0]["path"] = "/dev/\x1b]0;owned\x07x";
  h["source"] = "evil\x1b[2J\r\nFAKE LINE";
  test_support::CaptureParts p;
  p.header = h.dump();
  p.trailer = test_support::valid_capture_trailer(4);
  const std::string file = write_capture("osc.ptcap", p);
  const ProcessResult r = run_ptsuite({"capture", "show", file, "--step", "1s"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << "a raw escape reached the terminal";
  EXPECT_EQ(r.out.find('\x07'), std::string::npos);
  EXPECT_NE(r.out.find("/dev/\\x1b]0;owned\\x07x"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("evil\\x1b[2J\\x0d\\x0aFAKE LINE"), std::string::npos) << r.out;
  const ProcessResult replay = run_ptsuite({"replay", file, "--target", m_target, "--allow-destructive", "--step", "1s",
                                            "--speed", "1000", "--out", m_dir.file("osc-replay"), "--no-history"});
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_EQ(replay.out.find('\x1b'), std::string::npos) << "a raw escape reached the terminal";
}

// A file of 4.8 MB whose 50,000 IOs each have a size of their own and a step of their own: the
// characterization stored every step's counts for every stream (50,000 x 50,000 x 16 bytes:
// 40 GB, exit 5 bad_alloc). Now a step costs the streams it has.
TEST_F(HostileCaptureFiles, ManySizesOverManyStepsStayWithinBoundedMemory) {
  std::string records;
  for (uint32_t i = 0; i < 50'000; ++i) {
    capture::IoRecord r;
    r.issue_ns = uint64_t{i} * 1'000'000'000;
    r.complete_ns = r.issue_ns + 50'000;
    r.offset_bytes = uint64_t{i} * 4096;
    r.length_bytes = 512 * (i + 1);
    r.op = i % 2 == 0 ? capture::IoOp::read : capture::IoOp::write;
    records += test_support::capture_record_bytes(r);
  }
  test_support::CaptureParts p;
  p.header = test_support::valid_capture_header(1ULL << 40);
  p.records = std::move(records);
  p.trailer = test_support::valid_capture_trailer(50'000);
  const std::string file = write_capture("sizes.ptcap", p);
  const Measured m =
      run_with_memory_limit({"capture", "show", file, "--step", "1s"}, 2ULL << 30, m_dir.file("out.txt"));
  EXPECT_EQ(m.term_signal, 0);
  EXPECT_EQ(m.exit_code, 0) << "under a 2 GiB address-space limit";
  // Measured 2026-12-02: ~110 MiB (208 MiB for 99,000 IOs and steps). Not bounded under the
  // sanitizers: their allocator's redzones and shadow are the peak there, not the product's.
  if (test_support::k_peak_rss_is_the_products) {
    EXPECT_LT(m.max_rss_kib, 512L * 1024) << "peak RSS " << m.max_rss_kib << " KiB";
  }
}

// The issue's case: 6,250 IOs (300 KB) over 27.5 h, replayed 100,000 times as fast with 1 s
// steps: 99,000 steps of the capture's timeline, and a replay that falls behind by more than the
// whole capture within its first millisecond. Before the fix each step grew an issue-error
// histogram (5.78 GB in the issue; 1.5 GB and still growing under a 2 GiB limit here) and the
// steps past 100,000 were refused with exit 2 after the target's bytes had changed.
TEST(ReplayMemory, ALongSparseCaptureReplaysWithinBoundedMemory) {
  test_support::ShmTempDir dir("ptsuite-surfaces-sparse");
  const std::string capture = dir.file("sparse.ptcap");
  const uint64_t last_ns = 99'000ULL * 1'000'000'000;  // 27.5 h
  test_support::write_sparse_capture(capture, 6250, last_ns);
  EXPECT_LE(fs::file_size(capture), 310'000u);
  const std::string target = dir.create_file("target.img", 64 << 20);
  const std::string out = dir.file("stdout.txt");
  const Measured m =
      run_with_memory_limit({"replay", capture, "--target", target, "--allow-destructive", "--speed", "100000",
                             "--step", "1s", "--out", dir.file("replay"), "--format", "none", "--no-history"},
                            2ULL << 30, out);
  ASSERT_EQ(m.term_signal, 0);
  ASSERT_EQ(m.exit_code, 0) << "under a 2 GiB address-space limit";
  // Measured 2026-12-02: 117 MiB before the replay measured the drive per step; 299-306 MiB
  // once it did (each of the 99,000 steps holds its response-time figures per direction in the
  // record, about 3 KiB a step, and the run's ending renders from that record); 208-215 MiB
  // since results.json is streamed (~1 MiB at a time, never the whole text): linear in the
  // steps, never in the IOs. The bound is 256 MiB (a fifth to spare); the issue's 5.78 GB (a
  // histogram per step) and a results.json held whole (+~90 MiB) both stay above it.
  if (test_support::k_peak_rss_is_the_products) {
    EXPECT_LT(m.max_rss_kib, 256L * 1024) << "peak RSS " << m.max_rss_kib << " KiB";
  }
  const std::string text = test_support::file_text(out);
  EXPECT_NE(text.find("IOs: 6250 captured, 6250 replayed"), std::string::npos) << text.substr(0, 2000);
  // The capture's 99,001 steps (its last IO completes just past 99,000 s), and the one after
  // them when the replay issued IOs later (at this speed it always falls behind).
  const size_t of = text.find(" steps could not keep up");
  ASSERT_NE(of, std::string::npos) << text.substr(0, 2000);
  const size_t steps = std::stoul(text.substr(text.rfind(' ', of - 1) + 1, of));
  EXPECT_GE(steps, 99'001u);
  EXPECT_LE(steps, 99'002u);
}

class AppBounds : public ::testing::Test {
 protected:
  void SetUp() override { ::setenv("PTSUITE_APP_STATE_DIR", m_state.path().c_str(), 1); }
  void TearDown() override { ::unsetenv("PTSUITE_APP_STATE_DIR"); }
  test_support::ShmTempDir m_state{"ptsuite-surfaces-appstate"};
  test_support::ShmTempDir m_out{"ptsuite-surfaces-appout"};
};

// Every case is refused before anything exists: no state directory entry (the marker, the
// mounts), no output directory, so no mkfs and no server (the issue saw mkfs.ext4 reach 20.6 GB,
// 30 servers for --instances 1000, one for --instances 0, exit 5 after the load for the rest).
TEST_F(AppBounds, OutOfRangeSettingsInstancesAndRamAreExitTwoBeforeAnything) {
  const std::string out = m_out.file("never");
  const auto app = [&](std::vector<std::string> extra) {
    std::vector<std::string> args{"app", "run", "pgbench", "--quick", "--out", out};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  expect_refusal("scale", app({"--set", "scale=1000000000"}), 2, {"--set scale", "outside 1 to 100000"});
  expect_refusal("clients", app({"--set", "clients=100000"}), 2, {"--set clients", "outside 1 to 1000"});
  expect_refusal("duration", app({"--set", "duration=100000d"}), 2, {"--set duration", "outside 1s to 7d"});
  expect_refusal("instances 1000", app({"--instances", "1000"}), 2, {"--instances", "1000 is outside 1 to 16"});
  expect_refusal("instances 0", app({"--instances", "0"}), 2, {"--instances", "0 is outside 1 to 16"});
  expect_refusal("instances -1", app({"--instances", "-1"}), 2, {"--instances"});
  expect_refusal("threads above clients", app({"--set", "clients=2", "--set", "threads=4"}), 2, {"--set threads"});
  // 200 clients in --quick's 64 MiB: the server was OOM-killed after mkfs and the load (exit 5).
  expect_refusal("clients beyond the memory limit", app({"--set", "clients=200"}), 2,
                 {"--set memory_limit", "is too small", "fewer clients"});
  // Within every range, but 1.5 TB of database in RAM: the host's MemAvailable refuses it.
  expect_refusal("scratch beyond RAM", app({"--set", "scale=100000"}), 2, {"--instances", "of RAM", "is available"});
  expect_refusal("instances for targets", app({"--target", "/dev/null", "--instances", "3"}), 2,
                 {"3 instances on 1 targets"});
  // A scenario's app phase is checked with the scenario, before its first phase writes.
  const std::string scenario = m_out.file("app.json");
  write_file_atomic(test_support::output_path(scenario),
                    R"({"format": "ptsuite-scenario/1", "name": "app-bad", "title": "app bad",
    "phases": [{"name": "fill", "kind": "fill", "block_size": "128KiB", "capacity_multiple": 1},
               {"name": "db", "kind": "app", "app": "pgbench", "settings": {"scale": 1000000000}}]})");
  expect_refusal("scenario app phase", {"scenario", "run", scenario, "--quick", "--out", out, "--quiet"}, 2,
                 {"phase db", "app.scale: 1000000000 is outside 1 to 100000", "nothing was written"});
  EXPECT_FALSE(fs::exists(out));
  EXPECT_TRUE(fs::is_empty(m_state.path())) << "a run state was made";
}

// The same bounds with a real target (the bytes it holds hashed): a setting out of range, and a
// database that would not fit on the device (checked after the gate, before mkfs).
class AppTargetBounds : public test_support::LoopDeviceFixture {
 protected:
  void SetUp() override {
    LoopDeviceFixture::SetUp();
    if (IsSkipped()) return;
    ::setenv("PTSUITE_APP_STATE_DIR", m_state.path().c_str(), 1);
  }
  void TearDown() override { ::unsetenv("PTSUITE_APP_STATE_DIR"); }
  test_support::ShmTempDir m_state{"ptsuite-surfaces-appstate"};
};

TEST_F(AppTargetBounds, ARefusedRunLeavesTheTargetsBytes) {
  auto& loop = attach_loop(64 << 20);  // zeros: any mkfs would change its hash
  const std::string out = temp_dir().file("never");
  const std::vector<std::string> base{
      "app", "run", "pgbench", "--quick", "--target", loop.device.path(), "--allow-destructive", "--out", out};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  expect_refusal("duration out of range", with({"--set", "duration=100000d"}), 2, {"--set duration"},
                 loop.device.path());
  // scale 20 is 300 MB of database: twice that does not fit in 64 MiB.
  expect_refusal("database larger than the target", with({}), 2, {"--target", loop.device.path(), "twice its database"},
                 loop.device.path());
  EXPECT_FALSE(fs::exists(out));
  EXPECT_TRUE(fs::is_empty(m_state.path()));
}

// libpq's keyword form is understood as PostgreSQL: nothing listens on port 1, so the history
// cannot be reached (exit 75: unavailable, retry later - docs/exit-codes.md), the password is
// never printed and no file is named after it; a string libpq refuses is exit 2.
TEST(HostileDb, KeywordConnectionStringsAreNeverFilesAndNeverPrintTheirPassword) {
  test_support::ShmTempDir dir("ptsuite-surfaces-db");
  const ProcessOptions here{0, dir.path()};
  const std::string conninfo = "host=127.0.0.1 port=1 connect_timeout=2 password=hunter2 dbname=lab";
  ProcessResult r = run_ptsuite({"history", "list", "--db", conninfo}, here);
  EXPECT_EQ(r.exit_code, 75) << r.err;
  EXPECT_NE(r.err.find("PostgreSQL"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("hunter2"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("hunter2"), std::string::npos) << r.out;
  for (const std::string& mistyped :
       {std::string("hots=db1 password=hunter2"), std::string("host=db1 password='hunter2 dbname=x")}) {
    r = run_ptsuite({"history", "list", "--db", mistyped}, here);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("--db"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("hunter2"), std::string::npos) << r.err;
  }
  ::setenv("PTSUITE_HISTORY_DB", conninfo.c_str(), 1);
  r = run_ptsuite({"history", "list"}, here);
  ::unsetenv("PTSUITE_HISTORY_DB");
  EXPECT_EQ(r.exit_code, 75) << r.err;
  EXPECT_EQ(r.err.find("hunter2"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_empty(dir.path())) << "a file was made from a connection string";
}

// Capture integrity on a real loop device.
class CaptureIntegrity : public test_support::LoopDeviceFixture {
 protected:
  void SetUp() override {
    LoopDeviceFixture::SetUp();
    if (IsSkipped()) return;
    if (const std::string why = capture::BlockCapture::unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  }
  // Polls until `file` opens as a capture (its header is on disk), at most 60 s.
  static bool header_appears(const std::string& file, const Child& capture) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline && !capture.exited()) {
      try {
        capture::CaptureReader r(file);
        return r.record_count() == 0;
      } catch (const ptsuite::Error&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
    return false;
  }
  // `ios` random 4 KiB IOs, 70 % reads, at QD 4 on `device`.
  static uint64_t do_io(const std::string& device, uint64_t ios) {
    workload::WorkloadSpec spec;
    spec.pattern = workload::AccessPattern::random;
    spec.read_pct = 70;
    spec.block_sizes = {{4096, 1.0}};
    spec.threads = 1;
    spec.queue_depth = 4;
    spec.limits.ios = ios;
    spec.seed = 36;
    const device::TargetGuard guard = test_support::writable(device);
    const engine::Target target = engine::Target::open(guard.writable());
    const workload::WorkloadResult r = workload::run_workload(workload::resolve(spec, target.geometry()), target, {});
    return r.stats.read.ios + r.stats.write.ios;
  }
};

// The header is in the file before the capture sees its first IO; SIGKILL two seconds into the
// IO leaves a file that reads back as incomplete with the records drained until then.
TEST_F(CaptureIntegrity, AKilledCaptureReadsBackIncompleteWithWhatItHad) {
  auto& loop = attach_loop(32 << 20);
  const std::string file = temp_dir().file("killed.ptcap");
  Child capture({"capture", "--target", loop.device.path(), "--out", file, "--quiet"});
  ASSERT_TRUE(header_appears(file, capture)) << "no header before the first IO";
  uint64_t done = 0;
  const auto io_end = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (std::chrono::steady_clock::now() < io_end) done += do_io(loop.device.path(), 500);
  // Drained every 50 ms: wait (at most 10 s) until most of the IO is in the file, then kill.
  // (Records are written in issue order: one whose completion event the kernel dropped holds
  // the later ones back for up to 60 s, docs/capture.md, so "most" is not required.)
  uint64_t in_file = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (in_file + 64 < done && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    in_file = capture::CaptureReader(file).record_count();
  }
  ASSERT_GT(in_file, 0u) << "nothing reached the file while the capture ran (" << done << " IOs done)";
  ::kill(capture.pid(), SIGKILL);
  capture.wait();
  capture::CaptureReader r(file);
  EXPECT_FALSE(r.complete());
  EXPECT_GE(r.record_count(), in_file) << "records lost by the kill";
  const ProcessResult show = run_ptsuite({"capture", "show", file, "--step", "1s"});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("the capture file has no trailer"), std::string::npos) << show.out;
}

// A loop device detached mid-capture ends it: exit 5, the reason, and a file whose trailer says
// "device_vanished" after the IOs captured before.
TEST_F(CaptureIntegrity, ADeviceThatVanishesEndsTheCaptureWithAnError) {
  auto& loop = attach_loop(32 << 20);
  const std::string file = temp_dir().file("vanished.ptcap");
  Child capture({"capture", "--target", loop.device.path(), "--out", file, "--duration", "120s", "--quiet"});
  ASSERT_TRUE(header_appears(file, capture));
  const uint64_t done = do_io(loop.device.path(), 2000);
  ASSERT_GT(done, 0u);
  loop.device.detach();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!capture.exited() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_TRUE(capture.exited()) << "the capture went on without its device";
  const ProcessResult r = capture.wait();
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_NE(r.err.find("vanished during the capture"), std::string::npos) << r.err;
  capture::CaptureReader reader(file);
  ASSERT_TRUE(reader.complete());
  EXPECT_EQ(reader.trailer()->stop_reason, "device_vanished");
  EXPECT_GE(reader.record_count() + 64, done);
}

// A capture file that cannot be written (/dev/full: ENOSPC at the first write) ends the capture
// with one line, never a signal (it was SIGSEGV). The output gate may refuse such a path before
// (exit 2 or 3); either way no crash and no capture left running.
TEST_F(CaptureIntegrity, AnUnwritableCaptureFileIsAnErrorNotACrash) {
  auto& loop = attach_loop(16 << 20);
  const ProcessResult r =
      run_ptsuite({"capture", "--target", loop.device.path(), "--out", "/dev/full", "--duration", "1s", "--quiet"});
  EXPECT_EQ(r.term_signal, 0) << "killed by a signal";
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.err.rfind("ptsuite: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("/dev/full"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ptsuite
