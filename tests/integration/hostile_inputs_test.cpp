// Issue 24's hostile inputs as a table: each case is one command, its expected exit code and
// the words its one-line message must hold, and the SHA-256 of the target before and after
// (nothing written), plus the files that must not appear. The mounted-filesystem cases use a
// real ext4 on a loop device over a /dev/shm file, mounted in a temporary directory.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/engine/loop_device.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/sha256.hpp>
#include "integration/workload_process.hpp"
#include "support/loop_support.hpp"
#include "support/results_fixture.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using workload::test::Child;
using workload::test::ProcessOptions;
using workload::test::ProcessResult;
using workload::test::run_ptsuite;

struct HostileCase {
  HostileCase(std::string name_, std::vector<std::string> args_, int exit_code_, std::vector<std::string> message_,
              std::string target_ = "", std::vector<std::string> absent_ = {}, std::vector<std::string> never_ = {})
      : name(std::move(name_)),
        args(std::move(args_)),
        exit_code(exit_code_),
        message(std::move(message_)),
        target(std::move(target_)),
        absent(std::move(absent_)),
        never(std::move(never_)) {}
  std::string name;
  std::vector<std::string> args;
  int exit_code = 2;
  std::vector<std::string> message;  // every piece must appear in the one stderr line
  std::string target;                // hashed before and after ("" = none)
  std::vector<std::string> absent;   // paths that must not exist afterwards
  std::vector<std::string> never;    // text that must appear nowhere in the output
};

void expect_case(const HostileCase& c) {
  SCOPED_TRACE(c.name);
  const std::string before = c.target.empty() ? "" : sha256_file_hex(c.target);
  const ProcessResult r = run_ptsuite(c.args);
  EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
  EXPECT_EQ(r.err.rfind("ptsuite: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
  for (const std::string& piece : c.message) {
    EXPECT_NE(r.err.find(piece), std::string::npos) << "missing \"" << piece << "\" in: " << r.err;
  }
  if (!c.target.empty()) {
    EXPECT_EQ(sha256_file_hex(c.target), before) << "the target was written";
  }
  for (const std::string& p : c.absent) {
    EXPECT_FALSE(fs::exists(p)) << p;
  }
  for (const std::string& text : c.never) {
    EXPECT_EQ((r.out + r.err).find(text), std::string::npos) << text << " printed: " << r.out << r.err;
  }
}

// A file of pseudo-random bytes (data a write would destroy).
std::string data_file(const test_support::ShmTempDir& dir, const std::string& name, size_t bytes) {
  std::string content(bytes, '\0');
  std::mt19937_64 rng(bytes);
  for (char& c : content) c = static_cast<char>(rng());
  test_support::write_file(dir.file(name), content);
  return dir.file(name);
}

std::string scenario_text(const std::string& phases) {
  return R"({"format": "ptsuite-scenario/1", "name": "hostile", "title": "t", "description": "d", "phases": [)" +
         phases + "]}";
}

constexpr const char* k_run_phase =
    R"({"name": "r", "kind": "run", "duration": "1s", "streams": [{"name": "w", "pattern": "random",
        "rw_mix": "0/100", "block_size": "BS", "threads": 1, "queue_depth": 1 RANGE}]})";

std::string run_phase(const std::string& block_size, const std::string& range = "") {
  std::string p = k_run_phase;
  p.replace(p.find("BS"), 2, block_size);
  p.replace(p.find("RANGE"), 5, range.empty() ? "" : ", \"range\": \"" + range + "\"");
  return p;
}

