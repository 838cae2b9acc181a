// Contract: pts/common.json's steady-state rule for a revision and profile: the criteria
// (window, data and slope excursion), the first checked Round and the Round cap, read from the
// data so that no C++ default stands in for them. PTS Round loops take the same values through
// apply_round_rules() with the run's settings (--set max_rounds); scenario steady_state phases,
// which run no PTS test, take them from here.
#pragma once

#include <cstdint>

#include <ptsuite/pts/definitions.hpp>
#include <ptsuite/pts/steady_state.hpp>

namespace ptsuite::pts {

struct SteadyStateRule {
  SteadyStateCriteria criteria;
  uint32_t first_check_round = 0;
  uint32_t max_rounds = 0;
};

// The rule `defs` holds for `ctx`; throws Error when common.json lacks a value (a data defect).
SteadyStateRule common_steady_state_rule(const DefinitionSet& defs, const SpecContext& ctx);

// The embedded pts/ files' rule for the default context (computed once).
const SteadyStateRule& common_steady_state_rule();

}  // namespace ptsuite::pts
