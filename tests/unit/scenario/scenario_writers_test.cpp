// The scenario document's typed writers (results/scenario_writers.hpp) write byte for byte what
// the runner wrote by string key before them (issue 39 item 3): a step (instances with and
// without an interval series, a target without streams, every kind of generator coordinate), a
// phase with each optional member, the document's header and the run file, each compared with
// the runner's former code kept here as the reference. And the typed reader reads back what the
// writer wrote (the mixed phase's members included).
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/scenario.hpp>
#include <ptsuite/results/scenario_writers.hpp>
#include <ptsuite/scenario/scenario_runner.hpp>
#include <ptsuite/stats/stats_json.hpp>
#include <ptsuite/workload/workload_json.hpp>

namespace ptsuite::scenario {
namespace {

using nlohmann::json;

workload::WorkloadResult result_of(uint64_t first_ns, bool intervals) {
  workload::WorkloadResult r;
  r.elapsed_ns = 1'000'000'000;
  for (uint64_t i = 0; i < 50; ++i) {
    (i % 3 == 0 ? r.stats.write : r.stats.read).record(4096, first_ns + 1000 * i);
  }
  if (intervals) {
    workload::IntervalSample s;
    s.end_offset_ns = 500'000'000;
    s.ios[0] = 30;
    s.bytes[0] = 30 * 4096;
    s.latency_sum_ns[0] = 30 * first_ns;
    r.intervals.push_back(s);
    s.end_offset_ns = 1'000'000'000;
    r.intervals.push_back(s);
  }
  r.stop_reason = workload::StopReason::duration;
  return r;
}

// The runner's instance and step records as it wrote them by string key (before the writers).
json legacy_instance(const StepInstance& in, const workload::WorkloadResult& r) {
  const stats::DirectionStats combined = r.stats.combined();
  json out{{"stream", in.stream},
           {"target", in.target},
           {"threads", in.spec.threads},
           {"queue_depth", in.spec.queue_depth},
           {"rate", {{"iops", in.spec.rate.iops}, {"mb_per_s", in.spec.rate.mb_per_s}}},
           {"seed", in.spec.seed},
           {"elapsed_ns", r.elapsed_ns},
           {"stop_reason", workload::to_string(r.stop_reason)},
           {"summary", stats::summarize(r.stats, r.elapsed_ns)},
           {"histograms",
            {{"read", r.stats.read.histogram}, {"write", r.stats.write.histogram}, {"combined", combined.histogram}}}};
  if (!r.intervals.empty()) {
    out["interval_ns"] = in.spec.interval_ns;
    out["intervals"] = workload::intervals_json(r.intervals);
  }
  return out;
}

json legacy_step(const std::vector<StepInstance>& instances, const std::vector<workload::WorkloadResult>& results,
                 size_t target_count, json label, json x) {
  json streams = json::array();
  for (size_t i = 0; i < instances.size(); ++i) streams.push_back(legacy_instance(instances[i], results[i]));
  json per_target = json::array();
  std::vector<const workload::WorkloadResult*> all;
  for (uint32_t t = 0; t < target_count; ++t) {
    std::vector<const workload::WorkloadResult*> parts;
    for (size_t i = 0; i < instances.size(); ++i) {
      if (instances[i].target == t) parts.push_back(&results[i]);
    }
    all.insert(all.end(), parts.begin(), parts.end());
    per_target.push_back({{"target", t}, {"summary", parts.empty() ? json() : json(merged_summary(parts))}});
  }
  return json{{"label", std::move(label)},
              {"x", std::move(x)},
              {"streams", std::move(streams)},
              {"targets", std::move(per_target)},
              {"aggregate", merged_summary(all)}};
}

TEST(ScenarioWriters, AStepIsWrittenByteForByteAsTheRunnerWroteIt) {
  std::vector<StepInstance> in(2);
  in[0] = {"reads", 0, {}};
  in[0].spec.threads = 2;
  in[0].spec.queue_depth = 8;
  in[0].spec.seed = 17;
  in[0].spec.interval_ns = 500'000'000;
  in[1] = {"writes", 2, {}};
  in[1].spec.rate.mb_per_s = 12.5;
  in[1].spec.seed = 18;
  const std::vector<workload::WorkloadResult> r = {result_of(70'000, true), result_of(210'000, false)};
  struct Case {
    results::ScenarioStepX typed;
    json legacy;
  };
  const auto x = [](const std::function<void(results::ScenarioStepX&)>& set) {
    results::ScenarioStepX out;
    set(out);
    return out;
  };
  const Case cases[] = {
      {{}, json::object()},
      {x([](auto& v) {
         v.threads = 4;
         v.queue_depth = 16;
       }),
       json{{"threads", 4u}, {"queue_depth", 16u}}},
      {x([](auto& v) { v.capacity_multiple = 0.25; }), json{{"capacity_multiple", 0.25}}},
      {x([](auto& v) {
         v.percent = 40;
         v.instance_rates_iops = std::vector<double>{1200.5, 30};
       }),
       json{{"percent", 40.0}, {"rate_iops", {1200.5, 30.0}}}},
      {x([](auto& v) { v.rate_iops = 5000; }), json{{"rate_iops", 5000.0}}},
      {x([](auto& v) { v.rate_mbps = 850; }), json{{"rate_mbps", 850.0}}},
      {x([](auto& v) { v.round = 3; }), json{{"round", 3u}}},
      {x([](auto& v) { v.app = "pgbench"; }), json{{"app", "pgbench"}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.legacy.dump());
    EXPECT_EQ(step_record(in, r, 3, "a step", c.typed).dump(), legacy_step(in, r, 3, "a step", c.legacy).dump());
  }
}

TEST(ScenarioWriters, APhaseTheHeaderAndTheRunFileAreWrittenAsBefore) {
  results::ScenarioPhaseOut p;
  p.name = "ramp";
  p.kind = "rate_ramp";
  p.duration_ns = 5'000'000'000;
  EXPECT_EQ(json(p).dump(),
            json({{"name", "ramp"}, {"kind", "rate_ramp"}, {"duration_ns", 5'000'000'000ULL}, {"steps", json::array()}})
                .dump());
  p.warmup_ns = 1'000'000'000;
  p.steps.push_back(json{{"label", "x"}});
  p.steady_state = results::ScenarioSteadyStateOut{true, "iops", 5, 25, json::array()};
  p.purges = json::array({results::scenario_purge_entry(json{{"description", "format"}}, 1)});
  p.replays = json::array({results::scenario_replay_entry(0, json{{"kind", "ptsuite.replay"}})});
  json legacy{
      {"name", "ramp"}, {"kind", "rate_ramp"}, {"duration_ns", 5'000'000'000ULL}, {"steps", {{{"label", "x"}}}}};
  legacy["warmup_ns"] = 1'000'000'000ULL;
  legacy["steady_state"] = json{
      {"attained", true}, {"variable", "iops"}, {"rounds_run", 5}, {"max_rounds", 25}, {"verdicts", json::array()}};
  legacy["purges"] = json::array({json{{"description", "format"}, {"target", 1}}});
  legacy["replays"] = json::array({json{{"target", 0}, {"replay", {{"kind", "ptsuite.replay"}}}}});
  EXPECT_EQ(json(p).dump(), legacy.dump());

  results::ScenarioDocumentOut d;
  d.tool_version = "1.2.3";
  d.git_revision = "abc";
  d.scenario = {"wp", "Write pressure", "d", "r", {"c"}, {}, true, "00ff"};
  d.engine = "libaio";
  d.seed = 7;
  d.quick = true;
  d.report = json::object();
  d.targets = json::array();
  d.started_utc = "2026-12-02T12:00:00Z";
  json skeleton{{"kind", "ptsuite.scenario"},
                {"schema_version", 1},
                {"tool", {{"name", "ptsuite"}, {"version", "1.2.3"}, {"git_revision", "abc"}}},
                {"scenario",
                 {{"name", "wp"},
                  {"title", "Write pressure"},
                  {"description", "d"},
                  {"reconstructs", "r"},
                  {"ptsuite_choices", {"c"}},
                  {"roles", json::array()},
                  {"quick", true},
                  {"source_sha256", "00ff"}}},
                {"config", {{"engine", "libaio"}, {"seed", 7}, {"quick", true}}},
                {"report", json::object()},
                {"targets", json::array()},
                {"started_utc", "2026-12-02T12:00:00Z"}};
  EXPECT_EQ(json(d).dump(), skeleton.dump());
  d.tested_by = "lab";
  d.status = "complete";
  d.finished_utc = "2026-12-02T13:00:00Z";
  d.phases.push_back(p);
  skeleton["config"]["tested_by"] = "lab";
  skeleton["status"] = "complete";
  skeleton["phases"] = json::array({legacy});
  skeleton["finished_utc"] = "2026-12-02T13:00:00Z";
  EXPECT_EQ(json(d).dump(), skeleton.dump());

  const results::ScenarioRunFileOut f{"{}", {"/dev/a"}, false, "libaio", 1,     json::array(), false,
                                      "",   "html",     "",    "",       false, "t0"};
  EXPECT_EQ(json(f).dump(), json({{"scenario_text", "{}"},
                                  {"targets", {"/dev/a"}},
                                  {"quick", false},
                                  {"engine", "libaio"},
                                  {"seed", 1},
                                  {"identities", json::array()},
                                  {"scratch", false},
                                  {"tested_by", ""},
                                  {"reports", "html"},
                                  {"series", ""},
                                  {"plot_targets", ""},
                                  {"compact", false},
                                  {"started_utc", "t0"}})
                                .dump());
}

TEST(ScenarioWriters, AMixedPhaseReadsBackTypedAndItsJournalEntryRoundTrips) {
  results::ScenarioPhaseOut p;
  p.name = "shared";
  p.kind = "app";
  p.app_targets = std::vector<uint32_t>{1};
  p.streams_start_ns = 250'000;
  p.app = json{{"kind", "ptsuite.app_run"}, {"app", {{"name", "pgbench"}}}, {"status", "completed"}};
  const results::PhaseRecord r = results::read_phase_record(json(p));
  EXPECT_EQ(r.app_targets, std::vector<uint32_t>{1});
  EXPECT_EQ(r.app_target(0), 1u) << "instance 0 ran on target 2";
  EXPECT_EQ(r.app_target(1), 1u) << "past the list: as recorded, instance i on target i";
  EXPECT_EQ(r.streams_start_ns, 250'000u);
  ASSERT_TRUE(r.app.has_value());
  EXPECT_EQ(r.app->app, "pgbench");
  const results::ScenarioMixedEntry e{*p.app, json{{"label", "with pgbench"}}, 250'000};
  const results::ScenarioMixedEntry back = results::read_mixed_entry(json(e));
  EXPECT_EQ(back.app, e.app);
  EXPECT_EQ(back.step, e.step);
  EXPECT_EQ(back.streams_start_ns, 250'000u);
}

}  // namespace
}  // namespace ptsuite::scenario