// A mounted ext4 on a loop device over a /dev/shm file; unmounted and detached on every path.
class MountedLoop {
 public:
  explicit MountedLoop(const test_support::ShmTempDir& dir) {
    m_backing = dir.create_file("disk.img", 64ULL << 20);
    const std::string mkfs = "mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 " + m_backing + " 2>&1";
    if (std::system(mkfs.c_str()) != 0) {
      m_skip = "mkfs.ext4 failed or is missing (apt-get install e2fsprogs)";
      return;
    }
    m_loop.emplace(test_support::attach_loop_over(m_backing));
    m_mount_point = dir.file("mnt");
    fs::create_directories(m_mount_point);
    if (::mount(m_loop->path().c_str(), m_mount_point.c_str(), "ext4", MS_NOATIME, nullptr) != 0) {
      m_skip = "mounting ext4 on a loop device is refused here";
      return;
    }
    m_mounted = true;
    test_support::write_file(fs::path(m_mount_point) / "precious.txt", "data a mounted filesystem holds\n");
    ::sync();
  }
  ~MountedLoop() {
    if (m_mounted) ::umount2(m_mount_point.c_str(), MNT_DETACH);
  }
  MountedLoop(const MountedLoop&) = delete;
  MountedLoop& operator=(const MountedLoop&) = delete;
  [[nodiscard]] const std::string& skip_reason() const { return m_skip; }
  [[nodiscard]] const std::string& backing() const { return m_backing; }
  [[nodiscard]] std::string device() const { return m_loop->path(); }
  [[nodiscard]] const std::string& mount_point() const { return m_mount_point; }

 private:
  std::string m_backing;
  std::string m_mount_point;
  std::optional<engine::LoopDevice> m_loop;
  bool m_mounted = false;
  std::string m_skip;
};

TEST(HostileInputs, AMountedFilesystemIsNeverWrittenThroughItsFileOrItsLoopDevice) {
  PTSUITE_SKIP_WITHOUT_LOOP();
  test_support::ShmTempDir dir("ptsuite-hostile-mount");
  MountedLoop m(dir);
  if (!m.skip_reason().empty()) GTEST_SKIP() << m.skip_reason();
  test_support::write_file(dir.file("s.json"), scenario_text(run_phase("4KiB")));
  const std::string mounted = "is mounted at " + m.mount_point();
  const std::string out = dir.file("out");
  std::vector<HostileCase> cases;
  for (const std::string& target : {m.backing(), m.device()}) {
    const std::vector<std::string> consent_or_not[] = {{}, {"--allow-destructive"}};
    for (const auto& consent : consent_or_not) {
      std::vector<std::string> w{"workload", "--target", target, "--read-pct", "0", "--ios", "100", "--quiet"};
      w.insert(w.end(), consent.begin(), consent.end());
      cases.push_back({"workload " + target, w, 3, {mounted}, m.backing(), {}});
    }
    cases.push_back(
        {"run " + target,
         {"run", "iops", "--quick", "--target", target, "--allow-destructive", "--out", out, "--no-history"},
         3,
         {mounted},
         m.backing(),
         {out}});
    cases.push_back(
        {"run purge.method=none " + target,
         {"run", "iops", "--quick", "--target", target, "--set", "purge.method=none", "--out", out, "--no-history"},
         3,
         {mounted},
         m.backing(),
         {out}});
    cases.push_back({"scenario " + target,
                     {"scenario", "run", dir.file("s.json"), "--target", target, "--allow-destructive", "--out", out},
                     3,
                     {mounted},
                     m.backing(),
                     {out}});
    cases.push_back({"validate " + target,
                     {"validate", "--claims", "enterprise-nvme", "--target", target, "--allow-destructive", "--out",
                      out, "--no-history"},
                     3,
                     {mounted},
                     m.backing(),
                     {out}});
    cases.push_back({"device purge " + target,
                     {"device", "purge", target, "--method", "zero-fill", "--allow-destructive"},
                     3,
                     {mounted},
                     m.backing(),
                     {}});
  }
  for (const HostileCase& c : cases) expect_case(c);
  EXPECT_EQ(read_file(fs::path(m.mount_point()) / "precious.txt"), "data a mounted filesystem holds\n");
}

