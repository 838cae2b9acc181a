#include <ptsuite/pts/duration_rule.hpp>

#include <fmt/format.h>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::pts {

namespace {

std::string text_of(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// A loop record without its counts is judged as stopped by its cap: a missing field must not
// turn a lowered cap into a mere disclosure.
bool loop_stopped_at_cap(const nlohmann::json& ss, const char* rounds_key) {
  const nlohmann::json& rounds = results::at(ss, rounds_key);
  const nlohmann::json& cap = results::at(ss, "max_rounds");
  const nlohmann::json& attained = results::at(ss, "attained");
  if (!rounds.is_number() || !cap.is_number() || !attained.is_boolean()) {
    return true;
  }
  return !attained.get<bool>() && rounds.get<double>() >= cap.get<double>();
}

}  // namespace

bool round_cap_stopped(const nlohmann::json& test_record) {
  for (const nlohmann::json& phase : results::array(test_record, "phases")) {
    if (loop_stopped_at_cap(results::at(phase, "steady_state"), "rounds_run")) {
      return true;
    }
  }
  const nlohmann::json& wsat = results::at(test_record, {"wsat", "steady_state"});
  return wsat.is_object() && loop_stopped_at_cap(wsat, "rounds");
}

DurationFinding judge_time_scaling(const SettingRecord& r, bool cap_stopped) {
  const double value = setting_magnitude(r.type, r.value);
  const double floor = setting_magnitude(r.type, r.floor);
  const double spec = setting_magnitude(r.type, r.default_value);
  if (value < floor) {
    if (r.name == "max_rounds" && !cap_stopped) {
      return {DurationJudgement::cap_unused,
              "the lowered Round cap never stopped a Round loop (steady state came first): the run is the one a "
              "default cap gives"};
    }
    const bool own_floor = r.floor != r.default_value;
    return {DurationJudgement::shortened, own_floor ? fmt::format("below {}, the lowest value a cited source uses ({})",
                                                                  text_of(r.floor), r.floor_source)
                                                    : "below the spec value"};
  }
  if (value > spec) {
    if (r.raised_is_deviation) {
      return {DurationJudgement::deviation, "the spec fixes this length: a longer one is a deviation"};
    }
    return {DurationJudgement::longer, "longer than the spec"};
  }
  return {DurationJudgement::unverified_at_floor,
          fmt::format("an unverified value at or above its floor {} ({})", text_of(r.floor),
                      r.floor_source.empty() ? "the default" : r.floor_source)};
}

}  // namespace ptsuite::pts
