// Contract: a steady-state determination as results.json records it (results schema
// "#/$defs/steady_state_verdict" and "steady_state_result"; PTS 2.0.2 §2.1.24, docs/
// steady-state.md): per tracking variable the criteria, the measurement window's rounds and
// values, the average, the least-squares fit, the measured and allowed data and slope
// excursions, the verdict and, derived for the report, the data-excursion band drawn on the
// window plot (average +- half the allowed excursion; 90 % .. 110 % with the PTS 20 %).
// pts computes it (pts/steady_state.hpp) and writes it through to_json() here (record_of());
// reporters read it with read_steady_state_verdicts(), tolerant like every results reader:
// missing numbers read NaN, missing verdict flags false.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ptsuite::results {

struct SteadyStateCriteriaRecord {
  uint32_t window_rounds = 0;      // PTS: 5
  double data_excursion_pct = 0;   // PTS: 20
  double slope_excursion_pct = 0;  // PTS: 10
};

struct ExcursionRecord {
  double measured = 0;
  double allowed = 0;
  bool ok = false;
};

// The band on the measurement-window plot, in the tracking variable's stored unit.
struct ExcursionBand {
  double low = 0;
  double high = 0;
  double low_pct = 0;   // 100 - data_excursion_pct / 2
  double high_pct = 0;  // 100 + data_excursion_pct / 2
};

struct SteadyStateVerdictRecord {
  std::string tracking_variable;  // "RND 4KiB 0/100 IOPS"
  SteadyStateCriteriaRecord criteria;
  uint32_t window_first_round = 0;
  uint32_t window_last_round = 0;
  std::vector<uint32_t> window_rounds;
  std::vector<double> window_values;
  double average = 0;
  double slope = 0;
  double intercept = 0;
  std::string fit_formula;  // in the stored unit
  ExcursionRecord data_excursion;
  ExcursionRecord slope_excursion;
  bool attained = false;
  std::string note;  // why it was not evaluated, or ""
  ExcursionBand band;
};

// Every tracking variable of one determination (all must attain).
struct SteadyStateVerdicts {
  bool attained = false;
  std::vector<SteadyStateVerdictRecord> variables;
};

void to_json(nlohmann::json& j, const SteadyStateCriteriaRecord& c);
void to_json(nlohmann::json& j, const SteadyStateVerdictRecord& v);
void to_json(nlohmann::json& j, const SteadyStateVerdicts& v);
SteadyStateCriteriaRecord read_steady_state_criteria(const nlohmann::json& criteria);
SteadyStateVerdictRecord read_steady_state_verdict(const nlohmann::json& verdict);
SteadyStateVerdicts read_steady_state_verdicts(const nlohmann::json& verdicts);

}  // namespace ptsuite::results