TEST(HostileInputs, ATargetHeldByAnotherPtsuiteIsRefusedByEveryCommand) {
  test_support::ShmTempDir dir("ptsuite-hostile-held");
  const std::string target = data_file(dir, "held.img", 8 << 20);
  test_support::write_file(dir.file("s.json"), scenario_text(run_phase("4KiB")));
  // The holder only reads, so the target's hash is a fair witness for the refused writers.
  Child holder({"workload", "--target", target, "--read-pct", "100", "--duration", "60s", "--quiet"});
  for (int i = 0; i < 20000 && !holder.catches(SIGINT) && !holder.exited(); ++i) ::usleep(1000);
  ASSERT_TRUE(holder.catches(SIGINT)) << "the holder never started";
  const std::string held = fmt::format("held by pid {}: ptsuite workload on {}", holder.pid(), target);
  const std::string out = dir.file("out");
  const std::vector<HostileCase> cases = {
      {"workload write",
       {"workload", "--target", target, "--read-pct", "0", "--ios", "10", "--allow-destructive", "--quiet"},
       3,
       {held},
       target},
      {"workload read", {"workload", "--target", target, "--ios", "10", "--quiet"}, 3, {held}, target},
      {"run",
       {"run", "iops", "--quick", "--target", target, "--allow-destructive", "--out", out, "--no-history"},
       3,
       {held},
       target,
       {out}},
      {"scenario",
       {"scenario", "run", dir.file("s.json"), "--target", target, "--allow-destructive", "--out", out},
       3,
       {held},
       target,
       {out}},
  };
  for (const HostileCase& c : cases) expect_case(c);
  ::kill(holder.pid(), SIGINT);
  EXPECT_EQ(holder.wait().exit_code, 130);
}

TEST(HostileInputs, ALoopDeviceHeldByPtsuiteRefusesItsBackingFile) {
  PTSUITE_SKIP_WITHOUT_LOOP();
  test_support::ShmTempDir dir("ptsuite-hostile-loop");
  const std::string backing = data_file(dir, "b.img", 8 << 20);
  engine::LoopDevice loop = test_support::attach_loop_over(backing);
  Child holder({"workload", "--target", loop.path(), "--read-pct", "100", "--duration", "60s", "--quiet"});
  for (int i = 0; i < 20000 && !holder.catches(SIGINT) && !holder.exited(); ++i) ::usleep(1000);
  ASSERT_TRUE(holder.catches(SIGINT)) << "the holder never started";
  expect_case({"workload on the backing file",
               {"workload", "--target", backing, "--read-pct", "0", "--ios", "10", "--allow-destructive", "--quiet"},
               3,
               {loop.path() + " is held by pid " + std::to_string(holder.pid())},
               backing});
  ::kill(holder.pid(), SIGINT);
  EXPECT_EQ(holder.wait().exit_code, 130);
}

