// The documents the built binary writes, against the schemas in pts/schema/:
//   * `ptsuite run` of a quick test on a scratch target (a loop device: root only), with
//     segment durations cut to fractions of a second;
//   * `ptsuite run` on a /dev/shm file target: the document written between two tests
//     (status "running"), the one left by SIGINT (status "interrupted", with the stopped
//     segment), and a run with --set purge.method=none (the skipped-purge record);
//   * `ptsuite workload --json` and `ptsuite demo` (the workload document).
#include <gtest/gtest.h>

#include <unistd.h>
#include <csignal>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/json_schema.hpp"

#include "integration/workload_process.hpp"
#include "support/loop_support.hpp"
#include "support/schema_support.hpp"
#include "support/temp_dir.hpp"

namespace ptsuite {
namespace {

using nlohmann::json;
using workload::test::Child;
using workload::test::ProcessResult;
using workload::test::run_ptsuite;
using workload::test::slurp;
namespace fs = std::filesystem;

using pts::schema_test::joined;

void expect_matches(const std::string& path, const std::string& schema_name) {
  ASSERT_TRUE(fs::exists(path)) << path;
  const json doc = json::parse(slurp(path));
  const std::vector<std::string> errors = validate_json(doc, embedded_schema(schema_name));
  EXPECT_TRUE(errors.empty()) << path << joined(errors);
}

// Short segments, reports off; each list ends in the run's own flags.
std::vector<std::string> run_args(std::vector<std::string> head) {
  for (const char* a :
       {"--quiet", "--format", "none", "--quick", "--set", "max_rounds=5", "--set", "latency.segment_duration=0.1s",
        "--set", "latency.capture_duration=0.2s", "--set", "throughput.segment_duration=0.1s", "--set",
        "wsat.sample_duration=0.1s", "--set", "wsat.capture_duration=0.2s"}) {
    head.emplace_back(a);
  }
  return head;
}

TEST(ResultsSchemaCli, QuickRunOnAScratchLoopDevice) {
  PTSUITE_SKIP_WITHOUT_LOOP();
  test_support::ShmTempDir dir;
  const std::string out = dir.file("run");
  std::vector<std::string> args = run_args({"run", "latency,wsat", "--scratch-size", "64MiB", "--out", out});
  for (const char* a : {"--set", "wsat.time_limit=1s"}) {
    args.emplace_back(a);
  }
  const ProcessResult r = run_ptsuite(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_matches(out + "/results.json", "results");
  const json doc = json::parse(slurp(out + "/results.json"));
  EXPECT_EQ(doc.at("device").at("transport"), "loop");
  EXPECT_EQ(doc.at("tests").size(), 2u);
}

// WSAT under wsat.stop_rule=steady-state and the extensions (endurance-write, latency-sweep):
// their records match the schema, and the WSAT check samples decide the stop.
TEST(ResultsSchemaCli, WsatSteadyStateStopRuleAndExtensions) {
  PTSUITE_SKIP_WITHOUT_LOOP();
  test_support::ShmTempDir dir;
  const std::string out = dir.file("run");
  std::vector<std::string> args =
      run_args({"run", "wsat,endurance-write,latency-sweep", "--scratch-size", "64MiB", "--out", out});
  for (const char* a : {"--set", "wsat.stop_rule=steady-state", "--set", "wsat.ss_round_samples=3", "--set",
                        "endurance-write.sample_duration=0.1s", "--set", "endurance-write.time_limit=0.3s", "--set",
                        "latency-sweep.segment_duration=0.05s", "--set", "latency-sweep.thread_counts=1", "--set",
                        "latency-sweep.queue_depths=1,2", "--set", "latency-sweep.rw_mixes=0/100"}) {
    args.emplace_back(a);
  }
  const ProcessResult r = run_ptsuite(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_matches(out + "/results.json", "results");
  const json doc = json::parse(slurp(out + "/results.json"));
  const json& w = doc.at("tests").at(0).at("wsat");
  const std::string stop = w.at("stop_reason").get<std::string>();
  EXPECT_TRUE(stop == "steady_state" || stop == "round_cap") << stop;
  EXPECT_EQ(w.at("samples").size() % 3, 0u);
  EXPECT_EQ(w.at("steady_state").at("check_samples").size(), w.at("samples").size() / 3);
}

TEST(ResultsSchemaCli, RunningThenInterruptedOnAFileTarget) {
  test_support::ShmTempDir dir;
  const std::string target = dir.create_file("target.img", 64ull << 20);
  const std::string out = dir.file("run");
  const std::string results = out + "/results.json";
  // WSAT would go on for a minute: it is interrupted once the Latency record is written.
  std::vector<std::string> args =
      run_args({"run", "latency,wsat", "--target", target, "--out", out, "--allow-destructive"});
  for (const char* a : {"--set", "wsat.capacity_multiple=1000", "--set", "wsat.time_limit=60s"}) {
    args.emplace_back(a);
  }
  ProcessResult stopped;
  {
    Child child(args);
    while ((!fs::exists(results) || !child.catches(SIGINT)) && !child.exited()) {
      ::usleep(20'000);
    }
    ASSERT_FALSE(child.exited()) << "the run ended before WSAT could be interrupted";
    // Written after the first test, while the second runs: no run-wide verdicts yet.
    const json running = json::parse(slurp(results));
    EXPECT_EQ(running.at("run").at("status"), "running");
    EXPECT_FALSE(running.contains("compliance"));
    const std::vector<std::string> errors = validate_json(running, embedded_schema("results"));
    EXPECT_TRUE(errors.empty()) << joined(errors);
    ::kill(child.pid(), SIGINT);
    stopped = child.wait();
  }
  ASSERT_EQ(stopped.exit_code, 130) << stopped.err;
  expect_matches(results, "results");
  const json doc = json::parse(slurp(results));
  EXPECT_EQ(doc.at("run").at("status"), "interrupted");
  EXPECT_TRUE(doc.at("run").at("stop").contains("partial_segment"));
  EXPECT_EQ(doc.at("device").at("transport"), "file");
}

TEST(ResultsSchemaCli, SkippedPurgeOnAFileTarget) {
  test_support::ShmTempDir dir;
  const std::string target = dir.create_file("target.img", 32ull << 20);
  const std::string out = dir.file("run");
  std::vector<std::string> args =
      run_args({"run", "throughput", "--target", target, "--out", out, "--allow-destructive"});
  for (const char* a : {"--set", "purge.method=none"}) {
    args.emplace_back(a);
  }
  const ProcessResult r = run_ptsuite(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_matches(out + "/results.json", "results");
  const json doc = json::parse(slurp(out + "/results.json"));
  EXPECT_EQ(doc.at("tests")[0].at("purges")[0].at("outcome"), "skipped");
}

TEST(ResultsSchemaCli, WorkloadDocuments) {
  test_support::ShmTempDir dir;
  const std::string target = dir.create_file("target.img", 16ull << 20);
  const std::vector<std::vector<std::string>> cases = {
      {"--read-pct", "70", "--duration", "0.2s", "--interval", "50ms"},
      {"--pattern", "sequential", "--bs-split", "4k/3:64k/1", "--threads", "2", "--queue-depth", "4", "--range",
       "1MiB:8MiB", "--bytes", "4MiB", "--seed", "18071037207164121928"},
      {"--zones", "50/5:30/15:20/80", "--read-pct", "0", "--ios", "2000", "--rate-iops", "20k", "--engine", "sync"}};
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(i);
    const std::string out = dir.file("workload-" + std::to_string(i) + ".json");
    std::vector<std::string> args{"workload", "--target", target, "--json-out", out, "--quiet", "--allow-destructive"};
    args.insert(args.end(), cases[i].begin(), cases[i].end());
    const ProcessResult r = run_ptsuite(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_matches(out, "workload");
  }
  const std::string demo = dir.file("demo");
  const ProcessResult r =
      run_ptsuite({"demo", "--target", target, "--duration", "0.2s", "--out", demo, "--quiet", "--allow-destructive"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_matches(demo + "/results.json", "workload");
  EXPECT_EQ(json::parse(slurp(demo + "/results.json")).at("command"), "demo");
}

}  // namespace
}  // namespace ptsuite
