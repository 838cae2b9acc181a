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

void LatencyHistogram::widen_to(size_t index) {
  if (m_counts.empty()) {
    m_offset = index;
    m_counts.assign(1, 0);
    return;
  }
  const size_t first = std::min(m_offset, index);
  const size_t last = std::max(m_offset + m_counts.size() - 1, index);
  std::vector<uint64_t> wider(last - first + 1, 0);
  std::copy(m_counts.begin(), m_counts.end(), wider.begin() + static_cast<std::ptrdiff_t>(m_offset - first));
  m_counts = std::move(wider);
  m_offset = first;
}

void LatencyHistogram::record_n(uint64_t value_ns, uint64_t count) noexcept {
  const size_t index = bucket_index(value_ns);
  if (index - m_offset >= m_counts.size()) {
    widen_to(index);
  }
  m_counts[index - m_offset] += count;
  m_total += count;
}

void LatencyHistogram::merge(const LatencyHistogram& other) noexcept {
  if (other.m_total == 0) {
    return;
  }
  // Widen to other's non-empty range only (a full-size `other` may be mostly zeros).
  size_t first = other.m_counts.size();
  size_t last = 0;
  for (size_t i = 0; i < other.m_counts.size(); ++i) {
    if (other.m_counts[i] != 0) {
      first = std::min(first, i);
      last = i;
    }
  }
  widen_to(other.m_offset + first);
  widen_to(other.m_offset + last);
  for (size_t i = first; i <= last; ++i) {
    m_counts[other.m_offset + i - m_offset] += other.m_counts[i];
  }
  m_total += other.m_total;
}

void LatencyHistogram::clear() noexcept {
  std::fill(m_counts.begin(), m_counts.end(), uint64_t{0});
  m_total = 0;
}

void LatencyHistogram::shrink_to_fit() {
  const auto nonzero = [](uint64_t c) { return c != 0; };
  const auto first = std::find_if(m_counts.begin(), m_counts.end(), nonzero);
  if (first == m_counts.end()) {
    std::vector<uint64_t>().swap(m_counts);  // `= {}` would keep the capacity
    m_offset = 0;
    return;
  }
  const auto last = std::find_if(m_counts.rbegin(), m_counts.rend(), nonzero).base();
  m_offset += static_cast<size_t>(first - m_counts.begin());
  m_counts = std::vector<uint64_t>(first, last);
}

bool operator==(const LatencyHistogram& a, const LatencyHistogram& b) noexcept {
  if (a.m_total != b.m_total) {
    return false;
  }
  const size_t first = std::min(a.m_offset, b.m_offset);
  const size_t end = std::max(a.m_offset + a.m_counts.size(), b.m_offset + b.m_counts.size());
  for (size_t i = first; i < end; ++i) {
    if (a.count_at(i) != b.count_at(i)) {
      return false;
    }
  }
  return true;
}

uint64_t LatencyHistogram::value_at_percentile_ns(double percentile) const noexcept {
  if (m_total == 0) {
    return 0;
  }
  const uint64_t rank = nearest_rank(percentile, m_total);
  uint64_t seen = 0;
  for (size_t i = 0; i < m_counts.size(); ++i) {
    seen += m_counts[i];
    if (seen >= rank) {
      return bucket_midpoint_ns(m_offset + i);
    }
  }
  return bucket_midpoint_ns(k_bucket_count - 1);  // unreachable while m_total == sum of counts
}

std::vector<std::pair<size_t, uint64_t>> LatencyHistogram::nonzero_buckets() const {
  std::vector<std::pair<size_t, uint64_t>> out;
  for (size_t i = 0; i < m_counts.size(); ++i) {
    if (m_counts[i] != 0) {
      out.emplace_back(m_offset + i, m_counts[i]);
    }
  }
  return out;
}

}  // namespace ptsuite::stats