TEST(HostileInputs, EverythingCheckableIsCheckedBeforeTheFirstWrite) {
  test_support::ShmTempDir dir("ptsuite-hostile-plan");
  const std::string target = data_file(dir, "t.img", 16 << 20);
  const std::string out = dir.file("out");
  test_support::write_file(dir.file("bs0.json"), scenario_text(R"({"name": "p", "kind": "purge"}, )" + run_phase("0")));
  test_support::write_file(dir.file("past.json"), scenario_text(R"({"name": "f", "kind": "fill", "block_size": "128KiB",
      "capacity_multiple": 1}, )" + run_phase("4KiB", "1GiB:1MiB")));
  test_support::write_file(
      dir.file("rm.json"),
      scenario_text(R"({"name": "p", "kind": "purge", "method": "rm -rf /"}, )" + run_phase("4KiB")));
  test_support::write_file(dir.file("deep.json"), std::string(50'000, '[') + std::string(50'000, ']'));
  fs::create_directories(dir.file("full"));
  test_support::write_file(dir.file("full/foreign.txt"), "not ours\n");
  auto scen = [&](const std::string& file) {
    return std::vector<std::string>{"scenario", "run", dir.file(file),       "--target", target,
                                    "--out",    out,   "--allow-destructive"};
  };
  const std::vector<HostileCase> cases = {
      {"scenario block_size 0", scen("bs0.json"), 2, {"phase r: stream w on target 1: block_size"}, target, {out}},
      {"scenario range past the capacity",
       scen("past.json"),
       2,
       {"phase r", "range", "beyond the target's capacity"},
       target,
       {out}},
      {"scenario purge method", scen("rm.json"), 2, {"phase p: purge_method", "\"rm -rf /\""}, target, {out}},
      {"scenario nested 50000 deep", scen("deep.json"), 2, {"nesting deeper than 64 levels"}, target, {out}},
      {"run --scratch-size 1k",
       {"run", "iops", "--quick", "--scratch-size", "1k", "--out", out, "--no-history"},
       2,
       {"--scratch-size: 1k is too small"},
       "",
       {out}},
      {"scenario --scratch-size 1k",
       {"scenario", "run", "write-pressure", "--quick", "--scratch-size", "1k", "--out", out},
       2,
       {"--scratch-size: 1k is too small"},
       "",
       {out}},
      {"run --seed -1",
       {"run", "iops", "--target", target, "--seed", "-1", "--allow-destructive", "--out", out},
       2,
       {"--seed", "not a whole number"},
       target,
       {out}},
      {"scenario --seed -1", {"scenario", "run", "write-pressure", "--seed", "-1"}, 2, {"--seed"}, "", {}},
      {"plan --logical-block -1",
       {"plan", "iops", "--capacity", "1GiB", "--logical-block", "-1"},
       2,
       {"--logical-block"},
       "",
       {}},
      {"workload 1 TiB blocks",
       {"workload", "--target", target, "--read-pct", "0", "--block-size", "1TiB", "--ios", "1", "--allow-destructive"},
       2,
       {"--block-size", "larger than the maximum"},
       target},
      {"workload 1e8 threads",
       {"workload", "--target", target, "--read-pct", "0", "--threads", "100000000", "--ios", "1",
        "--allow-destructive"},
       2,
       {"--threads"},
       target},
      {"workload QD 60000 x 1 MiB of buffers",
       {"workload", "--target", target, "--read-pct", "0", "--queue-depth", "60000", "--block-size", "1MiB", "--ios",
        "1", "--allow-destructive"},
       2,
       {"--queue-depth", "exceeds the limit of 8GiB"},
       target},
      {"run purge.method rm -rf",
       {"run", "iops", "--target", target, "--set", "purge.method=rm -rf /", "--allow-destructive", "--out", out},
       2,
       {"purge.method", "rm -rf /"},
       target,
       {out}},
      {"run into a non-empty --out",
       {"run", "iops", "--quick", "--target", target, "--allow-destructive", "--out", dir.file("full"), "--no-history"},
       2,
       {"--out", "not empty"},
       target},
      {"scenario into a non-empty --out",
       {"scenario", "run", "write-pressure", "--target", target, "--allow-destructive", "--out", dir.file("full")},
       2,
       {"--out", "not empty"},
       target},
      {"workload on a file holding data without consent",
       {"workload", "--target", target, "--read-pct", "0", "--ios", "10"},
       3,
       {"holding data", "--allow-destructive"},
       target},
      {"run purge.method=none on a file holding data without consent",
       {"run", "iops", "--quick", "--target", target, "--set", "purge.method=none", "--out", out, "--no-history"},
       3,
       {"holding data"},
       target,
       {out}},
  };
  for (const HostileCase& c : cases) expect_case(c);
}

// Settings out of their ranges (pts/ "range" and the type bounds): exit 2 from `run` before the
// target is touched, naming the setting and the allowed range.
TEST(HostileInputs, SettingsOutOfRangeAreExitTwoBeforeTheTargetIsTouched) {
  test_support::ShmTempDir dir("ptsuite-hostile-settings");
  const std::string target = data_file(dir, "t.img", 16 << 20);
  const std::string out = dir.file("out");
  for (const std::string set :
       {"dirth.block_size=0", "max_rounds=4", "max_rounds=1000000", "wipc.capacity_multiple=1e300",
        "iops.segment_duration=1ns", "iops.threads=100000000"}) {
    const std::string name = set.substr(0, set.find('='));
    expect_case({"run --set " + set,
                 {"run", "iops,dirth", "--target", target, "--set", set, "--allow-destructive", "--out", out},
                 2,
                 {"--set " + name, "out of range: allowed"},
                 target,
                 {out}});
  }
}

TEST(HostileInputs, InputsAreBoundedInSizeAndDepth) {
  test_support::ShmTempDir dir("ptsuite-hostile-json");
  // 70 MB of a valid-looking results document: refused before it is parsed.
  {
    std::ofstream big(dir.file("big.json"));
    big << R"({"kind": "ptsuite.results", "schema_version": 1, "pad": ")" << std::string(70'000'000, 'x') << "\"}";
  }
  test_support::write_file(dir.file("dup.json"),
                           R"({"format": "ptsuite-claims/1", "format": "ptsuite-claims/1", "claims": []})");
  const std::vector<HostileCase> cases = {
      {"steady-state --file /dev/zero", {"steady-state", "--file", "/dev/zero"}, 2, {"larger than"}},
      {"report of a 70 MB document",
       {"report", dir.file("big.json"), "--format", "text", "--out", dir.file("r.txt")},
       2,
       {"larger than 64 MiB"},
       "",
       {dir.file("r.txt")}},
      {"claims with a duplicate key",
       {"validate", "--claims", dir.file("dup.json"), dir.file("nowhere")},
       2,
       {"the key \"format\" appears twice"}},
  };
  for (const HostileCase& c : cases) expect_case(c);
}

