// Contract: a Round phase, one entry of a test record's "phases" (results schema
// "#/$defs/phase_record"; PTS 2.0.2 §2.1.24 and each test's step 3): the Round template, every
// Round's segment results (with the record that ran before it, e.g. CBW's pre-write, and the
// health snapshot after it), the tracking variables with their per-Round values and display
// unit, the steady-state determination (rule, checks, verdicts of the final window) and the
// measurement window's per-segment aggregates. pts runs it (pts/round_loop.hpp) and writes it
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
  uint32_t rounds_run = 0;
  bool attained = false;
  std::optional<uint32_t> attained_round;  // the first check that attained
  std::vector<SteadyStateCheckRecord> checks;
  SteadyStateVerdicts verdicts;  // of the final window
};

struct WindowCell {
  uint32_t segment_index = 0;
  std::string label;
  Embedded summary;  // the segment's IoSummary aggregated over the window
};

struct MeasurementWindow {
  uint32_t first_round = 0;
  uint32_t last_round = 0;
  std::vector<WindowCell> cells;
};

struct RoundPhase {
  std::string phase;                     // "main", a Throughput block size, "pre", ...
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
