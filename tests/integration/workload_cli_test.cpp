// `ptsuite workload` and `ptsuite demo` as a user runs them: bad input exits 2 with one line
// naming the option and writes nothing; the JSON has its documented shape; an IO error exits
// 4 and SIGINT/SIGTERM exit 130, both still writing the JSON; block devices need
// --allow-destructive and mounted ones are refused before any write.
#include <gtest/gtest.h>

#include <sys/mount.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include <ptsuite/util/units.hpp>
#include "integration/workload_process.hpp"
#include "support/loop_support.hpp"
#include "support/temp_dir.hpp"

namespace ptsuite::workload {
namespace {

using nlohmann::json;
using test::ProcessResult;
using test::run_ptsuite;
using test::slurp;
namespace fs = std::filesystem;

using units::k_mib;

// A file of `bytes` bytes of 0x5A, so that any write shows.
std::string patterned_file(const test_support::ShmTempDir& dir, const std::string& name, uint64_t bytes) {
  const std::string path = dir.file(name);
  std::ofstream out(path, std::ios::binary);
  const std::string chunk(k_mib, '\x5A');
  for (uint64_t done = 0; done < bytes; done += chunk.size()) {
    out.write(chunk.data(), static_cast<std::streamsize>(std::min<uint64_t>(chunk.size(), bytes - done)));
  }
  return path;
}

bool one_line(const std::string& text) { return !text.empty() && text.find('\n') == text.size() - 1; }

json load_json(const std::string& path) { return json::parse(slurp(path)); }

struct BadInput {
  std::vector<std::string> args;
  std::string option;  // must appear in the message
};

TEST(WorkloadCli, BadInputExitsTwoWithOneLineNamingTheOptionAndWritesNothing) {
  test_support::ShmTempDir dir;
  const std::string target = patterned_file(dir, "target.img", 8 * k_mib);
  const std::string before = slurp(target);
  const std::string json_path = dir.file("out.json");
  const std::vector<BadInput> cases = {
      {{"--threads", "0"}, "--threads"},
      {{"--threads", "-1"}, "--threads"},
      {{"--queue-depth", "0"}, "--queue-depth"},
      {{"--queue-depth", "lots"}, "--queue-depth"},
      {{"--block-size", "4XB"}, "--block-size"},
      {{"--block-size", "1000"}, "--block-size"},
      {{"--block-size", "16MiB"}, "--block-size"},
      {{"--bs-split", "4k/0:8k/1"}, "--bs-split"},
      {{"--block-size", "4k", "--bs-split", "4k/1"}, "--bs-split"},
      {{"--read-pct", "101"}, "--read-pct"},
      {{"--read-pct", "-5"}, "--read-pct"},
      {{"--range", "200%"}, "--range"},
      {{"--range", "4MiB:8MiB"}, "--range"},
      {{"--zones", "50/5:30/15"}, "--zones"},
      {{"--bytes", "0x"}, "--bytes"},
      {{"--ios", "0"}, "--ios"},
      {{"--rate-iops", "-3"}, "--rate-iops"},
      {{"--rate-mbps", "fast"}, "--rate-mbps"},
      {{"--cpus", "9999"}, "--cpus"},
      {{"--pattern", "zigzag"}, "--pattern"},
      {{"--engine", "bogus"}, "--engine"},
      {{"--data", "ones"}, "--data"},
      {{"--interval", "1ms"}, "--interval"},
      {{"--seed", "abc"}, "--seed"},
      {{"--duration", "0"}, "--duration"},
      {{"--duration", "10 parsecs"}, "--duration"},
      {{"--json-out", "/nonexistent-dir/out.json"}, "--json-out"},
      {{"--bogus-option", "1"}, "--bogus-option"},
  };
  for (const BadInput& c : cases) {
    // A valid writing workload, with the case's options replacing or adding to it.
    std::vector<std::pair<std::string, std::string>> options = {
        {"--target", target}, {"--read-pct", "0"}, {"--duration", "1s"}, {"--json-out", json_path}};
    for (size_t i = 0; i + 1 < c.args.size(); i += 2) {
      auto it = std::find_if(options.begin(), options.end(), [&](const auto& o) { return o.first == c.args[i]; });
      if (it != options.end()) {
        it->second = c.args[i + 1];
      } else {
        options.emplace_back(c.args[i], c.args[i + 1]);
      }
    }
    std::vector<std::string> args = {"workload"};
    for (const auto& [name, value] : options) {
      args.push_back(name);
      args.push_back(value);
    }
    const ProcessResult r = run_ptsuite(args);
    EXPECT_EQ(r.exit_code, 2) << c.option << ": " << r.err;
    EXPECT_TRUE(one_line(r.err)) << c.option << ": " << r.err;
    EXPECT_EQ(r.err.rfind("ptsuite: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.option), std::string::npos) << c.option << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_FALSE(fs::exists(json_path)) << c.option;
  }
  // Missing target, missing limit, target that does not exist.
  const std::vector<BadInput> more = {
      {{"workload", "--read-pct", "0", "--duration", "1s"}, "--target"},
      {{"workload", "--target", target, "--read-pct", "0", "--allow-destructive"}, "--duration"},
      {{"workload", "--target", dir.file("missing.img"), "--duration", "1s"}, "--target"},
  };
  for (const BadInput& c : more) {
    const ProcessResult r = run_ptsuite(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.option << ": " << r.err;
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find(c.option), std::string::npos) << r.err;
  }
  EXPECT_TRUE(slurp(target) == before) << "bad input changed the target";
}

TEST(WorkloadCli, JsonRecordsConfigResultsAndHistograms) {
  test_support::ShmTempDir dir;
  const std::string target = dir.create_file("target.img", 16 * k_mib);
  const std::string json_path = dir.file("out.json");
  const ProcessResult r = run_ptsuite({"workload",
                                       "--target",
                                       target,
                                       "--pattern",
                                       "rand",
                                       "--read-pct",
                                       "60",
                                       "--bs-split",
                                       "4k/3:8k/1",
                                       "--threads",
                                       "2",
                                       "--queue-depth",
                                       "4",
                                       "--ios",
                                       "4000",
                                       "--seed",
                                       "7",
                                       "--engine",
                                       "sync",
                                       "--data",
                                       "refill",
                                       "--range",
                                       "50%",
                                       "--zones",
                                       "50/5:30/15:20/80",
                                       "--interval",
                                       "10ms",
                                       "--json-out",
                                       json_path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << "no progress line without a terminal: " << r.err;
  EXPECT_NE(r.out.find("MB = 10^6 bytes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("p99.9999"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("combined"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("µs per IO"), std::string::npos) << r.out;

  const json doc = load_json(json_path);
  EXPECT_EQ(doc["schema_version"], 1);
  EXPECT_EQ(doc["kind"], "ptsuite.workload");
  EXPECT_FALSE(doc["tool"]["version"].get<std::string>().empty());
  EXPECT_FALSE(doc["tool"]["git_revision"].get<std::string>().empty());
  const json& config = doc["config"];
  EXPECT_EQ(config["seed"], 7);
  EXPECT_EQ(config["engine"], "sync");
  EXPECT_EQ(config["data_pattern"], "refill");
  EXPECT_EQ(config["pattern"], "random");
  EXPECT_EQ(config["threads"], 2);
  EXPECT_EQ(config["queue_depth"], 4);
  EXPECT_EQ(config["target"]["capacity_bytes"], 16 * k_mib);
  EXPECT_EQ(config["range"]["length_bytes"], 8 * k_mib);
  EXPECT_EQ(config["block_sizes"].size(), 2u);
  EXPECT_EQ(config["zones"].size(), 3u);
  const json& results = doc["results"];
  EXPECT_EQ(results["stop_reason"], "ios");
  EXPECT_TRUE(results["error"].is_null());
  const uint64_t reads = results["read"]["ios"];
  const uint64_t writes = results["write"]["ios"];
  EXPECT_EQ(reads + writes, 4000u);
  EXPECT_EQ(results["combined"]["ios"], 4000u);
  for (const char* d : {"read", "write", "combined"}) {
    uint64_t in_buckets = 0;
    for (const json& run : results[d]["histogram"]["buckets"]) {
      for (size_t k = 1; k < run.size(); ++k) {  // [lower_ns, count, count, ...]
        in_buckets += run[k].get<uint64_t>();
      }
    }
    EXPECT_EQ(in_buckets, results[d]["ios"].get<uint64_t>()) << d;
    EXPECT_TRUE(results[d]["latency_ns"]["percentiles"].contains("99.9999")) << d;
  }
  EXPECT_TRUE(results["cpu"].contains("us_per_io"));
  EXPECT_EQ(results["intervals"]["interval_ns"], 10'000'000u);
  EXPECT_EQ(doc["command"], "workload");
}

// --submit-batch bounds the IOs per engine submit call; results.submit_calls counts the calls.
// The null engine completes every IO at once, so with all free slots per call (0) the worker
// refills its whole queue (8) per call, and with batches of 2 it needs at least 4000 / 2 calls.
TEST(WorkloadCli, SubmitBatchBoundsTheIosPerSubmitCall) {
  test_support::ShmTempDir dir;
  const std::string target = dir.create_file("target.img", 16 * k_mib);
  auto submit_calls = [&](const std::string& batch) {
    const std::string json_path = dir.file("batch-" + batch + ".json");
    const ProcessResult r =
        run_ptsuite({"workload", "--target", target, "--pattern", "rand", "--queue-depth", "8", "--ios", "4000",
                     "--engine", "null", "--submit-batch", batch, "--quiet", "--json-out", json_path});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const json doc = load_json(json_path);
    EXPECT_EQ(doc["config"]["submit_batch"], std::stoul(batch));
    EXPECT_EQ(doc["results"]["combined"]["ios"], 4000u);
    return doc["results"]["submit_calls"].get<uint64_t>();
  };
  const uint64_t batched = submit_calls("2");
  EXPECT_GE(batched, 4000u / 2);
  EXPECT_LE(batched, 4000u);                    // never more calls than IOs
  EXPECT_LE(submit_calls("0"), 4000u / 8 + 8);  // whole-queue refills (+ a few partial ones)
}

TEST(WorkloadCli, IoErrorExitsFourAndStillWritesTheJson) {
  // RLIMIT_FSIZE of 4 MiB on the child: its writes at offsets >= 4 MiB of the 8 MiB file fail
  // with EFBIG, a genuine IO error returned by the kernel.
  test_support::ShmTempDir dir;
  const std::string target = dir.create_file("target.img", 8 * k_mib);
  const std::string json_path = dir.file("out.json");
  const ProcessResult r = run_ptsuite({"workload", "--target", target, "--pattern", "seq", "--read-pct", "0",
                                       "--block-size", "64k", "--bytes", "1x", "--seed", "1", "--json-out", json_path},
                                      {4 * k_mib, ""});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_TRUE(one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("IO error"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("offset 4194304"), std::string::npos) << r.err;
  const json doc = load_json(json_path);
  EXPECT_EQ(doc["results"]["stop_reason"], "io_error");
  const json& error = doc["results"]["error"];
  ASSERT_FALSE(error.is_null());
  EXPECT_EQ(error["errno"], EFBIG);
  EXPECT_EQ(error["op"], "write");
  EXPECT_EQ(error["offset_bytes"], 4 * k_mib);
  EXPECT_EQ(error["length_bytes"], 64 * 1024);
  EXPECT_EQ(doc["results"]["write"]["bytes"], 4 * k_mib);  // everything before the limit counted
}

void expect_signal_stops_cleanly(int signum) {
  test_support::ShmTempDir dir;
  const std::string target = dir.create_file("target.img", 16 * k_mib);
  const std::string json_path = dir.file("out.json");
  test::Child child({"workload", "--target", target, "--read-pct", "50", "--duration", "60s", "--json-out", json_path});
  // Signal only once the handler is installed (the run is starting), never by timing.
  while (!child.catches(signum) && !child.exited()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_FALSE(child.exited()) << "ptsuite ended before it could be signalled";
  ::kill(child.pid(), signum);
  const ProcessResult r = child.wait();
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted"), std::string::npos) << r.err;
  const json doc = load_json(json_path);
  EXPECT_EQ(doc["results"]["stop_reason"], "interrupted");
  EXPECT_TRUE(doc["results"]["error"].is_null());
}

TEST(WorkloadCli, SigintStillWritesTheJsonAndExits130) { expect_signal_stops_cleanly(SIGINT); }

TEST(WorkloadCli, SigtermStillWritesTheJsonAndExits130) { expect_signal_stops_cleanly(SIGTERM); }

class WorkloadCliLoop : public test_support::LoopDeviceFixture {};

TEST_F(WorkloadCliLoop, BlockDeviceWritesNeedConsentAndReadsDoNot) {
  if (IsSkipped()) {
    return;
  }
  auto& loop = attach_loop(8 * k_mib);
  {
    std::ofstream fill(loop.backing_path, std::ios::binary | std::ios::in);
    const std::string pattern(8 * k_mib, '\x5A');
    fill.write(pattern.data(), static_cast<std::streamsize>(pattern.size()));
  }
  const std::string before = slurp(loop.backing_path);
  const ProcessResult refused =
      run_ptsuite({"workload", "--target", loop.device.path(), "--read-pct", "0", "--ios", "100"});
  EXPECT_EQ(refused.exit_code, 3) << refused.err;
  EXPECT_TRUE(one_line(refused.err)) << refused.err;
  EXPECT_NE(refused.err.find("--allow-destructive"), std::string::npos) << refused.err;
  EXPECT_TRUE(slurp(loop.backing_path) == before) << "a refused run wrote to the device";

  const ProcessResult reads = run_ptsuite({"workload", "--target", loop.device.path(), "--ios", "100"});
  EXPECT_EQ(reads.exit_code, 0) << reads.err;
  EXPECT_TRUE(slurp(loop.backing_path) == before);

  const ProcessResult writes = run_ptsuite({"workload", "--target", loop.device.path(), "--read-pct", "0", "--ios",
                                            "100", "--allow-destructive", "--quiet"});
  EXPECT_EQ(writes.exit_code, 0) << writes.err;
  EXPECT_TRUE(writes.out.empty()) << "--quiet: " << writes.out;
  EXPECT_FALSE(slurp(loop.backing_path) == before) << "the consented writes did not land";
}

// Mounts a filesystem read-only for the scope of one test; unmounts on every path.
class ReadOnlyMount {
 public:
  ReadOnlyMount(const std::string& device, const std::string& dir) : m_dir(dir) {
    m_mounted = ::mount(device.c_str(), dir.c_str(), "ext4", MS_RDONLY, "noload") == 0;
    m_errno = errno;
  }
  ~ReadOnlyMount() {
    if (m_mounted) {
      ::umount2(m_dir.c_str(), MNT_DETACH);
    }
  }
  [[nodiscard]] bool mounted() const noexcept { return m_mounted; }
  [[nodiscard]] int error() const noexcept { return m_errno; }

 private:
  std::string m_dir;
  bool m_mounted = false;
  int m_errno = 0;
};

TEST_F(WorkloadCliLoop, MountedDeviceIsRefusedBeforeAnyWrite) {
  if (IsSkipped()) {
    return;
  }
  if (std::system("command -v mkfs.ext4 >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "mkfs.ext4 not installed";
  }
  auto& loop = attach_loop(32 * k_mib);
  ASSERT_EQ(std::system(("mkfs.ext4 -q -F " + loop.device.path() + " >/dev/null 2>&1").c_str()), 0);
  const std::string mount_dir = temp_dir().file("mnt");
  fs::create_directory(mount_dir);
  const ReadOnlyMount mount(loop.device.path(), mount_dir);
  if (!mount.mounted()) {
    GTEST_SKIP() << "cannot mount ext4 here: " << std::strerror(mount.error());
  }
  const std::string before = slurp(loop.backing_path);
  const ProcessResult r = run_ptsuite(
      {"workload", "--target", loop.device.path(), "--read-pct", "0", "--ios", "100", "--allow-destructive"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_TRUE(one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("mounted"), std::string::npos) << r.err;
  EXPECT_TRUE(slurp(loop.backing_path) == before) << "a mounted device was written";
}

TEST_F(WorkloadCliLoop, DemoOnABlockDeviceNeedsConsent) {
  if (IsSkipped()) {
    return;
  }
  auto& loop = attach_loop(8 * k_mib);
  const ProcessResult r =
      run_ptsuite({"demo", "--target", loop.device.path(), "--duration", "1s", "--out", temp_dir().file("demo-out")});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("--allow-destructive"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(temp_dir().file("demo-out"))) << "a refused demo left its results directory";
}

TEST(DemoCli, ScratchDemoRunsCleansUpAndSaysWhereTheResultsAre) {
  // As in the README: no target, no output directory (it goes to ./ptsuite-demo-<UTC time>).
  test_support::ShmTempDir dir;
  test::ProcessOptions options;
  options.working_directory = dir.path();
  const ProcessResult r = run_ptsuite({"demo", "--duration", "1s", "--seed", "3", "--quiet"}, options);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<fs::path> made(fs::directory_iterator(dir.path()), fs::directory_iterator());
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(made[0].filename().string().rfind("ptsuite-demo-", 0), 0u) << made[0];
  const std::string results = (made[0] / "results.json").string();
  EXPECT_EQ(r.out, "results  " + results + "\n");
  const json doc = load_json(results);
  EXPECT_EQ(doc["command"], "demo");
  EXPECT_EQ(doc["config"]["seed"], 3);
  EXPECT_EQ(doc["config"]["read_pct"], 70.0);
  EXPECT_NE(doc["config"]["target"]["note"].get<std::string>().find("scratch"), std::string::npos);
  EXPECT_GT(doc["results"]["combined"]["ios"].get<uint64_t>(), 0u);
  EXPECT_EQ(doc["results"]["stop_reason"], "duration");
  const std::string scratch_path = doc["config"]["target"]["path"];
  if (doc["config"]["target"]["kind"] == "regular_file") {
    EXPECT_FALSE(fs::exists(scratch_path)) << "the scratch file was left behind";
  }
}

TEST(DemoCli, RunsOnAGivenFileTarget) {
  test_support::ShmTempDir dir;
  const std::string target = dir.create_file("target.img", 16 * k_mib);
  const ProcessResult r = run_ptsuite({"demo", "--target", target, "--duration", "1s", "--out", dir.file("out")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("combined"), std::string::npos) << r.out;
  EXPECT_EQ(load_json(dir.file("out") + "/results.json")["config"]["target"]["path"], target);
}

}  // namespace
}  // namespace ptsuite::workload
