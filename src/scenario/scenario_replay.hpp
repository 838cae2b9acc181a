// Private to the scenario module: a `replay` phase's work (docs/scenarios.md, docs/replay.md).
// check_replay() reads the capture before anything is written (exit 2 naming the field);
// replay_on_targets() replays it on every target at once, each with its own seed, and fills
// `replays` with {target, replay} per target before it throws for a replay that was interrupted
// (ExitCode::interrupted) or stopped by an IO error (ExitCode::io_error). scenario_runner.cpp
// keeps the journal and the phase document.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/engine/target.hpp>
#include <ptsuite/scenario/scenario.hpp>
#include <ptsuite/scenario/scenario_runner.hpp>

namespace ptsuite::scenario::detail {

// The capture readable, with reads or writes, its largest IO within every target.
void check_replay(const PhaseSpec& p, const std::vector<engine::TargetGeometry>& targets);

// seeds[t]: target t's replay seed.
void replay_on_targets(const PhaseSpec& p, const std::vector<ScenarioTarget>& targets, const ScenarioRunOptions& o,
                       const std::vector<uint64_t>& seeds, nlohmann::json& replays,
                       const std::function<void(const std::string&)>& message);

}  // namespace ptsuite::scenario::detail
