// Test helpers: statistical acceptance bounds for the seeded distribution tests. The tests
// draw from fixed seeds, so they are deterministic; the bounds are set at a false-alarm
// probability of about 1e-6 so that a correct generator passes for practically any seed while
// a wrong weight (off by a few percent of a bin) fails.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace ptsuite::workload::test {

// Upper critical value of the chi-square distribution with `df` degrees of freedom at tail
// probability ~1e-6, by the Wilson-Hilferty approximation
//   chi2_p(k) ~= k * (1 - 2/(9k) + z_p * sqrt(2/(9k)))^3,  z_p = 4.753 for p = 1e-6
// (accurate to a few percent for k >= 2, which is all a pass/fail bound needs).
inline double chi_square_critical_1e6(unsigned df) {
  constexpr double k_z = 4.753;
  const double k = df;
  const double a = 2.0 / (9.0 * k);
  const double t = 1.0 - a + k_z * std::sqrt(a);
  return k * t * t * t;
}

// Pearson's statistic sum (observed - expected)^2 / expected.
inline double chi_square(const std::vector<uint64_t>& observed, const std::vector<double>& probabilities) {
  uint64_t n = 0;
  for (uint64_t o : observed) {
    n += o;
  }
  double stat = 0;
  for (size_t i = 0; i < observed.size(); ++i) {
    const double expected = probabilities[i] * static_cast<double>(n);
    const double diff = static_cast<double>(observed[i]) - expected;
    stat += diff * diff / expected;
  }
  return stat;
}

// |observed - n p| <= 5 sigma of a binomial(n, p) count (two-sided tail ~5.7e-7).
inline bool within_5_sigma(uint64_t observed, uint64_t n, double p) {
  const double mean = static_cast<double>(n) * p;
  const double sigma = std::sqrt(static_cast<double>(n) * p * (1 - p));
  return std::fabs(static_cast<double>(observed) - mean) <= 5 * sigma;
}

}  // namespace ptsuite::workload::test
