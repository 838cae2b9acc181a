#include <ptsuite/stats/latency_histogram.hpp>

#include <algorithm>
#include <cmath>

namespace ptsuite::stats {

namespace {

__extension__ using u128 = unsigned __int128;

constexpr uint64_t k_exact_limit = 2 * LatencyHistogram::k_sub_buckets;  // 256: one bucket per value below

// Every bucket at or above k_exact_limit belongs to octave k = floor(log2 v) >= B + 1. With
// shift = k - B the header's index rule gives
//     index = (shift + 1) * S + (v >> shift) - S,   where S <= (v >> shift) < 2S.
// Writing (v >> shift) = S + r with 0 <= r < S:  index = (shift + 1) * S + r, so
//     shift = index / S - 1   and   r = index % S,
// and the bucket holds [(S + r) << shift, ((S + r + 1) << shift) - 1].
constexpr unsigned bucket_shift(size_t index) noexcept {
  return static_cast<unsigned>(index / LatencyHistogram::k_sub_buckets) - 1u;
}

// The percentile rank uses the percentile rounded to k_percentile_scale parts of 100, in
// integers: p = 99.9999 becomes 999'999'000'000 / 10^12 exactly, where the double 99.9999 * N / 100
// can round across an integer and move the nearest rank by one sample. 10 decimals cover
// every percentile anyone writes; the product scaled_p * N < 100 * 10^10 * 2^64 < 2^111 fits
// in 128 bits.
constexpr uint64_t k_percentile_scale = 10'000'000'000;
constexpr u128 k_hundred_percent_scaled = static_cast<u128>(100) * k_percentile_scale;

// Nearest rank: the smallest r in [1, N] with r >= p/100 * N, i.e. r = ceil(scaled_p * N / (100 * scale)).
uint64_t nearest_rank(double percentile, uint64_t total) noexcept {
  if (!(percentile > 0)) {  // also NaN: the smallest sample
    return 1;
  }
  if (percentile >= 100) {
    return total;
  }
  const auto scaled = static_cast<u128>(std::llround(percentile * static_cast<double>(k_percentile_scale)));
  const u128 product = scaled * total;
  const u128 rank = (product + k_hundred_percent_scaled - 1) / k_hundred_percent_scaled;
  return std::clamp(static_cast<uint64_t>(rank), uint64_t{1}, total);
}

}  // namespace

uint64_t LatencyHistogram::bucket_lower_ns(size_t index) noexcept {
  if (index < k_exact_limit) {
    return index;
  }
  const uint64_t r = index % k_sub_buckets;
  return (k_sub_buckets + r) << bucket_shift(index);
}

// lower + (width - 1) instead of the next bucket's lower bound minus one: for the last bucket
// of octave 63 the next lower bound would be 2^64, which overflows; lower + width - 1 is at
// most 2^64 - 1.
uint64_t LatencyHistogram::bucket_upper_ns(size_t index) noexcept {
  if (index < k_exact_limit) {
    return index;
  }
  const uint64_t width = uint64_t{1} << bucket_shift(index);
  return bucket_lower_ns(index) + (width - 1);
}

// lower + width / 2: the worst case is a sample at the lower bound, off by width / 2 =
// 2^(k-B-1) <= 2^-(B+1) of a value >= 2^k (the header's 1/256 bound). Exact buckets (width 1)
// report their own value.
uint64_t LatencyHistogram::bucket_midpoint_ns(size_t index) noexcept {
  if (index < k_exact_limit) {
    return index;
  }
  const uint64_t width = uint64_t{1} << bucket_shift(index);
  return bucket_lower_ns(index) + width / 2;
}

void LatencyHistogram::record_n(uint64_t value_ns, uint64_t count) noexcept {
  m_counts[bucket_index(value_ns)] += count;
  m_total += count;
}

void LatencyHistogram::merge(const LatencyHistogram& other) noexcept {
  for (size_t i = 0; i < k_bucket_count; ++i) {
    m_counts[i] += other.m_counts[i];
  }
  m_total += other.m_total;
}

void LatencyHistogram::clear() noexcept {
  std::fill(m_counts.begin(), m_counts.end(), uint64_t{0});
  m_total = 0;
}

uint64_t LatencyHistogram::value_at_percentile_ns(double percentile) const noexcept {
  if (m_total == 0) {
    return 0;
  }
  const uint64_t rank = nearest_rank(percentile, m_total);
  uint64_t seen = 0;
  for (size_t i = 0; i < k_bucket_count; ++i) {
    seen += m_counts[i];
    if (seen >= rank) {
      return bucket_midpoint_ns(i);
    }
  }
  return bucket_midpoint_ns(k_bucket_count - 1);  // unreachable while m_total == sum of counts
}

std::vector<std::pair<size_t, uint64_t>> LatencyHistogram::nonzero_buckets() const {
  std::vector<std::pair<size_t, uint64_t>> out;
  for (size_t i = 0; i < k_bucket_count; ++i) {
    if (m_counts[i] != 0) {
      out.emplace_back(i, m_counts[i]);
    }
  }
  return out;
}

}  // namespace ptsuite::stats
