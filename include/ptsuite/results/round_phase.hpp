// Contract: a Round phase, one entry of a test record's "phases" (results schema
// "#/$defs/phase_record"; PTS 2.0.2 §2.1.24 and each test's step 3): the Round template, every
// Round's segment results (with the record that ran before it, e.g. CBW's pre-write, and the
// health snapshot after it), the tracking variables with their per-Round values and display
// unit, the steady-state determination (rule, checks, verdicts of the final window) and the
// measurement window's per-segment aggregates (with each segment's exact window maximum beside
// the MRT window.mrt reports), the phase's conditioning kind (the rule it answers to:
// pts/conditioning_rule.hpp), its stop rule (to steady state, or a fixed count of Rounds) and
// the setting that caps it. Older documents read as a steady-state loop capped by max_rounds,
// of no conditioning kind, without window maxima. pts runs it (pts/round_loop.hpp) and writes it
// through to_json() here (record_of()); reporters read it with read_round_phase() /
// read_round_phases(), tolerant like every results reader. Segment specs and results, the
// before-Round records, health snapshots and window summaries stay sub-documents
// (results/embedded.hpp), borrowed from the document when read: it must outlive the record.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/results/embedded.hpp>
#include <ptsuite/results/steady_state.hpp>

namespace ptsuite::results {

// How a report shows a tracking variable: its unit, the divisor from the stored unit ("ms",
// 1e6 for ns) and the final window's fit in that unit.
struct TrackingDisplay {
  std::string unit;
  double divisor = 1;
  std::string fit_formula;
};

struct PhaseTracking {
  std::string name;  // "RND 4KiB 0/100 IOPS"
  uint32_t segment_index = 0;
  std::string segment_label;
  std::string metric;  // "iops", "mb_per_s", "latency_mean_ns", ...
  std::string unit;    // the stored unit: "IOPS", "MB/s", "ns"
  TrackingDisplay display;
  std::vector<uint32_t> rounds;  // one value per Round run
  std::vector<double> values;
};

struct PhaseRound {
  uint32_t round = 0;
  std::vector<Embedded> segments;  // SegmentResult per template segment
  Embedded before_round;           // null when none
  Embedded health;                 // null when not taken
};

struct SteadyStateCheckRecord {
  uint32_t round = 0;
  bool attained = false;
};

struct PhaseSteadyState {
  SteadyStateCriteriaRecord criteria;
  uint32_t first_check_round = 0;
  uint32_t max_rounds = 0;  // the Round cap
  // false: a fixed count of Rounds (ECW's 25 x 1 min preconditioning): every Round runs and the
  // window is reported, never judged as steady state ("stop_rule": "fixed").
  bool stop_at_steady_state = true;
  std::string round_cap_setting = "max_rounds";  // the setting max_rounds came from
  uint32_t rounds_run = 0;
  bool attained = false;
  std::optional<uint32_t> attained_round;  // the first check that attained
  std::vector<SteadyStateCheckRecord> checks;
  SteadyStateVerdicts verdicts;  // of the final window
};

// The largest response time of a window's IOs per direction (ns), whatever window.mrt makes the
// summary's MRT: a percentile of the window never exceeds it.
struct LatencyMaxima {
  uint64_t read = 0;
  uint64_t write = 0;
  uint64_t combined = 0;
};

struct WindowCell {
  uint32_t segment_index = 0;
  std::string label;
  Embedded summary;                     // the segment's IoSummary aggregated over the window
  std::optional<LatencyMaxima> max_ns;  // "latency_max_ns"; absent in older documents
};

struct MeasurementWindow {
  uint32_t first_round = 0;
  uint32_t last_round = 0;
  std::vector<WindowCell> cells;
};

struct RoundPhase {
  std::string phase;                     // "main", a Throughput block size, "pre", ...
  std::string conditioning;              // its conditioning kind ("wdpc", "precondition"), "" when none
  std::vector<Embedded> round_template;  // SegmentSpec per segment, in Round order
  std::vector<PhaseRound> rounds;
  std::vector<PhaseTracking> tracking;
  PhaseSteadyState steady_state;
  MeasurementWindow measurement_window;
};

void to_json(nlohmann::json& j, const RoundPhase& p);
void to_json(nlohmann::json& j, RoundPhase&& p);  // releases its owned sub-documents (embedded.hpp)
RoundPhase read_round_phase(const nlohmann::json& phase);
// Every entry of a record's "phases" array, in order; empty unless an array.
std::vector<RoundPhase> read_round_phases(const nlohmann::json& phases);

}  // namespace ptsuite::results
