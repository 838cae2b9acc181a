// Histogram percentiles against the exact nearest-rank percentiles of large random samples
// (2 million samples per distribution, ns to seconds), for every k_standard_percentiles entry.
// The bound checked is the documented one: |reported - exact| <= exact / 256, and exact below
// 256 ns. Stronger still, the reported value must be the midpoint of the exact sample's bucket.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <ptsuite/stats/latency_histogram.hpp>
#include <ptsuite/stats/latency_stats.hpp>

namespace ptsuite::stats {
namespace {

constexpr size_t k_samples = 2'000'000;
constexpr double k_one_second_ns = 1e9;

// The standard percentiles as exact fractions of 100: p = numerator / denominator.
struct ExactPercentile {
  uint64_t numerator;
  uint64_t denominator;
};
constexpr ExactPercentile k_exact_percentiles[] = {{1, 1},      {5, 1},        {10, 1},        {50, 1},
                                                   {90, 1},     {95, 1},       {99, 1},        {999, 10},
                                                   {9999, 100}, {99999, 1000}, {999999, 10000}};

TEST(PercentileOracle, FractionsMatchTheStandardPercentiles) {
  ASSERT_EQ(std::size(k_exact_percentiles), k_standard_percentiles.size());
  for (size_t i = 0; i < k_standard_percentiles.size(); ++i) {
    EXPECT_DOUBLE_EQ(
        static_cast<double>(k_exact_percentiles[i].numerator) / static_cast<double>(k_exact_percentiles[i].denominator),
        k_standard_percentiles[i]);
  }
}

// Nearest rank in integers: ceil(num / den / 100 * N).
uint64_t exact_rank(ExactPercentile p, uint64_t n) {
  const uint64_t scaled = p.numerator * n;
  const uint64_t divisor = 100 * p.denominator;
  return std::max<uint64_t>(1, (scaled + divisor - 1) / divisor);
}

uint64_t clamp_to_ns(double v) {
  if (!(v >= 0)) {
    return 0;
  }
  return v > 1e18 ? uint64_t{1'000'000'000'000'000'000} : static_cast<uint64_t>(v);
}

void check_distribution(const std::string& name, const std::function<double(std::mt19937_64&)>& draw) {
  std::mt19937_64 rng(0x5EED'0000 + name.size());
  std::vector<uint64_t> samples(k_samples);
  LatencyHistogram h;
  for (uint64_t& s : samples) {
    s = clamp_to_ns(draw(rng));
    h.record(s);
  }
  std::sort(samples.begin(), samples.end());
  for (size_t i = 0; i < k_standard_percentiles.size(); ++i) {
    const double p = k_standard_percentiles[i];
    const uint64_t exact = samples[exact_rank(k_exact_percentiles[i], k_samples) - 1];
    const uint64_t reported = h.value_at_percentile_ns(p);
    const uint64_t diff = reported > exact ? reported - exact : exact - reported;
    EXPECT_EQ(reported, LatencyHistogram::bucket_midpoint_ns(LatencyHistogram::bucket_index(exact)))
        << name << " p" << p << " exact " << exact;
    if (exact < 256) {
      EXPECT_EQ(reported, exact) << name << " p" << p;
    } else {
      // |reported - exact| / exact <= 2^-8, in integers.
      EXPECT_LE(diff * 256, exact) << name << " p" << p << " exact " << exact << " reported " << reported;
    }
  }
  EXPECT_EQ(h.value_at_percentile_ns(100),
            LatencyHistogram::bucket_midpoint_ns(LatencyHistogram::bucket_index(samples.back())));
}

TEST(PercentileAccuracy, UniformMicroseconds) {
  check_distribution("uniform 50ns..5ms", [](std::mt19937_64& rng) {
    return static_cast<double>(std::uniform_int_distribution<uint64_t>(50, 5'000'000)(rng));
  });
}

TEST(PercentileAccuracy, UniformSmallExactValues) {
  check_distribution("uniform 0..600ns", [](std::mt19937_64& rng) {
    return static_cast<double>(std::uniform_int_distribution<uint64_t>(0, 600)(rng));
  });
}

TEST(PercentileAccuracy, LogNormal) {
  check_distribution("log-normal median 100us", [](std::mt19937_64& rng) {
    return std::lognormal_distribution<double>(std::log(100e3), 1.0)(rng);
  });
}

TEST(PercentileAccuracy, Bimodal) {
  check_distribution("bimodal 80us / 2ms", [](std::mt19937_64& rng) {
    if (std::uniform_real_distribution<double>(0, 1)(rng) < 0.9) {
      return std::normal_distribution<double>(80e3, 5e3)(rng);
    }
    return std::normal_distribution<double>(2e6, 200e3)(rng);
  });
}

TEST(PercentileAccuracy, HeavyTailedPareto) {
  check_distribution("pareto alpha 1.1 from 20us", [](std::mt19937_64& rng) {
    const double u = std::uniform_real_distribution<double>(0, 1)(rng);
    return std::min(20e3 / std::pow(1.0 - u, 1.0 / 1.1), 30 * k_one_second_ns);
  });
}

TEST(PercentileAccuracy, LogUniformFromNanosecondsToSeconds) {
  check_distribution("log-uniform 1ns..10s", [](std::mt19937_64& rng) {
    return std::exp(std::uniform_real_distribution<double>(0, std::log(10 * k_one_second_ns))(rng));
  });
}

}  // namespace
}  // namespace ptsuite::stats
