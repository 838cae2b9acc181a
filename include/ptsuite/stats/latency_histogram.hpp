// Contract: a log-linear latency histogram over the whole uint64 nanosecond range, with a
// bounded relative error. One instance per worker thread and direction on the hot path
// (record() is a handful of instructions, no allocation, not thread-safe); instances merge
// exactly across threads, directions, segments and rounds, so combined read+write
// percentiles always come from a merged histogram, never from averaging.
//
// Bucket layout (HdrHistogram-style; B = k_sub_bucket_bits = 7, S = 2^B = 128):
//   * values v < 2S (0..255 ns) have a bucket each: exact.
//   * a value v >= S with k = floor(log2 v) lies in octave [2^k, 2^(k+1)), which is split into
//     S equal buckets of width w = 2^(k-B). Its index is
//         index(v) = (k - B + 1) * S + (v >> (k - B)) - S
//     (for k = B this is index(v) = v, so the two rules meet without a gap).
//   * octaves run up to k = 63, so there are (64 - B + 1) * S = 7424 buckets (58 KiB of
//     uint64 counts) and no value is ever clamped.
// Error bound: a bucket's width relative to its lower bound is w / 2^k <= 2^-B = 1/128. A
// percentile is reported as the bucket MIDPOINT, so its error relative to the true sample is
//         |reported - true| / true <= (w / 2) / 2^k = 2^-(B+1) = 1/256 = 0.39 %   (<= 0.4 %)
// and values below 256 ns are exact. fio's bins are 1/64 of an octave (error ~0.8 %).
// Percentiles use the nearest-rank definition: the p-th percentile is the smallest recorded
// value x with at least ceil(p/100 * N) samples <= x (p = 100 gives the maximum). Callers that
// also hold the exact min and max (LatencyMoments) clamp the result into [min, max], so
// p99.9999 can never exceed the recorded maximum (the quirk of fio issue #1984).
// Storage: a new histogram holds all 7424 buckets (58 KiB), so record() on the hot path only
// indexes. shrink_to_fit() keeps only the buckets from the lowest to the highest non-empty one
// (a minute of IO spans one to three decades: 1-30 KiB), which is how results are kept once
// recorded (stats_json's from_json shrinks): a Round of 56 segments x 3 histograms then costs
// tens of KiB instead of 10 MiB. Every operation works on either form; record() and merge() on
// a shrunk histogram widen it (an allocation) when a value falls outside its range.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ptsuite::stats {

class LatencyHistogram {
 public:
  static constexpr unsigned k_sub_bucket_bits = 7;
  static constexpr uint64_t k_sub_buckets = uint64_t{1} << k_sub_bucket_bits;
  static constexpr size_t k_bucket_count = (64 - k_sub_bucket_bits + 1) * k_sub_buckets;

  LatencyHistogram() : m_counts(k_bucket_count, 0) {}

  static constexpr size_t bucket_index(uint64_t value_ns) noexcept {
    if (value_ns < 2 * k_sub_buckets) {
      return static_cast<size_t>(value_ns);
    }
    const unsigned k = 63u - static_cast<unsigned>(std::countl_zero(value_ns));
    const unsigned shift = k - k_sub_bucket_bits;
    return static_cast<size_t>((uint64_t{shift} + 1) * k_sub_buckets + (value_ns >> shift) - k_sub_buckets);
  }
  static uint64_t bucket_lower_ns(size_t index) noexcept;
  static uint64_t bucket_upper_ns(size_t index) noexcept;  // inclusive
  static uint64_t bucket_midpoint_ns(size_t index) noexcept;

  void record(uint64_t value_ns) noexcept {
    const size_t slot = bucket_index(value_ns) - m_offset;  // wraps below m_offset: also >= size
    if (slot >= m_counts.size()) [[unlikely]] {
      record_n(value_ns, 1);  // a shrunk histogram: widen first
      return;
    }
    ++m_counts[slot];
    ++m_total;
  }
  void record_n(uint64_t value_ns, uint64_t count) noexcept;
  void merge(const LatencyHistogram& other) noexcept;
  void clear() noexcept;
  // Keeps only the buckets from the lowest to the highest non-empty one (none when empty).
  void shrink_to_fit();

  [[nodiscard]] uint64_t total_count() const noexcept { return m_total; }
  [[nodiscard]] uint64_t count_at(size_t index) const noexcept {
    return index >= m_offset && index - m_offset < m_counts.size() ? m_counts[index - m_offset] : 0;
  }
  [[nodiscard]] size_t stored_buckets() const noexcept { return m_counts.size(); }
  [[nodiscard]] size_t stored_capacity() const noexcept { return m_counts.capacity(); }

  // Nearest-rank percentile (0 < percentile <= 100), reported as the bucket midpoint;
  // 0 when empty. Not clamped: see summarize() in latency_stats.hpp. The rank is computed in
  // integers from the percentile rounded to 10 decimals, so 99.9 means exactly 999/1000 (a
  // double product 99.9 / 100 * N can round up across an integer). percentile <= 0 or NaN
  // gives the smallest sample's bucket, > 100 the largest's.
  [[nodiscard]] uint64_t value_at_percentile_ns(double percentile) const noexcept;

  // (bucket index, count) for every non-empty bucket, ascending: the sparse form stored in
  // results files.
  [[nodiscard]] std::vector<std::pair<size_t, uint64_t>> nonzero_buckets() const;

  // Equal when every bucket holds the same count, whatever the storage.
  friend bool operator==(const LatencyHistogram& a, const LatencyHistogram& b) noexcept;

 private:
  // Makes the stored range cover bucket `index` (allocates).
  void widen_to(size_t index);

  std::vector<uint64_t> m_counts;  // buckets m_offset .. m_offset + size - 1
  size_t m_offset = 0;
  uint64_t m_total = 0;
};

}  // namespace ptsuite::stats
