// Contract: the round loop every steady-state test shares (PTS §2.1.24 and each test's
// step 3). A Round runs the template's segments in order, each as its own step; after each
// completed Round from `first_check_round` on, the tracking variables' last `window_rounds`
// values are judged (steady_state.hpp); the loop stops at the first attaining Round or after
// `max_rounds` (then the window is the last rounds, x-4..x, and the verdict says NOT
// attained). The measurement window's per-segment values are aggregated (window.hpp), and
// each segment's largest response time of the window is kept beside them (whatever window.mrt
// makes the aggregate's MRT). A loop names its conditioning kind (the rule its amount is
// judged by: conditioning_rule.hpp) and the setting its cap comes from (duration_rule.hpp
// judges a lowered cap only when it stopped the loop).
// Tracking variables are chosen by segment INDEX into the template, resolved by the caller
// from typed keys (never by list position in a result: cf. TKperf's 4Kn bug).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/pts/segment.hpp>
#include <ptsuite/pts/steady_state.hpp>
#include <ptsuite/pts/step_executor.hpp>
#include <ptsuite/pts/window.hpp>
#include <ptsuite/results/round_phase.hpp>

namespace ptsuite::pts {

struct TrackingSpec {
  std::string name;          // "RND 4KiB 0/100 IOPS"
  size_t segment_index = 0;  // into RoundLoopSpec::segments
  Metric metric = Metric::iops;
};

struct RoundLoopSpec {
  std::string test;
  std::string phase;
  std::vector<SegmentSpec> segments;  // one Round, in spec order
  std::vector<TrackingSpec> tracking;
  // From pts/common.json through apply_round_rules() (test_procedure.hpp); run_rounds() refuses a
  // spec whose rules were never set (0), so no C++ default can stand in for the data.
  SteadyStateCriteria criteria;
  uint32_t first_check_round = 0;
  uint32_t max_rounds = 0;
  WindowStatistics window_statistics;  // window.art / window.mrt (window.hpp)
  // window.last_rounds (a disclosed deviation when not the steady-state window): the measurement
  // window is the last this-many Rounds run (DC500's "last 4 of 25"); 0 = criteria.window_rounds.
  // The steady-state verdict keeps its own window (criteria).
  uint32_t window_last_rounds = 0;
  // segment.warmup: every segment of the Round runs its stimulus this long, unmeasured, first.
  uint64_t segment_warmup_ns = 0;
  // false: every Round up to max_rounds runs even after steady state (a fixed preconditioning
  // such as ECW's 25 x 1 min); the window's verdict is then reported, never judged.
  bool stop_at_steady_state = true;
  std::string cap_setting = "max_rounds";  // the setting max_rounds came from
  // The conditioning kind: a loop of the test stimulus to steady state is a WDPC unless it says
  // otherwise ("precondition": a test-specific preconditioning; "": a measurement that
  // conditions nothing, such as rww-replay's replay of capture steps).
  std::string conditioning = "wdpc";
  bool health_each_round = true;
  // Runs before each Round (e.g. CBW's inter-round pre-write) and returns its record.
  std::function<nlohmann::json(uint32_t round)> before_round;
};

struct RoundRecord {
  uint32_t round = 0;
  std::vector<SegmentResult> segments;  // same order as the template
  nlohmann::json before_round;          // null when none
  nlohmann::json health;                // null when not taken
};

struct SteadyStateCheck {
  uint32_t round = 0;
  bool attained = false;
};

struct PhaseRecord {
  std::string phase;
  std::string conditioning;
  bool stop_at_steady_state = true;
  std::string cap_setting = "max_rounds";
  std::vector<SegmentSpec> segments;
  std::vector<TrackingSpec> tracking;
  SteadyStateCriteria criteria;
  uint32_t first_check_round = 0;
  uint32_t max_rounds = 0;
  std::vector<RoundRecord> rounds;
  std::vector<SteadyStateCheck> checks;
  SteadyStateResult steady_state;  // verdicts of the final window
  uint32_t window_first_round = 0;
  uint32_t window_last_round = 0;
  std::vector<stats::IoSummary> window;               // per template segment, aggregated over the window
  std::vector<results::LatencyMaxima> window_max_ns;  // per template segment: the window's largest

  [[nodiscard]] bool attained() const noexcept { return steady_state.attained; }
  [[nodiscard]] uint32_t rounds_run() const noexcept { return static_cast<uint32_t>(rounds.size()); }
  [[nodiscard]] std::vector<TrackingSeries> tracking_series() const;
};

PhaseRecord run_rounds(StepExecutor& exec, const RoundLoopSpec& spec);

// Step names used in the journal: "r003-s12", "r003-health", "r003-pre".
std::string round_step_name(uint32_t round, size_t segment_index);

// JSON: the phase as results.json stores it (results/round_phase.hpp, the one writer; to_json
// writes record_of()). Each tracking variable also carries a derived "display" object for
// reports, {"unit": "ms", "divisor": 1e6, "fit_formula": "..."}: its display unit, the divisor
// from the stored unit, and the least-squares fit of the final window in that unit (not read
// back by from_json, the strict reader `validate` uses on run directories).
results::RoundPhase record_of(const PhaseRecord& phase);
void to_json(nlohmann::json& j, const PhaseRecord& phase);
void from_json(const nlohmann::json& j, PhaseRecord& phase);

}  // namespace ptsuite::pts
