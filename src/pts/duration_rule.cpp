#include <ptsuite/pts/duration_rule.hpp>

#include <fmt/format.h>

#include <ptsuite/results/json_read.hpp>
#include <ptsuite/results/test_kinds.hpp>
#include <ptsuite/results/test_record.hpp>

namespace ptsuite::pts {

namespace {

std::string text_of(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

}  // namespace

bool round_cap_stopped(const nlohmann::json& test_record) {
  return round_cap_stopped(results::read_test_record(test_record));
}

// A loop whose record lacks its counts reads 0 of 0 Rounds: judged as stopped by its cap, so a
// missing field never turns a lowered cap into a mere disclosure.
bool round_cap_stopped(const results::TestRecord& test_record) {
  for (const results::RoundPhase& phase : test_record.phases) {
    if (!phase.steady_state.attained && phase.steady_state.rounds_run >= phase.steady_state.max_rounds) {
      return true;
    }
  }
  const auto* wsat = results::own_block(results::test_kind::wsat{}, test_record);
  return wsat != nullptr && wsat->steady_state && !wsat->steady_state->attained &&
         wsat->steady_state->rounds >= wsat->steady_state->max_rounds;
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
