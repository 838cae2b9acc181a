// Contract: the typed records of a scenario results document (kind "ptsuite.scenario",
// pts/schema/scenario-results.schema.json; docs/scenarios.md), read tolerantly: a missing or
// mistyped member reads as 0 / NaN / "" / empty, so a partial document (an interrupted run) still
// renders. The scenario runner writes the document (scenario/scenario_runner.hpp); the report,
// the CSV, the text summary, `compare` and the history read it through these records.
//   SummaryRecord   one merged summary (per stream instance, per target, or the aggregate):
//                   per direction (read, write, combined) IOs, IOPS, MB/s and the response
//                   times mean, stddev, min, max and the percentiles, in ns
//   IntervalRecord  one interval of an instance's series (IOs, bytes, latency sums per
//                   direction, and, when recorded, the interval's 99 % per direction)
//   InstanceRecord  one stream on one target in one step
//   StepRecord      one measured step: label, x (generator coordinate, kept as JSON for the
//                   CSV, with a rate_steps step's stepped rate typed in `rate`), the
//                   instances, one summary per target (absent = no stream there) and the aggregate
//   PhaseRecord     a phase: name, kind, per-step duration and warm-up, its steps, the
//                   steady-state verdict (steady_state phases), the purge records (kept as JSON,
//                   with each target's description typed in `purge_records`)
//                   and a replay phase's replay record per target (results/replay.hpp);
//                   an app phase's application run, its targets and, mixed with streams,
//                   when the streams started
// Units: ns, IOPS, decimal MB/s (10^6 bytes/s). Readers borrow nothing: records own their data
// except the Embedded members, which point into the document read (it must outlive them).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <ptsuite/results/app_run.hpp>
#include <ptsuite/results/embedded.hpp>
#include <ptsuite/results/replay.hpp>

namespace ptsuite::results {

struct LatencyRecord {
  double mean_ns = 0;
  double stddev_ns = 0;
  double min_ns = 0;
  double max_ns = 0;
  std::vector<std::pair<std::string, double>> percentiles;  // ("99.9", ns), as stored
  // The percentile stored under `key` ("99.9"); NaN when absent.
  [[nodiscard]] double percentile_ns(std::string_view key) const;
  // A statistic by name: "mean", "stddev", "min", "max", or a percentile key ("99.9").
  [[nodiscard]] double statistic_ns(std::string_view key) const;
};

struct DirectionRecord {
  uint64_t ios = 0;
  uint64_t bytes = 0;
  double iops = 0;
  double mb_per_s = 0;
  LatencyRecord latency;
};

enum class Direction { read, write, combined };
const char* to_string(Direction d) noexcept;

struct SummaryRecord {
  bool present = false;  // false: the summary was null (no stream on that target)
  DirectionRecord read;
  DirectionRecord write;
  DirectionRecord combined;
  [[nodiscard]] const DirectionRecord& of(Direction d) const;
  // The directions with IOs: {read}, {write} or {read, write}; {combined} when there were none.
  [[nodiscard]] std::vector<Direction> directions() const;
};

struct IntervalRecord {
  uint64_t end_offset_ns = 0;
  uint64_t ios[2] = {0, 0};  // [0] read, [1] write
  uint64_t bytes[2] = {0, 0};
  uint64_t latency_sum_ns[2] = {0, 0};
  double p99_ns[2] = {0, 0};  // NaN when the interval's histogram was not recorded
  // The interval's exact largest response time and standard deviation (n - 1) per direction;
  // NaN in documents written before they were recorded.
  double max_ns[2] = {0, 0};
  double stddev_ns[2] = {0, 0};
};

struct InstanceRecord {
  std::string stream;
  uint32_t target = 0;
  uint32_t threads = 0;
  uint32_t queue_depth = 0;
  double rate_iops = 0;  // requested; 0 = unlimited
  double rate_mb_per_s = 0;
  uint64_t elapsed_ns = 0;
  std::string stop_reason;
  SummaryRecord summary;
  uint64_t interval_ns = 0;  // the series' nominal period; 0 when unknown (older documents)
  std::vector<IntervalRecord> intervals;
};

// A rate_steps step's stepped stream rate, read from its x: "rate_mbps" when x has it, else
// "rate_iops". value is NaN when x holds no such number.
struct SteppedRate {
  bool mb_per_s = false;
  double value = std::numeric_limits<double>::quiet_NaN();
};

struct StepRecord {
  std::string label;
  Embedded x;        // {"threads", "queue_depth"} / {"percent", "rate_iops"} / {"rate_mbps"} / {"round"}
  SteppedRate rate;  // x's rate, typed
  std::vector<InstanceRecord> instances;
  std::vector<SummaryRecord> targets;  // index = target
  SummaryRecord aggregate;
};

struct ScenarioSteadyState {  // a scenario phase's steady-state verdict (not round_phase.hpp's)
  bool attained = false;
  std::string variable;
  uint32_t rounds_run = 0;
  uint32_t max_rounds = 0;
};

// One target's replay in a replay phase ("replays": [{target, replay}]).
struct ScenarioReplay {
  uint32_t target = 0;
  ReplayRecord record;
};

// One target's purge in a purge phase ("purges": [{target, description, ...}]).
struct ScenarioPurge {
  uint32_t target = 0;
  std::string description;
};

struct PhaseRecord {
  std::string name;
  std::string kind;  // run, purge, fill, txq, rate_ramp, rate_steps, steady_state, app, replay
  uint64_t duration_ns = 0;
  uint64_t warmup_ns = 0;
  std::vector<StepRecord> steps;
  std::optional<ScenarioSteadyState> steady_state;
  Embedded purges;
  std::vector<ScenarioPurge> purge_records;  // purges, typed (purge phases)
  std::vector<ScenarioReplay> replays;       // replay phases: one per target, in target order
  // app phases: the application's run as `ptsuite app` records it (one instance per target,
  // instance i on target i, or on app_targets[i]; TPS, transaction latency, the device figures
  // of its capture).
  std::optional<AppRun> app;
  std::vector<uint32_t> app_targets;  // the targets the application ran on (empty: every target)
  // A mixed phase (an app phase with streams, its one step): how long after the start of the
  // application's measured period the streams started.
  uint64_t streams_start_ns = 0;
  // The target application instance `instance` ran on.
  [[nodiscard]] uint32_t app_target(uint32_t instance) const;
  // The directions the steps' aggregates have IOs in: {read}, {write}, {read, write}; {combined}
  // when none (a phase is drawn and compared per direction).
  [[nodiscard]] std::vector<Direction> directions() const;
};

SummaryRecord read_summary_record(const nlohmann::json& j);
InstanceRecord read_instance_record(const nlohmann::json& j);
StepRecord read_step_record(const nlohmann::json& j);
PhaseRecord read_phase_record(const nlohmann::json& j);
std::vector<PhaseRecord> read_phase_records(const nlohmann::json& phases);

}  // namespace ptsuite::results
