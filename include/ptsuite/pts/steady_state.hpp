// Contract: the PTS steady-state test (SSS PTS 2.0.2 definition 2.1.24; reference section 2.5),
// as pure functions over a series of per-round values of a tracking variable (IOPS, MB/s or
// average response time). Thread-safe, no IO. Callers: the round runner after every completed
// round, reporters, and `ptsuite steady-state` (an auditor re-checking a report).
//
// Rule, over the measurement window = the LAST `window_rounds` points (PTS: 5, rounds x-4..x):
//   (a) data excursion   max(y) - min(y)                  <= data_excursion_pct  % of avg(y)
//   (b) slope excursion  range of the least-squares line  <= slope_excursion_pct % of avg(y)
//       over the window = |slope| * (x_last - x_first), which is |slope| * (n - 1) for the
//       consecutive rounds the PTS uses.
//   Steady state is attained when (a) AND (b) hold; with several tracking variables (the
//   PTS 2.0 IOPS test has three), when every one of them attains it.
// "<=" is inclusive: a measured excursion equal to the allowed one passes. To keep that true
// after floating-point rounding, a measured value passes when it exceeds the allowed value by
// at most k_limit_relative_tolerance of it (see steady_state.cpp for the derivation).
//
// Input rules (violations throw ptsuite::UsageError naming the field): rounds and values have
// the same length; rounds strictly increase; values are finite and >= 0 (every PTS tracking
// variable is); window_rounds >= 2 (a slope needs two points); percentages finite and >= 0.
// Fewer points than window_rounds is not an error: the verdict is "not attained" with a note.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <ptsuite/results/steady_state.hpp>

namespace ptsuite::pts {

struct SteadyStateCriteria {
  uint32_t window_rounds = 5;       // PTS: 5 rounds
  double data_excursion_pct = 20;   // PTS 2.0.2: 20 % of the window average
  double slope_excursion_pct = 10;  // PTS 2.0.2: 10 % of the window average

  friend bool operator==(const SteadyStateCriteria&, const SteadyStateCriteria&) = default;
};

// Relative slack on "measured <= allowed" that absorbs floating-point rounding only.
inline constexpr double k_limit_relative_tolerance = 1e-9;

// Least-squares line y = slope * x + intercept through (rounds[i], values[i]).
struct LinearFit {
  double slope = 0;
  double intercept = 0;

  friend bool operator==(const LinearFit&, const LinearFit&) = default;
};

// Requires >= 2 points with at least two distinct rounds (UsageError otherwise).
LinearFit least_squares_fit(std::span<const uint32_t> rounds, std::span<const double> values);

// "-6.4*R + 11746", "0.5*R - 3": coefficients with >= 4 significant digits and >= 2 decimals,
// trailing zeros trimmed (format_number below).
std::string format_fit(const LinearFit& fit);

// The number formatting of verdicts: max(2, digits for 4 significant digits) decimals, trailing
// zeros trimmed: 11726.8, 2345.36, 25.6, 0.001234, 11746.
std::string format_number(double value);

struct SteadyStateVerdict {
  std::string tracking_variable;  // e.g. "RND 4KiB 0/100 IOPS"
  SteadyStateCriteria criteria;
  uint32_t window_first_round = 0;
  uint32_t window_last_round = 0;
  std::vector<uint32_t> window_rounds;  // the rounds evaluated (all points when fewer than the window)
  std::vector<double> window_values;
  double average = 0;
  double slope = 0;
  double intercept = 0;
  std::string fit_formula;             // format_fit() of slope/intercept
  double data_excursion = 0;           // max - min
  double allowed_data_excursion = 0;   // data_excursion_pct / 100 * average
  double slope_excursion = 0;          // |slope| * (window_last_round - window_first_round)
  double allowed_slope_excursion = 0;  // slope_excursion_pct / 100 * average
  bool data_ok = false;
  bool slope_ok = false;
  bool attained = false;
  std::string note;  // why it was not evaluated, or "" (e.g. "3 rounds; the window needs 5")

  friend bool operator==(const SteadyStateVerdict&, const SteadyStateVerdict&) = default;
};

// Evaluates the LAST criteria.window_rounds points of the series.
SteadyStateVerdict evaluate_window(std::string_view tracking_variable, std::span<const uint32_t> rounds,
                                   std::span<const double> values, const SteadyStateCriteria& criteria = {});

// The first window of the series that attains steady state: the verdict of the shortest prefix
// whose last window passes (its window_last_round is the round where SS was first reached), or
// nullopt when no window does. For auditors: a run may have continued past the first attaining
// round, or a report may claim a round the data does not support.
std::optional<SteadyStateVerdict> first_attained_window(std::string_view tracking_variable,
                                                        std::span<const uint32_t> rounds,
                                                        std::span<const double> values,
                                                        const SteadyStateCriteria& criteria = {});

// Several tracking variables judged together (PTS 2.0 IOPS: all three must pass).
struct TrackingSeries {
  std::string name;
  std::vector<uint32_t> rounds;
  std::vector<double> values;
};

struct SteadyStateResult {
  std::vector<SteadyStateVerdict> variables;  // in the order given
  bool attained = false;                      // every variable attained (false when none given)

  friend bool operator==(const SteadyStateResult&, const SteadyStateResult&) = default;
};

SteadyStateResult evaluate_all(std::span<const TrackingSeries> series, const SteadyStateCriteria& criteria = {});

// The verdict as the report and `ptsuite steady-state` print it (multi-line, ends in '\n'):
// criteria, window rounds and values, average, fit, measured vs allowed excursions, and
// "ATTAINED" / "NOT ATTAINED".
std::string format_verdict_text(const SteadyStateVerdict& verdict);

// JSON (nlohmann, found by ADL):
//   {"tracking_variable": "...", "criteria": {"window_rounds": 5, "data_excursion_pct": 20,
//    "slope_excursion_pct": 10}, "window": {"first_round": 1, "last_round": 5,
//    "rounds": [...], "values": [...]}, "average": 11726.8,
//    "fit": {"slope": -6.4, "intercept": 11746, "formula": "-6.4*R + 11746"},
//    "data_excursion": {"measured": 300, "allowed": 2345.36, "ok": true},
//    "slope_excursion": {"measured": 25.6, "allowed": 1172.68, "ok": true},
//    "attained": true, "note": ""}
// plus the derived "band" (results/steady_state.hpp: the one writer; to_json writes record_of()).
// from_json throws UsageError naming the missing or mistyped field.
results::SteadyStateCriteriaRecord record_of(const SteadyStateCriteria& criteria);
results::SteadyStateVerdictRecord record_of(const SteadyStateVerdict& verdict);
results::SteadyStateVerdicts record_of(const SteadyStateResult& result);
void to_json(nlohmann::json& j, const SteadyStateCriteria& criteria);
void from_json(const nlohmann::json& j, SteadyStateCriteria& criteria);
void to_json(nlohmann::json& j, const SteadyStateVerdict& verdict);
void from_json(const nlohmann::json& j, SteadyStateVerdict& verdict);
void to_json(nlohmann::json& j, const SteadyStateResult& result);
void from_json(const nlohmann::json& j, SteadyStateResult& result);

}  // namespace ptsuite::pts