// Other tools' traces (fio iolog, blktrace) are read line by line within 8 KiB a line, in
// chunks for blktrace, and only from regular files (each is read twice: detection, import).
TEST(HostileInputs, TraceImportsAreBoundedAndReadOnlyRegularFiles) {
  test_support::ShmTempDir dir("ptsuite-hostile-trace");
  {
    std::ofstream big(dir.file("long.log"));
    big << "fio version 3 iolog\n10 f.bin add\n" << std::string(50'000'000, '1') << " f.bin read 0 4096\n";
  }
  ASSERT_EQ(::mkfifo(dir.file("pipe").c_str(), 0600), 0);
  const std::vector<HostileCase> cases = {
      {"replay of an iolog with a 50 MB line",
       {"replay", dir.file("long.log"), "--synthesize"},
       2,
       {"long.log:3: a line longer than 8 KiB"}},
      {"replay of a pipe",
       {"replay", dir.file("pipe"), "--synthesize"},
       2,
       {"is not a regular file (a pipe): save the trace to a file first"}},
      {"replay of /dev/zero", {"replay", "/dev/zero", "--synthesize"}, 2, {"(a character device)"}},
  };
  for (const HostileCase& c : cases) expect_case(c);
}

class HostileHistory : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"a", "b"}) {
      fs::create_directories(m_dir.file(name));
      test_support::write_file(fs::path(m_dir.file(name)) / "results.json",
                               test_support::load_results_fixture("steady").dump());
    }
  }
  [[nodiscard]] std::vector<std::string> history(std::vector<std::string> args) const {
    args.insert(args.begin(), "history");
    args.insert(args.end(), {"--db", m_dir.file("h.sqlite")});
    return args;
  }
  void edit(const std::string& run, const std::function<void(json&)>& change) const {
    const fs::path p = fs::path(m_dir.file(run)) / "results.json";
    json doc = json::parse(read_file(p));
    change(doc);
    test_support::write_file(p, doc.dump());
  }
  test_support::ShmTempDir m_dir{"ptsuite-hostile-history"};
};

TEST_F(HostileHistory, UrisIdsSchemasDirectoriesAndTerminalText) {
  const std::string typo = "postgressql://user:secret@host/db";
  const std::string sqlite_dir = m_dir.file("postgressql:");
  const std::vector<HostileCase> refused_uris = {
      {"mistyped scheme",
       {"history", "list", "--db", typo},
       2,
       {"--db", "postgressql://user:***@host/db", "postgresql://"},
       "",
       {sqlite_dir},
       {"secret"}},
      {"mysql",
       {"history", "list", "--db", "mysql://root:secret@db/x"},
       2,
       {"--db", "mysql://root:***@db/x"},
       "",
       {},
       {"secret"}},
      {"run --db checked before the run",
       {"run", "iops", "--db", typo, "--out", m_dir.file("run")},
       2,
       {"--db"},
       "",
       {m_dir.file("run")},
       {"secret"}},
  };
  for (const HostileCase& c : refused_uris) expect_case(c);

  ASSERT_EQ(run_ptsuite(history({"add", m_dir.file("a")})).exit_code, 0);
  // The same run from another directory: refused without --replace, replaced with it.
  expect_case({"another directory", history({"add", m_dir.file("b")}), 2, {"--replace", m_dir.file("a")}});
  EXPECT_EQ(run_ptsuite(history({"add", m_dir.file("b"), "--replace"})).exit_code, 0);

  edit("b", [](json& d) { d["schema_version"] = 99; });
  expect_case({"schema_version 99", history({"add", m_dir.file("b"), "--replace"}), 2, {"schema_version 99"}});
  edit("b", [](json& d) {
    d["schema_version"] = 1;
    d["tests"] = "x";
  });
  expect_case({"tests is a string", history({"add", m_dir.file("b"), "--replace"}), 2, {"\"tests\" array"}});
  edit("b", [](json& d) {
    d = test_support::load_results_fixture("steady");
    d["tests"].push_back(d["tests"][0]);
  });
  expect_case({"duplicate test ids", history({"add", m_dir.file("b"), "--replace"}), 2, {"twice"}});

  edit("b", [](json& d) {
    d = test_support::load_results_fixture("steady");
    d["device"]["model"] = "EVIL\x1b[2J\x1b[31mMODEL\nFAKE";
    d["device"]["serial"] = "SN-2";
    d["run"]["started_utc"] = "2026-01-01T00:00:00Z";
  });
  (void)bundle::write_manifest(test_support::output_dir(m_dir.file("b")));
  ASSERT_EQ(run_ptsuite(history({"add", m_dir.file("b")})).exit_code, 0);
  const ProcessResult list = run_ptsuite(history({"list"}));
  EXPECT_EQ(list.out.find('\x1b'), std::string::npos) << "a raw escape reached the terminal";
  EXPECT_NE(list.out.find("EVIL\\x1b[2J\\x1b[31mMODEL\\x0aFAKE"), std::string::npos) << list.out;

  // A bundle changed after its manifest is not recorded.
  test_support::write_file(fs::path(m_dir.file("b")) / "results.json",
                           read_file(fs::path(m_dir.file("b")) / "results.json") + " ");
  expect_case({"tampered bundle", history({"add", m_dir.file("b")}), 1, {"no longer matches its manifest"}});
}

