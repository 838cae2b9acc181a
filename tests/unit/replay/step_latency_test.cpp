// The replay's measurement of the target: response times per step (StepLatency: attribution to
// the step an IO was issued in, exact moments, percentiles never above the maximum, histograms
// freed as steps close) and the rate ramp's parsing and speeds.
#include <gtest/gtest.h>

#include <ptsuite/replay/replay_ramp.hpp>
#include <ptsuite/replay/step_latency.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::replay {
namespace {

void expect_ordered(const results::ReplayDirectionLatency& d) {
  if (d.ios == 0) return;
  EXPECT_LE(d.min_ns, d.p50_ns);
  EXPECT_LE(d.p50_ns, d.p99_ns);
  EXPECT_LE(d.p99_ns, d.p99_9_ns);
  EXPECT_LE(d.p99_9_ns, d.p99_99_ns);
  EXPECT_LE(d.p99_99_ns, d.max_ns) << "a percentile above the maximum of the same IOs";
  EXPECT_LE(d.mean_ns, static_cast<double>(d.max_ns));
}

TEST(StepLatency, LatenciesCountInTheStepTheirIoWasIssuedIn) {
  StepLatency l;
  l.issued(0);
  l.issued(0);
  l.advance(1);
  l.issued(1);
  // Step 0's second IO completes while step 1 runs: it still counts in step 0.
  l.completed(0, true, 4096, 100'000);
  l.completed(1, false, 8192, 30'000);
  l.completed(0, true, 4096, 300'000);
  const std::vector<results::ReplayLatency> steps = l.finish({1'000'000'000, 500'000'000});
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].read.ios, 2u);
  EXPECT_EQ(steps[0].write.ios, 0u);
  EXPECT_DOUBLE_EQ(steps[0].read.mean_ns, 200'000.0);
  EXPECT_EQ(steps[0].read.min_ns, 100'000u);
  EXPECT_EQ(steps[0].read.max_ns, 300'000u);
  EXPECT_DOUBLE_EQ(steps[0].read.iops, 2.0);  // 2 IOs per 1 s
  EXPECT_DOUBLE_EQ(steps[0].read.mb_per_s, 8192 / 1e6);
  EXPECT_EQ(steps[1].write.ios, 1u);
  EXPECT_DOUBLE_EQ(steps[1].write.iops, 2.0);  // 1 IO per 0.5 s
  EXPECT_EQ(steps[1].combined.ios, 1u);
  EXPECT_EQ(steps[1].combined.max_ns, 30'000u);
  // The sample standard deviation of 100 and 300 us: sqrt(2 x 100^2 / 1) us.
  EXPECT_NEAR(steps[0].read.stddev_ns, 141'421.356, 0.01);
  for (const results::ReplayLatency& s : steps) {
    expect_ordered(s.read);
    expect_ordered(s.write);
    expect_ordered(s.combined);
  }
  const results::ReplayLatency total = l.total(2'000'000'000);
  EXPECT_EQ(total.combined.ios, 3u);
  EXPECT_EQ(total.combined.max_ns, 300'000u);
  EXPECT_EQ(total.combined.min_ns, 30'000u);
  EXPECT_DOUBLE_EQ(total.combined.iops, 1.5);
  expect_ordered(total.combined);
}

// Percentiles come from the histogram (bucket midpoints) but are clamped into [min, max]: a
// step whose IOs all take the same odd latency shows that latency at every percentile.
TEST(StepLatency, NoPercentileExceedsTheMaximumOfTheSameIos) {
  StepLatency l;
  for (int i = 0; i < 1000; ++i) l.issued(0);
  for (int i = 0; i < 999; ++i) l.completed(0, false, 4096, 20'001 + static_cast<uint64_t>(i % 7));
  l.completed(0, false, 4096, 1'234'567);
  const results::ReplayLatency s = l.finish({1'000'000'000}).at(0);
  EXPECT_EQ(s.write.max_ns, 1'234'567u);
  EXPECT_LE(s.write.p99_99_ns, s.write.max_ns);
  // 99 % of the IOs took 20,001 to 20,007 ns: the histogram's 99 % is within 0.4 % of them.
  EXPECT_NEAR(static_cast<double>(s.write.p99_ns), 20'004.0, 20'007 * 0.004);
  expect_ordered(s.write);
  StepLatency same;
  same.issued(0);
  same.completed(0, true, 512, 333'333);
  const results::ReplayLatency one = same.finish({1}).at(0);
  EXPECT_EQ(one.read.p50_ns, 333'333u);
  EXPECT_EQ(one.read.p99_99_ns, 333'333u);
}

// Bounded memory: a step's histograms are freed once the loop moved past it and its IOs are
// done, so a replay of 10,000 steps holds at most the steps with IOs in flight plus the current.
TEST(StepLatency, OnlyStepsWithIosInFlightKeepHistograms) {
  StepLatency l;
  size_t most_open = 0;
  for (size_t step = 0; step < 10'000; ++step) {
    l.advance(step);
    l.issued(step);
    l.issued(step);
    l.completed(step, true, 4096, 1000 + step);
    if (step > 0) l.completed(step - 1, false, 4096, 2000 + step);  // the previous step's last IO
    most_open = std::max(most_open, l.open_steps());
  }
  EXPECT_LE(most_open, 2u);
  std::vector<uint64_t> lengths(10'000, 1'000'000);
  const std::vector<results::ReplayLatency> steps = l.finish(lengths);
  EXPECT_EQ(l.open_steps(), 0u);
  EXPECT_EQ(steps[42].read.ios, 1u);
  EXPECT_EQ(steps[42].write.ios, 1u);
  EXPECT_EQ(steps[42].write.max_ns, 2043u);
  EXPECT_EQ(steps.back().write.ios, 0u) << "its second IO never completed";
}

TEST(ReplayRamp, RatesParseAsARangeOrAList) {
  EXPECT_EQ(parse_ramp("10:100:10", "--ramp"), (std::vector<double>{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}));
  EXPECT_EQ(parse_ramp("100,10,50,50", "--ramp"), (std::vector<double>{10, 50, 100}));
  EXPECT_EQ(parse_ramp("25:100:30", "--ramp"), (std::vector<double>{25, 55, 85}));
  EXPECT_EQ(parse_ramp("120", "--ramp"), (std::vector<double>{120}));
  for (const char* bad :
       {"", "10:100", "0:100:10", "10:100:0", "100:10:10", "abc", "10,,20", "1:1001:1", "2000", "1:500:1"}) {
    EXPECT_THROW(parse_ramp(bad, "--ramp"), UsageError) << bad;
  }
}

TEST(ReplayRamp, TheSpeedMakesTheCapturesMeanRateThePercentOfTheLimit) {
  // A capture of 1,000 IOPS on a target whose closed-loop limit is 40,000 IOPS: 50 % is 20,000
  // IOPS, 20 x the captured rate.
  EXPECT_DOUBLE_EQ(ramp_speed(50, 40'000, 1'000), 20.0);
  EXPECT_DOUBLE_EQ(ramp_speed(10, 40'000, 1'000), 4.0);
  EXPECT_THROW((void)ramp_speed(10, 1e12, 1e-3), UsageError);
  EXPECT_THROW((void)ramp_speed(10, 0, 1'000), UsageError);
}

}  // namespace
}  // namespace ptsuite::replay
