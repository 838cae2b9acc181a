// Private to src/scenario: the targets of a scenario run (scenario_run.hpp): each opened
// through the target gate with its own device session and O_DIRECT open, or a scratch target
// made for the run; released for an app phase and taken again after it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/device/session.hpp>
#include <ptsuite/device/target_gate.hpp>
#include <ptsuite/engine/scratch_target.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/scenario/scenario_run.hpp>
#include <ptsuite/scenario/scenario_runner.hpp>

namespace ptsuite::scenario::detail {

// One opened target: its scratch backing (if ours), session and O_DIRECT target.
struct OpenTarget {
  std::optional<engine::ScratchTarget> scratch;
  device::TargetGuard guard;  // ptsuite's lock on the target, released after the session and target
  std::unique_ptr<device::DeviceSession> session;
  std::optional<engine::Target> target;
  nlohmann::json identity;  // the session's identity with "path" and "scratch"
};

// The session (gate, identity, claim) and the O_DIRECT open of `path`.
void open_device(OpenTarget& t, const std::string& path, const ScenarioRunConfig& c, bool scratch);
// config.targets, or `needed` scratch targets when none are given; each passes the command's
// output gate as a target first (no output may land on it).
std::vector<std::unique_ptr<OpenTarget>> open_targets(const ScenarioRunConfig& c, uint32_t needed,
                                                      device::OutputGate& outputs);
// Each target with its own --confirm-serial (the one equal to its serial). When the scenario
// purges, every real drive must be confirmed before anything runs: a refusal at the second
// target's purge would come after the first was already erased.
std::vector<ScenarioTarget> runner_targets(const Scenario& s, const ScenarioRunConfig& c,
                                           const std::vector<std::unique_ptr<OpenTarget>>& opened);
// Every phase resolved against the opened targets before anything is written (exit 2).
void check_against_targets(const Scenario& s, const ScenarioRunConfig& c,
                           const std::vector<std::unique_ptr<OpenTarget>>& opened);

}  // namespace ptsuite::scenario::detail
