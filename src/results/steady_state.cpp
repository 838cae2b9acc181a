#include <ptsuite/results/steady_state.hpp>

#include <ptsuite/results/json_read.hpp>
#include <ptsuite/results/series.hpp>

namespace ptsuite::results {

namespace {

nlohmann::json excursion_json(const ExcursionRecord& e) {
  return {{"measured", e.measured}, {"allowed", e.allowed}, {"ok", e.ok}};
}

ExcursionRecord read_excursion(const nlohmann::json& j) {
  return {num(at(j, "measured")), num(at(j, "allowed")), at(j, "ok") == true};
}

}  // namespace

void to_json(nlohmann::json& j, const SteadyStateCriteriaRecord& c) {
  j = {{"window_rounds", c.window_rounds},
       {"data_excursion_pct", c.data_excursion_pct},
       {"slope_excursion_pct", c.slope_excursion_pct}};
}

void to_json(nlohmann::json& j, const SteadyStateVerdictRecord& v) {
  j = {{"tracking_variable", v.tracking_variable},
       {"criteria", v.criteria},
       {"window",
        {{"first_round", v.window_first_round},
         {"last_round", v.window_last_round},
         {"rounds", v.window_rounds},
         {"values", v.window_values}}},
       {"average", v.average},
       {"fit", {{"slope", v.slope}, {"intercept", v.intercept}, {"formula", v.fit_formula}}},
       {"data_excursion", excursion_json(v.data_excursion)},
       {"slope_excursion", excursion_json(v.slope_excursion)},
       {"attained", v.attained},
       {"note", v.note},
       {"band",
        {{"low", v.band.low}, {"high", v.band.high}, {"low_pct", v.band.low_pct}, {"high_pct", v.band.high_pct}}}};
}

void to_json(nlohmann::json& j, const SteadyStateVerdicts& v) {
  j = {{"attained", v.attained}, {"variables", v.variables}};
}

SteadyStateCriteriaRecord read_steady_state_criteria(const nlohmann::json& criteria) {
  return {count32(at(criteria, "window_rounds")), num(at(criteria, "data_excursion_pct")),
          num(at(criteria, "slope_excursion_pct"))};
}

SteadyStateVerdictRecord read_steady_state_verdict(const nlohmann::json& verdict) {
  SteadyStateVerdictRecord v;
  v.tracking_variable = str(verdict, "tracking_variable");
  v.criteria = read_steady_state_criteria(at(verdict, "criteria"));
  const nlohmann::json& window = at(verdict, "window");
  v.window_first_round = count32(at(window, "first_round"));
  v.window_last_round = count32(at(window, "last_round"));
  v.window_rounds = counts32(at(window, "rounds"));
  v.window_values = read_numbers(at(window, "values"));
  v.average = num(at(verdict, "average"));
  v.slope = num(at(verdict, {"fit", "slope"}));
  v.intercept = num(at(verdict, {"fit", "intercept"}));
  v.fit_formula = str(at(verdict, {"fit", "formula"}));
  v.data_excursion = read_excursion(at(verdict, "data_excursion"));
  v.slope_excursion = read_excursion(at(verdict, "slope_excursion"));
  v.attained = at(verdict, "attained") == true;
  v.note = str(verdict, "note");
  const nlohmann::json& band = at(verdict, "band");
  v.band = {num(at(band, "low")), num(at(band, "high")), num(at(band, "low_pct")), num(at(band, "high_pct"))};
  return v;
}

SteadyStateVerdicts read_steady_state_verdicts(const nlohmann::json& verdicts) {
  SteadyStateVerdicts v;
  v.attained = at(verdicts, "attained") == true;
  for (const nlohmann::json& variable : array(verdicts, "variables")) {
    v.variables.push_back(read_steady_state_verdict(variable));
  }
  return v;
}

}  // namespace ptsuite::results
