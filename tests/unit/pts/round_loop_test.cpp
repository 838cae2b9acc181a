#include <gtest/gtest.h>

#include <map>

#include <cmath>
#include <ptsuite/pts/plan.hpp>
#include <ptsuite/pts/round_loop.hpp>
#include <ptsuite/pts/test_procedure.hpp>
#include <ptsuite/pts/window.hpp>
#include <ptsuite/stats/stats_json.hpp>
#include <ptsuite/util/error.hpp>

#include "support/fake_step_executor.hpp"

namespace ptsuite::pts {
namespace {

uint32_t round_of(const StepId& id) { return static_cast<uint32_t>(std::stoul(id.name.substr(1, 3))); }

RoundLoopSpec two_segment_spec() {
  RoundLoopSpec spec;
  spec.test = "t";
  spec.phase = "main";
  SegmentSpec a;
  a.label = "RND 4KiB 0/100";
  a.mix = RwMix{0};
  a.block_sizes = {{4096, 1}};
  SegmentSpec b = a;
  b.label = "RND 64KiB 65/35";
  b.mix = RwMix{65};
  b.block_sizes = {{65536, 1}};
  spec.segments = {a, b};
  spec.tracking = {{"b IOPS", 1, Metric::iops}};  // tracks the SECOND segment
  spec.first_check_round = 5;
  spec.max_rounds = 25;
  return spec;
}

TEST(RoundLoop, RefusesASpecWhoseRoundRulesWereNeverSet) {
  testing::FakeExecutor exec([](const StepId&, const SegmentSpec&) { return 1000.0; });
  RoundLoopSpec spec = two_segment_spec();
  spec.max_rounds = 0;
  EXPECT_THROW(run_rounds(exec, spec), Error);
  spec = two_segment_spec();
  spec.first_check_round = 0;
  EXPECT_THROW(run_rounds(exec, spec), Error);
  EXPECT_TRUE(exec.executed.empty());
}

TEST(RoundLoop, StopsAtTheFirstRoundWhoseWindowAttains) {
  // Tracked segment: wild for rounds 1-3, then flat from round 4: the window 4..8 is the first
  // one that is steady, so the loop stops after round 8.
  testing::FakeExecutor exec([](const StepId& id, const SegmentSpec& s) {
    const uint32_t r = round_of(id);
    if (s.label != "RND 64KiB 65/35") {
      return 500.0 * r;  // the untracked segment never settles; it must not matter
    }
    return r <= 3 ? 100.0 * r : 10'000.0;
  });
  const PhaseRecord rec = run_rounds(exec, two_segment_spec());
  EXPECT_EQ(rec.rounds_run(), 8u);
  EXPECT_TRUE(rec.attained());
  EXPECT_EQ(rec.window_first_round, 4u);
  EXPECT_EQ(rec.window_last_round, 8u);
  ASSERT_EQ(rec.checks.size(), 4u);  // checked after rounds 5, 6, 7, 8
  EXPECT_EQ(rec.checks.front().round, 5u);
  EXPECT_FALSE(rec.checks[2].attained);
  EXPECT_TRUE(rec.checks[3].attained);
  // Steps: 2 segments + health per round, in order.
  ASSERT_EQ(exec.executed.size(), 8u * 3u);
  EXPECT_EQ(exec.executed[0], "t/main/r001-s00");
  EXPECT_EQ(exec.executed[1], "t/main/r001-s01");
  EXPECT_EQ(exec.executed[2], "t/main/r001-health");
  // Window aggregate of the tracked cell: average of 10000 IOPS over rounds 4..8.
  EXPECT_DOUBLE_EQ(rec.window[1].combined.iops, 10'000.0);
  EXPECT_EQ(rec.window[1].combined.ios, 5u * 10'000u);
}

TEST(RoundLoop, CapsAtMaxRoundsAndReportsNotAttained) {
  testing::FakeExecutor exec([](const StepId& id, const SegmentSpec&) { return round_of(id) % 2 ? 1000.0 : 3000.0; });
  RoundLoopSpec spec = two_segment_spec();
  spec.max_rounds = 9;
  const PhaseRecord rec = run_rounds(exec, spec);
  EXPECT_EQ(rec.rounds_run(), 9u);
  EXPECT_FALSE(rec.attained());
  EXPECT_EQ(rec.window_first_round, 5u);  // x-4 .. x with x = 9
  EXPECT_EQ(rec.window_last_round, 9u);
  ASSERT_EQ(rec.steady_state.variables.size(), 1u);
  EXPECT_FALSE(rec.steady_state.variables[0].data_ok);
}

TEST(RoundLoop, AllTrackingVariablesMustAttain) {
  testing::FakeExecutor exec([](const StepId& id, const SegmentSpec& s) {
    return s.label == "RND 4KiB 0/100" && round_of(id) % 2 ? 1000.0 : 3000.0;
  });
  RoundLoopSpec spec = two_segment_spec();
  spec.tracking.push_back({"a IOPS", 0, Metric::iops});
  spec.max_rounds = 7;
  const PhaseRecord rec = run_rounds(exec, spec);
  EXPECT_EQ(rec.rounds_run(), 7u);
  EXPECT_FALSE(rec.attained());
  EXPECT_TRUE(rec.steady_state.variables[0].attained);
  EXPECT_FALSE(rec.steady_state.variables[1].attained);
}

TEST(RoundLoop, BeforeRoundHookRunsFirstAndIsRecorded) {
  testing::FakeExecutor exec([](const StepId&, const SegmentSpec&) { return 1000.0; });
  RoundLoopSpec spec = two_segment_spec();
  std::vector<uint32_t> calls;
  spec.before_round = [&](uint32_t round) {
    calls.push_back(round);
    return nlohmann::json{{"prewrite_round", round}};
  };
  const PhaseRecord rec = run_rounds(exec, spec);
  EXPECT_EQ(rec.rounds_run(), 5u);  // constant values attain at the first check
  EXPECT_EQ(calls, (std::vector<uint32_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(rec.rounds[2].before_round.at("prewrite_round"), 3);
}

TEST(RoundLoop, JsonRoundTripKeepsEverything) {
  testing::FakeExecutor exec([](const StepId& id, const SegmentSpec&) { return 1000.0 + round_of(id); });
  const PhaseRecord rec = run_rounds(exec, two_segment_spec());
  const nlohmann::json j = rec;
  const PhaseRecord back = j.get<PhaseRecord>();
  EXPECT_EQ(nlohmann::json(back), j);
  EXPECT_EQ(j.at("tracking")[0].at("segment_label"), "RND 64KiB 65/35");
  EXPECT_EQ(j.at("steady_state").at("attained_round"), 5);
}

TEST(Window, LatencyIsIoWeightedAndPercentilesComeFromMergedHistograms) {
  SegmentSpec s;
  s.mix = RwMix{100};
  s.block_sizes = {{4096, 1}};
  const SegmentResult fast = testing::synthetic_result(s, 3000, 1'000);    // 3000 IOs at 1 us
  const SegmentResult slow = testing::synthetic_result(s, 1000, 100'000);  // 1000 IOs at 100 us
  const SegmentResult* rounds[] = {&fast, &slow};
  const stats::IoSummary w = aggregate_window(rounds, WindowStatistics{false, false});
  EXPECT_DOUBLE_EQ(w.combined.iops, 2000.0);  // average of per-round IOPS
  EXPECT_EQ(w.combined.ios, 4000u);
  EXPECT_DOUBLE_EQ(w.combined.latency_mean_ns, (3000.0 * 1'000 + 1000.0 * 100'000) / 4000.0);
  EXPECT_EQ(w.combined.latency_min_ns, 1'000u);
  EXPECT_EQ(w.combined.latency_max_ns, 100'000u);
  // p50 lies in the fast population, p90 in the slow one (nearest rank over 4000 IOs).
  for (const stats::PercentileValue& p : w.combined.percentiles) {
    if (p.percentile == 50.0) {
      EXPECT_NEAR(static_cast<double>(p.value_ns), 1'000.0, 4.0);
    }
    if (p.percentile == 90.0) {
      EXPECT_NEAR(static_cast<double>(p.value_ns), 100'000.0, 400.0);
    }
  }
  // Pooled stddev equals the sample stddev of all 4000 values.
  const double mean = w.combined.latency_mean_ns;
  const double var = (3000.0 * (1'000 - mean) * (1'000 - mean) + 1000.0 * (100'000 - mean) * (100'000 - mean)) / 3999.0;
  EXPECT_NEAR(w.combined.latency_stddev_ns, std::sqrt(var), 1e-6 * std::sqrt(var));

  // window.art=round-mean / window.mrt=round-mean (the sources' choice, the default): the mean of
  // the two Rounds' ARTs and maxima. The stddev stays pooled over every IO, the percentiles stay
  // those of the merged histogram, clamped to the true maximum.
  const stats::IoSummary r = aggregate_window(rounds, WindowStatistics{true, true});
  EXPECT_DOUBLE_EQ(r.combined.latency_mean_ns, (1'000.0 + 100'000.0) / 2);
  EXPECT_EQ(r.combined.latency_max_ns, 50'500u);
  EXPECT_DOUBLE_EQ(r.combined.latency_stddev_ns, w.combined.latency_stddev_ns);
  EXPECT_EQ(r.combined.percentiles.back().value_ns, w.combined.percentiles.back().value_ns);
  EXPECT_GT(r.combined.percentiles.back().value_ns, r.combined.latency_max_ns);  // p99.9999 of the slow Round
}

// The default of window.art / window.mrt is the sources' choice, and the Round loop uses it.
TEST(RoundLoop, WindowStatisticsComeFromTheSettings) {
  const SpecContext spec{"2.0.2", "enterprise"};
  const Settings defaults = Settings::build(DefinitionSet::embedded(), spec, {}, {});
  EXPECT_EQ(defaults.text("window.art"), "round-mean");
  EXPECT_EQ(defaults.text("window.mrt"), "round-mean");
  const Settings io =
      Settings::build(DefinitionSet::embedded(), spec, {}, {{"window.art", "io-weighted"}, {"window.mrt", "max"}});
  testing::FakeExecutor exec([](const StepId&, const SegmentSpec&) { return 1000.0; },
                             [](const StepId&, const SegmentSpec&) { return uint64_t{100'000}; });
  TestContext ctx{DefinitionSet::embedded(), spec, io, exec, {1ull << 30, 512}};
  TestSpec ts(ctx, "latency");
  RoundLoopSpec loop;
  apply_round_rules(ts, loop);
  EXPECT_FALSE(loop.window_statistics.art_round_mean);
  EXPECT_FALSE(loop.window_statistics.mrt_round_mean);
  TestContext dctx{DefinitionSet::embedded(), spec, defaults, exec, {1ull << 30, 512}};
  TestSpec dts(dctx, "latency");
  RoundLoopSpec dloop;
  apply_round_rules(dts, dloop);
  EXPECT_TRUE(dloop.window_statistics.art_round_mean);
  EXPECT_TRUE(dloop.window_statistics.mrt_round_mean);
}

// Memory per Round is a small constant: every Round's segment results keep their histograms in
// the shrunk form (latency_histogram.hpp), whatever the executor. Before, each kept 3 x 58 KiB
// per segment: 10 MiB per IOPS Round, so `plan --set max_rounds=100` grew to a gigabyte.
TEST(RoundLoop, KeptRoundsHoldOnlyTheUsedHistogramBuckets) {
  PlanningExecutor exec(PlanCase::worst, PlanAssumptions{});
  RoundLoopSpec spec = two_segment_spec();
  spec.segments[0].threads = spec.segments[1].threads = 1;
  spec.segments[0].queue_depth = spec.segments[1].queue_depth = 1;
  spec.segments[0].duration_ns = spec.segments[1].duration_ns = 1'000'000'000;
  spec.criteria = {5, 20, 10};
  spec.max_rounds = 40;
  const PhaseRecord rec = run_rounds(exec, spec);
  ASSERT_EQ(rec.rounds_run(), 40u);  // the worst case never settles
  for (const RoundRecord& r : rec.rounds) {
    for (const SegmentResult& s : r.segments) {
      EXPECT_LE(s.read_histogram.stored_capacity() + s.write_histogram.stored_capacity() +
                    s.combined_histogram.stored_capacity(),
                3u);
    }
  }
}

}  // namespace
}  // namespace ptsuite::pts
