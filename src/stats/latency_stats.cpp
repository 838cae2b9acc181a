#include <ptsuite/stats/latency_stats.hpp>

#include <algorithm>
#include <cmath>

#include <ptsuite/util/units.hpp>

namespace ptsuite::stats {

namespace {
__extension__ using u128 = unsigned __int128;
}  // namespace

void LatencyMoments::merge(const LatencyMoments& other) noexcept {
  count += other.count;
  min_ns = std::min(min_ns, other.min_ns);
  max_ns = std::max(max_ns, other.max_ns);
  sum_ns += other.sum_ns;
  sum_sq_ns2 += other.sum_sq_ns2;
}

double LatencyMoments::mean_ns() const noexcept {
  if (count == 0) {
    return 0;
  }
  return static_cast<double>(static_cast<long double>(sum_ns) / static_cast<long double>(count));
}

// Sample standard deviation from the exact sums S = sum(x) and Q = sum(x^2) over n samples.
//
// The sum of squared deviations is M2 = sum((x - S/n)^2) = Q - S^2/n, and the sample variance
// is M2 / (n - 1). Evaluating Q - S^2/n in floating point is the textbook cancellation trap:
// latencies of 10^6 ns +- 1 ns give Q ~ n * 10^12 and M2 ~ n, so a 53-bit double keeps no
// correct digit of the difference. Instead do the subtraction exactly in integers:
//
//   write S = q*n + r with integers q and r, |r| <= n/2 (q = S/n rounded to nearest). Then
//       S^2/n = q^2*n + 2*q*r + r^2/n
//   so  M2    = Q - q*(q*n + 2*r) - r^2/n = D - r^2/n,   with D = Q - q*(S + r) an INTEGER.
//
// D is computed exactly in 128 bits (D = M2 + r^2/n >= 0, so it cannot underflow). Only the
// fractional correction r^2/n < n/4 and the final conversion are rounded. Because the samples
// are integers whose mean has fractional part |r|/n, M2 >= |r| * (n - |r|) / n >= r^2/n, so
// D <= 2 * M2: converting D to long double (64-bit mantissa) costs at most 2^-63 relative to
// the result, and the subtraction of r^2/n cannot cancel more than one bit.
double LatencyMoments::stddev_ns() const noexcept {
  if (count < 2) {
    return 0;
  }
  const u128 n = count;
  const u128 q_floor = sum_ns / n;
  const u128 r_floor = sum_ns % n;  // S = q_floor * n + r_floor, 0 <= r_floor < n
  u128 d = 0;
  u128 r_abs = 0;
  if (2 * r_floor <= n) {
    // q = q_floor, r = +r_floor:  D = Q - q * (S + r)
    r_abs = r_floor;
    d = sum_sq_ns2 - q_floor * (sum_ns + r_abs);
  } else {
    // q = q_floor + 1, r = r_floor - n < 0:  D = Q - q * (S - |r|)
    r_abs = n - r_floor;
    d = sum_sq_ns2 - (q_floor + 1) * (sum_ns - r_abs);
  }
  const long double r_ld = static_cast<long double>(r_abs);
  const long double m2 = static_cast<long double>(d) - r_ld * (r_ld / static_cast<long double>(n));
  const long double variance = std::max(m2, 0.0L) / static_cast<long double>(count - 1);
  return static_cast<double>(std::sqrt(variance));
}

void DirectionStats::merge(const DirectionStats& other) noexcept {
  ios += other.ios;
  bytes += other.bytes;
  latency.merge(other.latency);
  histogram.merge(other.histogram);
}

void IoStats::merge(const IoStats& other) noexcept {
  read.merge(other.read);
  write.merge(other.write);
}

DirectionStats IoStats::combined() const {
  DirectionStats all = read;
  all.merge(write);
  return all;
}

DirectionSummary summarize(const DirectionStats& stats, uint64_t elapsed_ns) {
  DirectionSummary out;
  out.ios = stats.ios;
  out.bytes = stats.bytes;
  if (elapsed_ns > 0) {
    const double elapsed_s = static_cast<double>(elapsed_ns) / static_cast<double>(units::k_ns_per_s);
    out.iops = static_cast<double>(stats.ios) / elapsed_s;
    out.mb_per_s = static_cast<double>(stats.bytes) / units::k_decimal_mb / elapsed_s;
  }
  const LatencyMoments& lat = stats.latency;
  const bool any = lat.count > 0;
  out.latency_min_ns = any ? lat.min_ns : 0;
  out.latency_max_ns = any ? lat.max_ns : 0;
  out.latency_mean_ns = lat.mean_ns();
  out.latency_stddev_ns = lat.stddev_ns();
  out.percentiles.reserve(k_standard_percentiles.size());
  for (const double p : k_standard_percentiles) {
    uint64_t value_ns = stats.histogram.value_at_percentile_ns(p);
    if (any) {
      // A bucket midpoint can lie outside the samples (p99.9999 in the maximum's bucket would
      // report up to half a bucket above the maximum): the exact extremes bound it.
      value_ns = std::clamp(value_ns, lat.min_ns, lat.max_ns);
    }
    out.percentiles.push_back(PercentileValue{p, value_ns});
  }
  return out;
}

IoSummary summarize(const IoStats& stats, uint64_t elapsed_ns) {
  return IoSummary{summarize(stats.read, elapsed_ns), summarize(stats.write, elapsed_ns),
                   summarize(stats.combined(), elapsed_ns)};
}

}  // namespace ptsuite::stats
