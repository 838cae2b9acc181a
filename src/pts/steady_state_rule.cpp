#include <ptsuite/pts/steady_state_rule.hpp>

#include <string>

namespace ptsuite::pts {

using nlohmann::json;

SteadyStateRule common_steady_state_rule(const DefinitionSet& defs, const SpecContext& ctx) {
  const json& ss = defs.common().at("steady_state");
  const auto value = [&](const char* name) {
    return DefinitionSet::resolve_field(ss.at(name), ctx, std::string("common/steady_state/") + name).value;
  };
  SteadyStateRule rule;
  rule.criteria.window_rounds = value("window_rounds").get<uint32_t>();
  rule.criteria.data_excursion_pct = value("data_excursion_pct").get<double>();
  rule.criteria.slope_excursion_pct = value("slope_excursion_pct").get<double>();
  rule.first_check_round = value("first_check_round").get<uint32_t>();
  rule.max_rounds = value("max_rounds").get<uint32_t>();
  return rule;
}

const SteadyStateRule& common_steady_state_rule() {
  static const SteadyStateRule k_rule = common_steady_state_rule(DefinitionSet::embedded(), SpecContext{});
  return k_rule;
}

}  // namespace ptsuite::pts
