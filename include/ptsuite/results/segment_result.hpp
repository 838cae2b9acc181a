// Contract: a typed, read-only view of the two segment sub-documents pts writes
// (pts/segment.hpp to_json): a SegmentSpec (label, pattern, R/W mix, block sizes, threads,
// queue depth, durations) and a SegmentResult (per-direction summary with its latency
// statistics, elapsed time, CPU, stop reason, the per-interval raw counters), plus an IoSummary
// on its own (a measurement window's cell, a claims point) and the record a Round ran before
// it (CBW's pre-write: spec, result, IOPS series). They stay Embedded JSON inside the typed
// records (results/embedded.hpp: written by the layers that own their types); reporters read
// them through this view instead of by key.
// Tolerant like every results reader (results/json_read.hpp): a missing or mistyped member
// reads as absent - nullopt for a count, NaN for a real, "" for a text, an empty list - and is
// never turned into a 0 a reporter would print; a direction that is not an object reads as
// nullopt. Counts are non-negative JSON integers (anything else reads as absent).
// Percentiles keep their exact key text ("99.999") and are ordered by value, so a renderer
// shows them as written and in numeric order. The histograms are not read (reporters draw the
// records' display-ready bars, results/capture.hpp). The view copies what it reads: it does
// not borrow from the document.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <ptsuite/results/embedded.hpp>
#include <ptsuite/results/series.hpp>

namespace ptsuite::results {

// A count as a double for arithmetic and charts: NaN when absent.
inline double or_nan(const std::optional<uint64_t>& n) { return n ? static_cast<double>(*n) : std::nan(""); }

// One latency percentile of a summary: "99.999": 123456 reads {99.999, "99.999", 123456}.
struct PercentileRecord {
  double pct = 0;   // the key's value (0 when the key is not a number)
  std::string key;  // the key as written
  uint64_t ns = 0;
};

// A direction's "latency_ns" (stats::DirectionSummary).
struct LatencySummary {
  std::optional<uint64_t> min_ns;
  std::optional<uint64_t> max_ns;
  double mean_ns = std::nan("");
  double stddev_ns = std::nan("");
  std::vector<PercentileRecord> percentiles;  // ascending by pct, then key; only integer values

  // The percentile written under `key` ("99.9"), NaN when there is none.
  [[nodiscard]] double percentile_ns(std::string_view key) const;
};

// One direction of a summary: "read", "write" or "combined".
struct DirectionSummary {
  std::optional<uint64_t> ios;
  std::optional<uint64_t> bytes;
  double iops = std::nan("");
  double mb_per_s = std::nan("");
  LatencySummary latency;
};

// An IoSummary: {"read", "write", "combined"}, each nullopt unless an object.
struct SegmentSummary {
  std::optional<DirectionSummary> read;
  std::optional<DirectionSummary> write;
  std::optional<DirectionSummary> combined;

  // The direction called `name` ("read", "write", "combined"); null when absent or unknown.
  [[nodiscard]] const DirectionSummary* direction(std::string_view name) const;
};

// One direction's raw counters of an interval sample.
struct IntervalCounters {
  std::optional<uint64_t> ios;
  std::optional<uint64_t> bytes;
  std::optional<uint64_t> latency_sum_ns;
  std::optional<uint64_t> p99_ns;  // only written by segments that track it
};

// One entry of a result's "intervals" (workload/workload_json.cpp intervals_json()); an entry
// that is not an object reads with every counter absent (it keeps its place in the list).
struct IntervalSample {
  std::optional<uint64_t> end_offset_ns;
  IntervalCounters read;
  IntervalCounters write;
};

struct SegmentResultRecord {
  SegmentSummary summary;
  std::optional<uint64_t> elapsed_ns;
  double cpu_user_s = std::nan("");
  double cpu_system_s = std::nan("");
  std::string stop_reason;  // workload::to_string(StopReason); "" when absent
  std::string started_utc;
  std::string finished_utc;
  bool has_error = false;  // "error" holds an IO error record (not null)
  std::vector<IntervalSample> intervals;
};

// One entry of a spec's "block_sizes".
struct BlockSizeRecord {
  std::optional<uint64_t> bytes;
  double weight = std::nan("");
};

struct SegmentSpecRecord {
  std::string label;    // "RND 4KiB 65/35"
  std::string pattern;  // "random", "sequential"
  std::string rw_mix;   // "65/35"
  double read_pct = std::nan("");
  std::vector<BlockSizeRecord> block_sizes;  // an entry that is not an object keeps its place
  std::optional<uint32_t> threads;
  std::optional<uint32_t> queue_depth;
  std::optional<uint64_t> duration_ns;
  std::optional<uint64_t> bytes_limit;
  std::optional<uint64_t> interval_ns;
  std::string sequence_key;
};

// The record a Round ran before it (round_phase.hpp PhaseRound::before_round).
struct BeforeRoundRecord {
  std::string kind;  // "inter-round-prewrite" (the conditioning rule it answers to)
  SegmentSpecRecord spec;
  SegmentResultRecord result;
  IntervalSeries series;  // its IOPS over time (results/series.hpp)
};

LatencySummary read_latency_summary(const nlohmann::json& latency_ns);
DirectionSummary read_direction_summary(const nlohmann::json& direction);
SegmentSummary read_segment_summary(const nlohmann::json& summary);
SegmentSummary read_segment_summary(const Embedded& summary);
SegmentResultRecord read_segment_result(const nlohmann::json& result);
SegmentResultRecord read_segment_result(const Embedded& result);
SegmentSpecRecord read_segment_spec(const nlohmann::json& spec);
SegmentSpecRecord read_segment_spec(const Embedded& spec);
// nullopt unless the record is an object (a Round without one).
std::optional<BeforeRoundRecord> read_before_round(const Embedded& before_round);

}  // namespace ptsuite::results
