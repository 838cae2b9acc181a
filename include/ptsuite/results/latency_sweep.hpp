// Contract: the latency-sweep extension's own block, "sweep" in its record (results schema
// "#/$defs/latency_sweep_block"; a ptsuite extension of the Latency test, never a PTS test):
// the grid's axes (R/W mixes, block sizes, thread counts, queue depths) and one cell per
// point with its measurement-window IOPS, MB/s and response times (read + write combined), the
// window's largest response time beside the MRT window.mrt reports.
// The pts procedure builds it and writes it with to_json(); reporters read it with
// read_latency_sweep(), tolerant like every results reader (results/json_read.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <ptsuite/results/response_times.hpp>

namespace ptsuite::results {

struct SweepCell {
  std::string rw_mix;  // %R/%W
  uint64_t block_size_bytes = 0;
  uint32_t threads = 0;
  uint32_t queue_depth = 0;
  std::string label;  // the segment label
  double iops = 0;
  double mb_per_s = 0;
  ResponseTimes latency;  // latency_max_ns: the MRT per window.mrt
  // The window's largest response time (ns), whatever window.mrt makes the MRT: no percentile
  // exceeds it. Absent (nullopt) in documents written before it was recorded.
  std::optional<uint64_t> latency_window_max_ns;
};

struct LatencySweepBlock {
  std::vector<std::string> rw_mixes;
  std::vector<uint64_t> block_sizes_bytes;
  std::vector<uint32_t> thread_counts;
  std::vector<uint32_t> queue_depths;
  std::string source = "measurement-window-average";
  std::vector<SweepCell> cells;  // in the Round's segment order
};

void to_json(nlohmann::json& j, const LatencySweepBlock& block);
LatencySweepBlock read_latency_sweep(const nlohmann::json& block);

}  // namespace ptsuite::results