TEST(HostileInputs, SignaturesKeysAndTemporaryFiles) {
  test_support::ShmTempDir dir("ptsuite-hostile-sign");
  const std::string run = dir.file("run");
  fs::create_directories(run);
  test_support::write_file(fs::path(run) / "results.json", test_support::load_results_fixture("steady").dump());
  (void)bundle::write_manifest(test_support::output_dir(run));
  ASSERT_EQ(run_ptsuite({"keygen", dir.file("k")}).exit_code, 0);
  ASSERT_EQ(run_ptsuite({"sign", run, "--key", dir.file("k")}).exit_code, 0) << "sign";
  ASSERT_EQ(run_ptsuite({"verify", run}).exit_code, 0);
  fs::remove(fs::path(run) / std::string(bundle::k_signature_file_name));
  const ProcessResult v = run_ptsuite({"verify", run});
  EXPECT_EQ(v.exit_code, 1) << v.out;
  EXPECT_NE(v.out.find("says the bundle was signed"), std::string::npos) << v.out;

  const std::vector<HostileCase> cases = {
      {"keygen into a missing directory",
       {"keygen", dir.file("no/such/dir/k")},
       2,
       {"KEY: cannot create", "does not exist"}},
      {"sign with /dev/zero as the key", {"sign", run, "--key", "/dev/zero"}, 2, {"/dev/zero", "not a key file"}},
  };
  for (const HostileCase& c : cases) expect_case(c);

  // A full filesystem (RLIMIT_FSIZE: EFBIG) leaves no temporary file behind.
  ASSERT_EQ(run_ptsuite({"history", "add", run, "--db", dir.file("h.sqlite")}).exit_code, 0);
  ProcessOptions tiny;
  tiny.file_size_limit_bytes = 64;
  const std::vector<std::pair<std::vector<std::string>, std::string>> writers = {
      {{"report", run + "/results.json", "--format", "csv", "--out", dir.file("r.csv")}, dir.file("r.csv")},
      {{"report", run + "/results.json", "--format", "html", "--out", dir.file("r.html")}, dir.file("r.html")},
      {{"history", "export", "--db", dir.file("h.sqlite"), "--out", dir.file("h.csv")}, dir.file("h.csv")},
      {{"compare", run, run, "--force", "--out", dir.file("cmp")}, dir.file("cmp")},
  };
  for (const auto& [args, written] : writers) {
    SCOPED_TRACE(args[0]);
    const ProcessResult r = run_ptsuite(args, tiny);
    EXPECT_NE(r.exit_code, 0) << r.err;
    EXPECT_FALSE(fs::exists(written + ".tmp")) << written;
    std::error_code ec;
    for (const auto& e : fs::recursive_directory_iterator(dir.path(), ec)) {
      EXPECT_NE(e.path().extension(), ".tmp") << e.path();
    }
  }
}

}  // namespace
}  // namespace ptsuite
