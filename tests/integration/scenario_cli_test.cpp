// `ptsuite scenario` end to end with the built binary: every built-in scenario's --quick form on
// scratch targets (loop devices over /dev/shm when root, else O_DIRECT files; six at once for
// noisy-neighbour), a two-target run whose aggregate is checked against the merged histograms,
// rate-ramp accuracy, and refusals before anything is touched.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include <ptsuite/stats/latency_histogram.hpp>
#include <ptsuite/stats/stats_json.hpp>

#include "integration/workload_process.hpp"
#include "support/json_schema.hpp"
#include "support/loop_support.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"

namespace ptsuite {
namespace {

using nlohmann::json;
using workload::test::ProcessResult;
using workload::test::run_ptsuite;
namespace fs = std::filesystem;

using test_support::load_json;

std::string write(const test_support::ShmTempDir& dir, const std::string& name, const json& doc) {
  const std::string path = dir.file(name);
  std::ofstream(path) << doc.dump(2);
  return path;
}

void expect_valid(const json& doc) {
  static const json schema = embedded_schema("scenario-results");
  const std::vector<std::string> errors = validate_json(doc, schema);
  EXPECT_TRUE(errors.empty()) << errors.size() << " errors, first: " << (errors.empty() ? "" : errors.front());
}

class ScenarioBuiltIn : public ::testing::TestWithParam<std::string> {};

TEST_P(ScenarioBuiltIn, QuickFormRunsEndToEndWithItsCharts) {
  test_support::ShmTempDir dir;
  const std::string out = dir.file("run");
  const ProcessResult r =
      run_ptsuite({"scenario", "run", GetParam(), "--quick", "--scratch-size", "256MiB", "--quiet", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = load_json(out + "/results.json");
  expect_valid(doc);
  EXPECT_EQ(doc.at("status"), "complete");
  EXPECT_EQ(doc.at("scenario").at("name"), GetParam());
  std::ifstream html(out + "/report.html");
  const std::string page((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  const std::map<std::string, std::string> k_chart = {{"write-pressure", "Read latency vs write pressure"},
                                                      {"noisy-neighbour", "Read latency per stream"},
                                                      {"enterprise-synthetic", "Throughput vs TC x QD"},
                                                      {"mixed-profile-curves", "Load curve: average latency vs IOPS"}};
  EXPECT_NE(page.find(k_chart.at(GetParam())), std::string::npos);
  EXPECT_TRUE(fs::exists(out + "/summary.txt"));
  for (const json& phase : doc.at("phases")) {
    for (const json& step : phase.at("steps")) {
      EXPECT_GT(step.at("aggregate").at("combined").at("ios").get<uint64_t>(), 0u) << step.at("label");
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, ScenarioBuiltIn,
                         ::testing::Values("write-pressure", "noisy-neighbour", "enterprise-synthetic",
                                           "mixed-profile-curves"),
                         [](const auto& param_info) {
                           std::string n = param_info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

json stream(const std::string& name, const std::string& mix, int qd) {
  return {{"name", name}, {"pattern", "random"}, {"rw_mix", mix}, {"block_size", "4KiB"}, {"queue_depth", qd}};
}

// The merged histogram of `direction` over every instance on `target` (or all when < 0).
stats::LatencyHistogram merged(const json& step, const char* direction, int target) {
  stats::LatencyHistogram h;
  for (const json& in : step.at("streams")) {
    if (target >= 0 && in.at("target") != target) continue;
    h.merge(in.at("histograms").at(direction).get<stats::LatencyHistogram>());
  }
  return h;
}

TEST(ScenarioCli, TwoTargetsGivePerTargetAndMergedAggregateResults) {
  test_support::ShmTempDir dir;
  const std::string a = dir.create_file("a.img", 64 << 20);
  const std::string b = dir.create_file("b.img", 64 << 20);
  const json scenario{{"format", "ptsuite-scenario/1"},
                      {"name", "two"},
                      {"title", "two targets"},
                      {"phases",
                       {{{"name", "mixed"},
                         {"kind", "run"},
                         {"duration", "1s"},
                         {"streams", {stream("reads", "100/0", 4), stream("writes", "0/100", 2)}}}}}};
  const std::string out = dir.file("run");
  const ProcessResult r = run_ptsuite(
      {"scenario", "run", write(dir, "two.json", scenario), "--target", a, "--target", b, "--quiet", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = load_json(out + "/results.json");
  expect_valid(doc);
  const json& step = doc.at("phases")[0].at("steps")[0];
  ASSERT_EQ(step.at("streams").size(), 4u) << "each stream runs on each target";
  double iops_sum = 0;
  for (const json& in : step.at("streams")) iops_sum += in.at("summary").at("combined").at("iops").get<double>();
  const json& agg = step.at("aggregate");
  EXPECT_NEAR(agg.at("combined").at("iops").get<double>(), iops_sum, iops_sum * 1e-9) << "IOPS add up";
  for (const char* direction : {"read", "write", "combined"}) {
    const stats::LatencyHistogram all = merged(step, direction, -1);
    // A percentile is the histogram's value bounded by the exact extremes (a bucket's midpoint
    // can lie above the maximum: stats/latency_stats.cpp).
    const json& agg_lat = agg.at(direction).at("latency_ns");
    const auto bounded = [](const json& lat, uint64_t value_ns) {
      return std::clamp(value_ns, lat.at("min").get<uint64_t>(), lat.at("max").get<uint64_t>());
    };
    for (const char* p : {"50", "99", "99.9", "99.99"}) {
      EXPECT_EQ(agg_lat.at("percentiles").at(p).get<uint64_t>(),
                bounded(agg_lat, all.value_at_percentile_ns(std::stod(p))))
          << direction << " " << p << ": aggregate percentiles come from the merged histograms";
    }
    const stats::LatencyHistogram t1 = merged(step, direction, 1);
    const json& t1_lat = step.at("targets")[1].at("summary").at(direction).at("latency_ns");
    EXPECT_EQ(t1_lat.at("percentiles").at("99").get<uint64_t>(), bounded(t1_lat, t1.value_at_percentile_ns(99)));
  }
}

// A run phase may stop at a byte count instead of a time, and record each stream's interval series.
TEST(ScenarioCli, ByteLimitedPhasesAndIntervalSeries) {
  test_support::ShmTempDir dir;
  const std::string a = dir.create_file("a.img", 64 << 20);
  json writer = stream("w", "0/100", 4);
  writer["range"] = "8MiB:16MiB";
  const json scenario{
      {"format", "ptsuite-scenario/1"},
      {"name", "bytes"},
      {"title", "bytes"},
      {"phases",
       {{{"name", "twice"}, {"kind", "run"}, {"bytes", "2x"}, {"interval", "100ms"}, {"streams", {writer}}}}}};
  const std::string out = dir.file("run");
  const ProcessResult r =
      run_ptsuite({"scenario", "run", write(dir, "bytes.json", scenario), "--target", a, "--quiet", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = load_json(out + "/results.json");
  expect_valid(doc);
  const json& in = doc.at("phases")[0].at("steps")[0].at("streams")[0];
  EXPECT_EQ(in.at("stop_reason"), "bytes");
  EXPECT_EQ(in.at("summary").at("write").at("bytes").get<uint64_t>(), 32u << 20) << "2x the 16 MiB range";
  uint64_t interval_bytes = 0;
  for (const json& i : in.at("intervals")) interval_bytes += i.at("write_bytes").get<uint64_t>();
  EXPECT_EQ(interval_bytes, 32u << 20) << "the series sums to the totals";
}

// Steps far below the measured peak (10-30 %), so that the target sustains them even when the
// machine is busy with other tests (ctest -j2 on 2 cores): then every step must land within 2 %.
TEST(ScenarioCli, RateRampStepsAchieveTheirRateWithinTwoPercent) {
  test_support::ShmTempDir dir;
  const std::string a = dir.create_file("a.img", 64 << 20);
  json ramp_stream = stream("c", "100/0", 8);
  const json scenario{{"format", "ptsuite-scenario/1"},
                      {"name", "ramp"},
                      {"title", "ramp"},
                      {"phases",
                       {{{"name", "peak"}, {"kind", "run"}, {"duration", "1s"}, {"streams", {stream("p", "100/0", 8)}}},
                        {{"name", "curve"},
                         {"kind", "rate_ramp"},
                         {"duration", "2s"},
                         {"percent_of", "peak"},
                         {"percents", {10, 20, 30}},
                         {"stream", ramp_stream}}}}};
  const std::string out = dir.file("run");
  const ProcessResult r =
      run_ptsuite({"scenario", "run", write(dir, "ramp.json", scenario), "--target", a, "--quiet", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = load_json(out + "/results.json");
  const double peak = doc.at("phases")[0].at("steps")[0].at("aggregate").at("combined").at("iops").get<double>();
  const json& steps = doc.at("phases")[1].at("steps");
  ASSERT_EQ(steps.size(), 3u);
  for (const json& step : steps) {
    const json& in = step.at("streams")[0];
    const double requested = in.at("rate").at("iops").get<double>();
    EXPECT_NEAR(requested, peak * step.at("x").at("percent").get<double>() / 100, 1.0);
    const double achieved = in.at("summary").at("combined").at("iops").get<double>();
    EXPECT_NEAR(achieved, requested, requested * 0.02) << step.at("label");
  }
}

// SIGINT after the first finished step: exit 130 with that step kept and journaled; `scenario
// resume` replays it (the same record, not run again) and runs the rest on the same target.
TEST(ScenarioCli, AnInterruptedRunResumesAfterItsLastFinishedStep) {
  test_support::ShmTempDir dir;
  const std::string a = dir.create_file("a.img", 64 << 20);
  json sweep = stream("s", "70/30", 1);
  sweep.erase("queue_depth");  // the points set it
  const json scenario{{"format", "ptsuite-scenario/1"},
                      {"name", "sweep"},
                      {"title", "sweep"},
                      {"phases",
                       {{{"name", "txq"},
                         {"kind", "txq"},
                         {"duration", "1s"},
                         {"stream", sweep},
                         {"points", {{1, 1}, {1, 4}, {2, 4}, {2, 8}}}}}}};
  const std::string out = dir.file("run");
  workload::test::Child child(
      {"scenario", "run", write(dir, "sweep.json", scenario), "--target", a, "--quiet", "--out", out});
  while ((!fs::exists(out + "/journal.json") || !child.catches(SIGINT)) && !child.exited()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(child.pid(), SIGINT);
  const ProcessResult first = child.wait();
  ASSERT_EQ(first.exit_code, 130) << first.err;
  const json stopped = load_json(out + "/results.json");
  EXPECT_EQ(stopped.at("status").get<std::string>().rfind("stopped: ", 0), 0u);
  const size_t kept = stopped.at("phases")[0].at("steps").size();
  ASSERT_GE(kept, 1u);
  ASSERT_LT(kept, 4u) << "the interrupted step is dropped, not kept partial";
  const json first_step = stopped.at("phases")[0].at("steps")[0];

  // The target now holds the first session's data: resuming overwrites it, which needs consent.
  const ProcessResult refused = run_ptsuite({"scenario", "resume", out, "--quiet"});
  EXPECT_EQ(refused.exit_code, 3) << refused.err;
  EXPECT_NE(refused.err.find("--allow-destructive"), std::string::npos) << refused.err;
  const ProcessResult resumed = run_ptsuite({"scenario", "resume", out, "--quiet", "--allow-destructive"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  const json done = load_json(out + "/results.json");
  expect_valid(done);
  EXPECT_EQ(done.at("status"), "complete");
  ASSERT_EQ(done.at("phases")[0].at("steps").size(), 4u);
  EXPECT_EQ(done.at("phases")[0].at("steps")[0], first_step) << "replayed from the journal, not run again";
  EXPECT_EQ(done.at("phases")[0].at("steps")[3].at("x").at("queue_depth"), 8);

  // Nothing to resume in a directory without a scenario run.
  EXPECT_EQ(run_ptsuite({"scenario", "resume", dir.path()}).exit_code, 2);
}

// Two runs of the same scenario overlay in `ptsuite compare` (one series per drive); runs of
// different scenarios are refused unless --force.
TEST(ScenarioCli, CompareOverlaysRunsOfTheSameScenarioAndRefusesOthers) {
  test_support::ShmTempDir dir;
  const std::string a = dir.create_file("a.img", 64 << 20);
  const std::string b = dir.create_file("b.img", 64 << 20);
  auto ramp = [](int qd) {
    return json{{"format", "ptsuite-scenario/1"},
                {"name", "ramp"},
                {"title", "ramp"},
                {"phases",
                 {{{"name", "peak"}, {"kind", "run"}, {"duration", "0.5s"}, {"streams", {stream("p", "100/0", qd)}}},
                  {{"name", "curve"},
                   {"kind", "rate_ramp"},
                   {"duration", "0.5s"},
                   {"percent_of", "peak"},
                   {"percents", {50, 100}},
                   {"stream", stream("c", "100/0", qd)}}}}};
  };
  const std::string file = write(dir, "ramp.json", ramp(4));
  for (const auto& [target, out] : {std::pair{a, dir.file("r1")}, std::pair{b, dir.file("r2")}}) {
    ASSERT_EQ(run_ptsuite({"scenario", "run", file, "--target", target, "--quiet", "--out", out}).exit_code, 0);
  }
  const ProcessResult cmp = run_ptsuite({"compare", dir.file("r1"), dir.file("r2"), "--out", dir.file("cmp")});
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  const json doc = load_json(dir.file("cmp") + "/compare.json");
  EXPECT_EQ(doc.at("results_kind"), "ptsuite.scenario");
  EXPECT_TRUE(validate_json(doc, embedded_schema("compare")).empty());
  std::ifstream html(dir.file("cmp") + "/compare.html");
  const std::string page((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  EXPECT_NE(page.find("average latency vs IOPS"), std::string::npos);
  EXPECT_NE(page.find("Run 2"), std::string::npos);

  // The same scenario name with another queue depth is another scenario file: refused.
  ASSERT_EQ(run_ptsuite({"scenario", "run", write(dir, "ramp8.json", ramp(8)), "--target", a, "--quiet", "--out",
                         dir.file("r3")})
                .exit_code,
            0);
  const ProcessResult refused = run_ptsuite({"compare", dir.file("r1"), dir.file("r3"), "--out", dir.file("cmp2")});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("scenario file (SHA-256)"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(dir.file("cmp2")));
}

TEST(ScenarioCli, BadInputIsRefusedBeforeAnythingIsTouched) {
  test_support::ShmTempDir dir;
  const std::string bad = dir.file("bad.json");
  std::ofstream(bad) << "{\n  \"format\": \"ptsuite-scenario/1\", \"name\": \"x\", \"title\": \"x\",\n"
                        "  \"phases\": [{\"name\": \"p\", \"kind\": \"run\", \"duration\": \"1s\",\n"
                        "    \"streams\": [{\"name\": \"s\", \"queue_depht\": 4}]}]\n}\n";
  const std::string out = dir.file("run");
  struct Case {
    std::vector<std::string> args;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {{"scenario", "run", bad, "--out", out}, "phases[0].streams[0].queue_depht (line 4, column 46): unknown field"},
      {{"scenario", "run", "nope", "--out", out}, "neither a built-in scenario"},
      {{"scenario", "run", "noisy-neighbour", "--target", dir.create_file("x.img", 1 << 20), "--out", out},
       "needs exactly 6 targets, one per role"},
      {{"scenario", "show", "nope"}, "neither a built-in scenario"},
  };
  for (const Case& c : cases) {
    const ProcessResult r = run_ptsuite(c.args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
  }
}

// A block device needs --allow-destructive, as for `run`: refused (exit 3) before anything is
// written and before the output directory exists.
class ScenarioLoop : public test_support::LoopDeviceFixture {};

TEST_F(ScenarioLoop, ABlockDeviceWithoutConsentIsRefusedBeforeAnything) {
  auto& loop = attach_loop(32 << 20);
  test_support::ShmTempDir dir;
  const std::string out = dir.file("run");
  const ProcessResult r =
      run_ptsuite({"scenario", "run", "write-pressure", "--quick", "--target", loop.device.path(), "--out", out});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("--allow-destructive"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

TEST(ScenarioCli, ListAndShowPrintTheBuiltIns) {
  const ProcessResult list = run_ptsuite({"scenario", "list"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("write-pressure"), std::string::npos);
  EXPECT_NE(list.out.find("vdi-linked-monday"), std::string::npos);
  const ProcessResult show = run_ptsuite({"scenario", "show", "write-pressure"});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_EQ(json::parse(show.out).at("name"), "write-pressure") << "show prints a file one can copy and run";
  // --json: the same scenarios and profiles, machine-readable.
  const ProcessResult as_json = run_ptsuite({"scenario", "list", "--json"});
  ASSERT_EQ(as_json.exit_code, 0) << as_json.err;
  const json doc = json::parse(as_json.out);
  std::vector<std::string> names;
  for (const json& s : doc.at("scenarios")) names.push_back(s.at("name"));
  EXPECT_NE(std::find(names.begin(), names.end(), "write-pressure"), names.end());
  for (const std::string& n : names) EXPECT_NE(list.out.find(n), std::string::npos) << n;
  EXPECT_FALSE(doc.at("profiles").empty());
  EXPECT_FALSE(doc.at("scenarios")[0].at("phases").empty());
}

}  // namespace
}  // namespace ptsuite

namespace ptsuite {
namespace {

using test_support::file_text;

json small_scenario() {
  json reads = stream("reads", "100/0", 4);
  json writes = stream("writes", "0/100", 2);
  writes["rate_mbps"] = 2;
  return json{{"format", "ptsuite-scenario/1"},
              {"name", "bundle"},
              {"title", "bundle"},
              {"phases",
               {{{"name", "mixed"},
                 {"kind", "run"},
                 {"duration", "0.4s"},
                 {"segment_warmup", "0.2s"},
                 {"interval", "100ms"},
                 {"streams", {reads, writes}}}}}};
}

// A scenario run is a bundle like a PTS run: its reports (chosen with --reports), the tester in
// every header, a manifest that `verify` checks and `sign` signs, an entry in the history, and
// `ptsuite report DIR` re-renders it with other chart series. The plan comes first, then an ETA
// per step; every latency statistic is in summary.txt and scenario.csv.
TEST(ScenarioCli, ARunIsABundleWithReportsManifestHistoryAndReRendering) {
  test_support::ShmTempDir dir;
  const std::string a = dir.create_file("a.img", 64 << 20);
  const std::string b = dir.create_file("b.img", 64 << 20);
  const std::string out = dir.file("run");
  const std::string db = dir.file("history.sqlite");
  const ProcessResult r = run_ptsuite({"scenario", "run", write(dir, "bundle.json", small_scenario()), "--target", a,
                                       "--target", b, "--out", out, "--tested-by", "ACME Lab", "--format",
                                       "html,csv,text", "--series", "drives", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("plan: 1 step(s), 600ms at most"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("mixed/1 done (step 1 of 1; 0.0us left at most, ETA"), std::string::npos) << r.err;
  const json doc = load_json(out + "/results.json");
  expect_valid(doc);
  EXPECT_EQ(doc.at("config").at("tested_by"), "ACME Lab");
  EXPECT_EQ(doc.at("report").at("series"), "drives");
  EXPECT_EQ(doc.at("phases")[0].at("warmup_ns"), 200'000'000u);
  const std::string html = file_text(out + "/report.html");
  EXPECT_NE(html.find("ACME Lab"), std::string::npos);
  EXPECT_NE(html.find("segment_warmup: each step&#39;s streams ran 0.2 s before its measured 0.4 s"), std::string::npos)
      << "the warm-up is disclosed";
  EXPECT_NE(html.find("data-series=\"reads @ target 1\""), std::string::npos) << "drives: per-target series";
  // Latency over time: each interval's mean and its own 99 % (the workers' per-interval histograms).
  const json& interval = doc.at("phases")[0].at("steps")[0].at("streams")[0].at("intervals")[0];
  EXPECT_GT(interval.at("read_p99_ns").get<uint64_t>(), 0u);
  EXPECT_NE(html.find("data-series=\"reads @ target 1 99 %\""), std::string::npos);
  EXPECT_NE(html.find("data-series=\"reads @ target 1 mean\""), std::string::npos);
  const std::string text = file_text(out + "/summary.txt");
  for (const char* column : {"StdDev", "99.9 %", "99.99 %", "Max"}) EXPECT_NE(text.find(column), std::string::npos);
  EXPECT_NE(text.find("target 1         write"), std::string::npos) << text;
  const std::string csv = file_text(out + "/scenario.csv");
  EXPECT_NE(csv.find("latency_stddev_ns"), std::string::npos);
  EXPECT_NE(csv.find("latency_p99.9_ns"), std::string::npos);
  EXPECT_NE(csv.find(",aggregate,,,read,"), std::string::npos) << "read and write apart";
  EXPECT_EQ(run_ptsuite({"verify", out}).exit_code, 0);
  const ProcessResult list = run_ptsuite({"history", "list", "--db", db});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("scenario bundle"), std::string::npos) << list.out;
  // Re-rendered with the aggregate only: the file changes, results.json does not.
  const ProcessResult again = run_ptsuite({"report", out, "--series", "aggregate", "--out", dir.file("agg.html")});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const std::string agg = file_text(dir.file("agg.html"));
  EXPECT_NE(agg.find("data-series=\"reads\""), std::string::npos);
  EXPECT_EQ(agg.find("data-series=\"reads @ target 1\""), std::string::npos);
  EXPECT_EQ(run_ptsuite({"report", out, "--plot-targets", "7"}).exit_code, 2) << "no target 7";
  // Signed like a PTS run: the signature verifies and the header names the key.
  ASSERT_EQ(run_ptsuite({"keygen", dir.file("k")}).exit_code, 0);
  const ProcessResult sign = run_ptsuite({"sign", out, "--key", dir.file("k")});
  ASSERT_EQ(sign.exit_code, 0) << sign.err << sign.out;
  EXPECT_EQ(run_ptsuite({"verify", out, "--pubkey", dir.file("k.pub")}).exit_code, 0);
  EXPECT_NE(file_text(out + "/report.html").find("Signed"), std::string::npos);
}

// `scenario plan` lists every step with its time before anything runs: the full write-pressure
// run is 85 steps of 30 s (42 min 30 s) after a purge and a fill.
TEST(ScenarioCli, PlanPrintsEveryStepAndTheTotal) {
  const ProcessResult r = run_ptsuite({"scenario", "plan", "write-pressure"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("87 step(s)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("writes 850 MB/s"), std::string::npos);
  EXPECT_NE(r.out.find("total: 42m30s at most, plus 2 fill / purge"), std::string::npos) << r.out;
  const ProcessResult curves = run_ptsuite({"scenario", "plan", "mixed-profile-curves"});
  EXPECT_NE(curves.out.find("curve-vdi-linked-monday"), std::string::npos) << "17 load curves";
  EXPECT_EQ(run_ptsuite({"scenario", "plan", "noisy-neighbour", "--target", "/dev/null"}).exit_code, 2);
}

// A scratch run's directory cannot be resumed (the targets are gone): reusing it says so
// instead of suggesting `scenario resume`.
TEST(ScenarioCli, ReusingAScratchRunsOutSaysItCannotBeResumed) {
  test_support::ShmTempDir dir;
  const std::string out = dir.file("run");
  const std::string file = write(dir, "s.json", small_scenario());
  ASSERT_EQ(run_ptsuite({"scenario", "run", file, "--scratch-size", "32MiB", "--quiet", "--no-history", "--out", out})
                .exit_code,
            0);
  const ProcessResult again = run_ptsuite({"scenario", "run", file, "--quiet", "--no-history", "--out", out});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("scratch targets, which cannot be resumed"), std::string::npos) << again.err;
  EXPECT_EQ(again.err.find("scenario resume"), std::string::npos) << again.err;
}

}  // namespace
}  // namespace ptsuite
