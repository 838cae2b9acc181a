// Private to `ptsuite scenario`: the plan as the console prints it (`scenario plan`, and first
// in `scenario run`) and the ETA line after each finished step (scenario/scenario_plan.hpp).
#pragma once

#include <cstdint>
#include <string>

#include <ptsuite/scenario/scenario_plan.hpp>

namespace ptsuite::cli {

// Every step with its warm-up and duration and the finish time from `start` (worst case), then
// the total; `targets` only names how many instances each stream runs.
std::string scenario_plan_text(const scenario::Scenario& s, const scenario::ScenarioPlan& plan, size_t targets);
// The one-line form `scenario run` prints before it starts: steps, total, untimed phases.
std::string scenario_plan_summary(const scenario::ScenarioPlan& plan);
// "(step 3 of 87; about 41 min left, ETA 19:42 UTC)" after the step `key` finished.
std::string scenario_eta_text(const scenario::ScenarioPlan& plan, const std::string& key, uint64_t now_unix_s);

}  // namespace ptsuite::cli
