// Contract: one PTS segment (a workload run for a fixed time or amount: one cell of a Round,
// a WIPC pass, a pre-write or a histogram capture) as plain data, and its measured result.
// SegmentSpec is what a test asks for; the executor turns it into a workload::WorkloadSpec
// using the run-wide parameters (target, ActiveRange, seed, engine, data pattern).
// SegmentResult is what results.json records per segment: summaries per direction and
// combined, and sparse histograms per direction and combined (reporters never merge).
// JSON via ADL (to_json/from_json); from_json throws UsageError naming the field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/pts/rw_mix.hpp>
#include <ptsuite/stats/latency_stats.hpp>
#include <ptsuite/workload/workload_spec.hpp>

namespace ptsuite::pts {

struct SegmentSpec {
  std::string label;  // e.g. "RND 4KiB 65/35"
  workload::AccessPattern pattern = workload::AccessPattern::random;
  RwMix mix;
  std::vector<workload::BlockSizeWeight> block_sizes;  // one entry = fixed block size
  std::vector<workload::AccessZone> zones;             // empty = uniform over the ActiveRange
  uint32_t threads = 1;
  uint32_t queue_depth = 1;
  uint64_t duration_ns = 0;  // 0 = none
  uint64_t bytes_limit = 0;  // absolute, 0 = none
  // Sequential segments sharing a key continue where the previous one stopped (e.g. the TP
  // test's SEQ read segment of Round n+1 resumes after Round n's). Empty = start of slice.
  std::string sequence_key;
  uint64_t interval_ns = 0;  // per-interval series, 0 = off
  // segment.warmup (pts/common.json, a disclosed deviation): the segment's stimulus runs this
  // long, unmeasured, right before the measured run (which keeps duration_ns / bytes_limit); a
  // sequential segment's measured run continues where the warm-up stopped. 0 = none (the spec).
  // Written to JSON only when non-zero.
  uint64_t warmup_ns = 0;
  // Non-empty: a weighted multi-stream segment (workload::StreamSpec, the applied test workload
  // of a capture); `mix` and `block_sizes` then summarise it (the weighted read share and
  // every stream's sizes weighted by its share) for labels and plans, `pattern` and `zones`
  // are not used. Written to JSON only when non-empty.
  std::vector<workload::StreamSpec> streams;

  friend bool operator==(const SegmentSpec&, const SegmentSpec&) = default;
};

struct SegmentResult {
  stats::IoSummary summary;  // read, write, combined
  stats::LatencyHistogram read_histogram;
  stats::LatencyHistogram write_histogram;
  stats::LatencyHistogram combined_histogram;
  uint64_t elapsed_ns = 0;
  // A simulated segment's advance of the run's clock (its drain at the modelled drive's speed,
  // workload/sim_runner.hpp); unset (and not written) for a real drive's, whose is elapsed_ns.
  std::optional<uint64_t> run_clock_ns;
  double cpu_user_s = 0;
  double cpu_system_s = 0;
  std::string stop_reason;  // workload::to_string(StopReason)
  std::string started_utc;
  std::string finished_utc;
  uint64_t seed = 0;
  std::vector<uint64_t> end_cursor_bytes;  // sequential position per thread after the run
  nlohmann::json intervals = nlohmann::json::array();
  nlohmann::json error;  // null, or the IO error record

  // How long the segment took on the run's clock: what time limits and time axes add up.
  [[nodiscard]] uint64_t clock_ns() const noexcept { return run_clock_ns.value_or(elapsed_ns); }
};

// Tracking-variable metrics (pts/tests/*.json "metric").
enum class Metric { iops, read_mb_per_s, write_mb_per_s, mb_per_s, mean_latency_ns, max_latency_ns };
Metric parse_metric(const std::string& text);  // throws Error for unknown names
const char* to_string(Metric metric) noexcept;
const char* metric_unit(Metric metric) noexcept;  // "IOPS", "MB/s", "ns"
// How reports show a metric: "ms" for latencies (stored in ns, divisor 1e6), else the unit.
const char* metric_display_unit(Metric metric) noexcept;
double metric_display_divisor(Metric metric) noexcept;
double metric_value(const SegmentResult& result, Metric metric);

// "RND 4KiB 65/35", "SEQ 128KiB 0/100", "CBW 40/60".
std::string segment_label(workload::AccessPattern pattern, const std::vector<workload::BlockSizeWeight>& sizes,
                          RwMix mix);

void to_json(nlohmann::json& j, const SegmentSpec& spec);
void from_json(const nlohmann::json& j, SegmentSpec& spec);
void to_json(nlohmann::json& j, const SegmentResult& result);
void from_json(const nlohmann::json& j, SegmentResult& result);

}  // namespace ptsuite::pts
