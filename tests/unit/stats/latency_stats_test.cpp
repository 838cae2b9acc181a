// LatencyMoments against independent long-double computations, merging, combined() and
// summarize() (rates, decimal MB, clamping of percentiles into [min, max], empty stats).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <ptsuite/stats/latency_stats.hpp>

namespace ptsuite::stats {
namespace {

struct TwoPass {
  long double mean = 0;
  long double stddev = 0;
};

// The oracle: the classic two-pass formula in long double over the raw samples.
TwoPass two_pass(const std::vector<uint64_t>& xs) {
  long double sum = 0;
  for (uint64_t x : xs) {
    sum += static_cast<long double>(x);
  }
  const long double mean = sum / static_cast<long double>(xs.size());
  long double m2 = 0;
  for (uint64_t x : xs) {
    const long double d = static_cast<long double>(x) - mean;
    m2 += d * d;
  }
  return {mean, std::sqrt(m2 / static_cast<long double>(xs.size() - 1))};
}

LatencyMoments moments_of(const std::vector<uint64_t>& xs) {
  LatencyMoments m;
  for (uint64_t x : xs) {
    m.record(x);
  }
  return m;
}

TEST(LatencyMoments, EmptyAndSingle) {
  LatencyMoments m;
  EXPECT_EQ(m.mean_ns(), 0.0);
  EXPECT_EQ(m.stddev_ns(), 0.0);
  m.record(42);
  EXPECT_EQ(m.mean_ns(), 42.0);
  EXPECT_EQ(m.stddev_ns(), 0.0);  // n - 1 = 0: defined as 0
  EXPECT_EQ(m.min_ns, 42u);
  EXPECT_EQ(m.max_ns, 42u);
}

TEST(LatencyMoments, KnownSmallAnswers) {
  // mean 5, sum of squared deviations 32, sample variance 32/7.
  const auto m = moments_of({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_EQ(m.mean_ns(), 5.0);
  EXPECT_DOUBLE_EQ(m.stddev_ns(), std::sqrt(32.0 / 7.0));
  // Both rounding branches of the exact formula: S mod n below and above n/2.
  // {0,0,1}: mean 1/3, M2 = 2/3;  {0,1,1}: mean 2/3, M2 = 2/3;  sample variance 1/3 each.
  EXPECT_DOUBLE_EQ(moments_of({0, 0, 1}).stddev_ns(), std::sqrt(1.0 / 3.0));
  EXPECT_DOUBLE_EQ(moments_of({0, 1, 1}).stddev_ns(), std::sqrt(1.0 / 3.0));
  EXPECT_EQ(moments_of({7, 7, 7, 7}).stddev_ns(), 0.0);
}

TEST(LatencyMoments, NoCancellationWithAHugeOffset) {
  // 2 million samples alternating 10^12 and 10^12 + 1 ns: M2 = n/4, variance = n / (4 (n-1)).
  // sum(x^2) is ~2^86 here; the textbook double formula Q/n - mean^2 returns noise of the order
  // of 10^8, not 0.25.
  LatencyMoments m;
  constexpr uint64_t k_n = 2'000'000;
  for (uint64_t i = 0; i < k_n; ++i) {
    m.record(1'000'000'000'000ull + (i & 1));
  }
  EXPECT_DOUBLE_EQ(m.mean_ns(), 1'000'000'000'000.5);
  const double expected = std::sqrt(static_cast<double>(k_n) / (4.0 * static_cast<double>(k_n - 1)));
  EXPECT_NEAR(m.stddev_ns(), expected, 1e-15);
  // The same with a single outlier: mean 10^12 + 1/n, M2 = 1 - 1/n.
  LatencyMoments one;
  one.record(1'000'000'000'001ull);
  for (uint64_t i = 1; i < k_n; ++i) {
    one.record(1'000'000'000'000ull);
  }
  const double n = static_cast<double>(k_n);
  EXPECT_DOUBLE_EQ(one.stddev_ns(), std::sqrt(1.0 / n));  // (1 - 1/n) / (n - 1) = 1/n
  // Its mirror, one sample below n - 1 others: S mod n = n - 1, the "round q up" branch.
  // Rounding q down instead would leave D = n - 1 and subtract (n-1)^2/n ~ n - 2: the
  // cancellation costs up to ~n * 2^-64 (~1e-13 here), far more than the 4 ulps allowed.
  LatencyMoments low;
  low.record(1'000'000'000'000ull);
  for (uint64_t i = 1; i < k_n; ++i) {
    low.record(1'000'000'000'001ull);
  }
  EXPECT_DOUBLE_EQ(low.stddev_ns(), std::sqrt(1.0 / n));
}

TEST(LatencyMoments, MatchLongDoubleTwoPassOnRandomSamples) {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> lognormal(std::log(200e3), 1.5);
  std::uniform_int_distribution<uint64_t> jitter(5'000'000, 5'000'100);  // large mean, small spread
  for (int which = 0; which < 2; ++which) {
    std::vector<uint64_t> xs(2'000'000);
    for (uint64_t& x : xs) {
      x = which == 0 ? static_cast<uint64_t>(lognormal(rng)) : jitter(rng);
    }
    const auto m = moments_of(xs);
    const TwoPass oracle = two_pass(xs);
    EXPECT_NEAR(m.mean_ns(), static_cast<double>(oracle.mean), 1e-12 * static_cast<double>(oracle.mean)) << which;
    EXPECT_NEAR(m.stddev_ns(), static_cast<double>(oracle.stddev), 1e-12 * static_cast<double>(oracle.stddev)) << which;
    EXPECT_EQ(m.min_ns, *std::min_element(xs.begin(), xs.end()));
    EXPECT_EQ(m.max_ns, *std::max_element(xs.begin(), xs.end()));
    EXPECT_EQ(m.count, xs.size());
  }
}

TEST(LatencyMoments, MergeIsExact) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<uint64_t> dist(100, 10'000'000);
  LatencyMoments all;
  LatencyMoments parts[3];
  for (int i = 0; i < 100'000; ++i) {
    const uint64_t v = dist(rng);
    all.record(v);
    parts[i % 3].record(v);
  }
  LatencyMoments merged;
  for (const auto& p : parts) {
    merged.merge(p);
  }
  EXPECT_EQ(merged.count, all.count);
  EXPECT_EQ(merged.min_ns, all.min_ns);
  EXPECT_EQ(merged.max_ns, all.max_ns);
  EXPECT_TRUE(merged.sum_ns == all.sum_ns);
  EXPECT_TRUE(merged.sum_sq_ns2 == all.sum_sq_ns2);
  EXPECT_EQ(merged.stddev_ns(), all.stddev_ns());
  // Merging an empty one changes nothing (min stays the real minimum).
  merged.merge(LatencyMoments{});
  EXPECT_EQ(merged.min_ns, all.min_ns);
}

TEST(IoStats, CombinedMergesReadAndWrite) {
  IoStats io;
  DirectionStats both;
  std::mt19937_64 rng(3);
  for (int i = 0; i < 50'000; ++i) {
    const uint64_t lat = 1000 + rng() % 1'000'000;
    const uint64_t bytes = 4096u << (rng() % 4);
    (i % 3 == 0 ? io.write : io.read).record(bytes, lat);
    both.record(bytes, lat);
  }
  const DirectionStats c = io.combined();
  EXPECT_EQ(c.ios, both.ios);
  EXPECT_EQ(c.bytes, both.bytes);
  EXPECT_EQ(c.histogram, both.histogram);
  EXPECT_EQ(c.latency.min_ns, both.latency.min_ns);
  EXPECT_EQ(c.latency.max_ns, both.latency.max_ns);
  EXPECT_TRUE(c.latency.sum_sq_ns2 == both.latency.sum_sq_ns2);

  IoStats twice = io;
  twice.merge(io);
  EXPECT_EQ(twice.read.ios, 2 * io.read.ios);
  EXPECT_EQ(twice.write.bytes, 2 * io.write.bytes);
  EXPECT_EQ(twice.write.histogram.total_count(), 2 * io.write.histogram.total_count());
}

TEST(Summarize, RatesUseElapsedTimeAndDecimalMegabytes) {
  DirectionStats d;
  for (int i = 0; i < 1000; ++i) {
    d.record(4096, 100 + static_cast<uint64_t>(i % 50));
  }
  const DirectionSummary s = summarize(d, 500'000'000);  // 0.5 s
  EXPECT_EQ(s.ios, 1000u);
  EXPECT_EQ(s.bytes, 4'096'000u);
  EXPECT_DOUBLE_EQ(s.iops, 2000.0);
  EXPECT_DOUBLE_EQ(s.mb_per_s, 8.192);  // 4'096'000 B / 0.5 s / 10^6, not 7.8125 MiB/s
  EXPECT_EQ(s.latency_min_ns, 100u);
  EXPECT_EQ(s.latency_max_ns, 149u);
  EXPECT_DOUBLE_EQ(s.latency_mean_ns, 124.5);
  ASSERT_EQ(s.percentiles.size(), k_standard_percentiles.size());
  for (size_t i = 0; i < s.percentiles.size(); ++i) {
    EXPECT_EQ(s.percentiles[i].percentile, k_standard_percentiles[i]);
  }
  EXPECT_EQ(s.percentiles[3].value_ns, 124u);  // p50: rank 500 of 20 x {100..149}
  EXPECT_EQ(s.percentiles.back().value_ns, 149u);
}

TEST(Summarize, PercentilesAreClampedIntoMinMax) {
  // 1000 ns lies in bucket [1000, 1003] with midpoint 1002: p99.9999 must not exceed the max.
  DirectionStats top;
  top.record(4096, 1000);
  for (const auto& p : summarize(top, 1'000'000'000).percentiles) {
    EXPECT_EQ(p.value_ns, 1000u) << p.percentile;
  }
  // 1003 ns is in the same bucket: the midpoint 1002 is below the minimum.
  DirectionStats bottom;
  bottom.record(4096, 1003);
  bottom.record(4096, 1003);
  for (const auto& p : summarize(bottom, 1'000'000'000).percentiles) {
    EXPECT_EQ(p.value_ns, 1003u) << p.percentile;
  }
  // Random heavy tail: every percentile within [min, max] and non-decreasing.
  DirectionStats tail;
  std::mt19937_64 rng(5);
  std::lognormal_distribution<double> dist(std::log(50e3), 2.5);
  for (int i = 0; i < 300'000; ++i) {
    tail.record(4096, static_cast<uint64_t>(dist(rng)));
  }
  const DirectionSummary s = summarize(tail, 1'000'000'000);
  for (size_t i = 0; i < s.percentiles.size(); ++i) {
    EXPECT_GE(s.percentiles[i].value_ns, s.latency_min_ns);
    EXPECT_LE(s.percentiles[i].value_ns, s.latency_max_ns);
    if (i > 0) {
      EXPECT_GE(s.percentiles[i].value_ns, s.percentiles[i - 1].value_ns);
    }
  }
}

TEST(Summarize, EmptyStatsAndZeroElapsed) {
  const DirectionSummary s = summarize(DirectionStats{}, 1'000'000'000);
  EXPECT_EQ(s.ios, 0u);
  EXPECT_EQ(s.iops, 0.0);
  EXPECT_EQ(s.latency_min_ns, 0u);  // not UINT64_MAX
  EXPECT_EQ(s.latency_max_ns, 0u);
  EXPECT_EQ(s.latency_mean_ns, 0.0);
  ASSERT_EQ(s.percentiles.size(), k_standard_percentiles.size());
  for (const auto& p : s.percentiles) {
    EXPECT_EQ(p.value_ns, 0u);
  }
  DirectionStats d;
  d.record(512, 77);
  const DirectionSummary z = summarize(d, 0);
  EXPECT_EQ(z.iops, 0.0);
  EXPECT_EQ(z.mb_per_s, 0.0);
  EXPECT_EQ(z.latency_max_ns, 77u);
}

TEST(Summarize, IoSummaryHoldsReadWriteAndCombined) {
  IoStats io;
  io.read.record(4096, 100);
  io.write.record(8192, 200);
  io.write.record(8192, 250);
  const IoSummary s = summarize(io, 1'000'000'000);
  EXPECT_EQ(s.read.ios, 1u);
  EXPECT_EQ(s.write.ios, 2u);
  EXPECT_EQ(s.combined.ios, 3u);
  EXPECT_EQ(s.combined.bytes, 20480u);
  EXPECT_EQ(s.combined.latency_min_ns, 100u);
  EXPECT_EQ(s.combined.latency_max_ns, 250u);
  EXPECT_EQ(s.combined.percentiles[3].value_ns, 200u);  // p50 of {100, 200, 250}
}

}  // namespace
}  // namespace ptsuite::stats
