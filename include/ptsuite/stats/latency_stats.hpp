// Contract: exact latency moments, per-direction IO statistics and their summaries.
//
// LatencyMoments keeps count, min, max, sum and sum of squares in integers (128-bit sums), so
// mean and standard deviation are exact up to the final division; merging is exact. The sums
// stay exact while count * max^2 < 2^128, e.g. 2^40 IOs of up to 2^44 ns (4.9 hours) each.
// DirectionStats = IO count + bytes + moments + histogram for one direction on one thread.
// IoStats holds read and write; combined() merges them (never averages).
// summarize() turns stats into the plain DirectionSummary / IoSummary values written to results
// (JSON form: stats_json.hpp):
//   iops = ios / elapsed_s, mb_per_s = bytes / elapsed_s / 10^6 (DECIMAL MB),
//   percentiles clamped into [min, max].
// Hot-path members (record) are not thread-safe: one instance per worker thread, merged after.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include <ptsuite/stats/latency_histogram.hpp>

namespace ptsuite::stats {

// The percentiles every summary reports (PTS "nines" up to 6).
inline constexpr std::array<double, 11> k_standard_percentiles = {1.0,  5.0,  10.0,  50.0,   90.0,   95.0,
                                                                  99.0, 99.9, 99.99, 99.999, 99.9999};

struct LatencyMoments {
  uint64_t count = 0;
  uint64_t min_ns = std::numeric_limits<uint64_t>::max();
  uint64_t max_ns = 0;
  // __extension__: GCC/Clang's 128-bit integer, without a -Wpedantic warning in every includer.
  __extension__ unsigned __int128 sum_ns = 0;
  __extension__ unsigned __int128 sum_sq_ns2 = 0;

  void record(uint64_t value_ns) noexcept {
    ++count;
    min_ns = value_ns < min_ns ? value_ns : min_ns;
    max_ns = value_ns > max_ns ? value_ns : max_ns;
    sum_ns += value_ns;
    sum_sq_ns2 += (__extension__ static_cast<unsigned __int128>(value_ns)) * value_ns;
  }
  void merge(const LatencyMoments& other) noexcept;
  [[nodiscard]] double mean_ns() const noexcept;    // 0 when empty
  [[nodiscard]] double stddev_ns() const noexcept;  // sample standard deviation (n - 1); 0 when n < 2
};

struct DirectionStats {
  uint64_t ios = 0;
  uint64_t bytes = 0;
  LatencyMoments latency;
  LatencyHistogram histogram;

  void record(uint64_t bytes_done, uint64_t latency_ns) noexcept {
    ++ios;
    bytes += bytes_done;
    latency.record(latency_ns);
    histogram.record(latency_ns);
  }
  void merge(const DirectionStats& other) noexcept;
};

struct IoStats {
  DirectionStats read;
  DirectionStats write;

  void merge(const IoStats& other) noexcept;
  [[nodiscard]] DirectionStats combined() const;
};

struct PercentileValue {
  double percentile = 0;
  uint64_t value_ns = 0;

  friend bool operator==(const PercentileValue&, const PercentileValue&) = default;
};

struct DirectionSummary {
  uint64_t ios = 0;
  uint64_t bytes = 0;
  double iops = 0;
  double mb_per_s = 0;  // decimal: 10^6 bytes per second
  uint64_t latency_min_ns = 0;
  uint64_t latency_max_ns = 0;
  double latency_mean_ns = 0;
  double latency_stddev_ns = 0;
  std::vector<PercentileValue> percentiles;  // k_standard_percentiles order

  friend bool operator==(const DirectionSummary&, const DirectionSummary&) = default;
};

// Read, write and the merged read+write summary of one measurement (IoStats::combined()).
struct IoSummary {
  DirectionSummary read;
  DirectionSummary write;
  DirectionSummary combined;

  friend bool operator==(const IoSummary&, const IoSummary&) = default;
};

// elapsed_ns == 0 gives iops = mb_per_s = 0 (no rate without a duration). An empty direction
// gives zero latencies (min 0, not UINT64_MAX) and every percentile 0.
DirectionSummary summarize(const DirectionStats& stats, uint64_t elapsed_ns);
IoSummary summarize(const IoStats& stats, uint64_t elapsed_ns);

}  // namespace ptsuite::stats
