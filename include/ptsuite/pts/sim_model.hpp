// Contract: the simulated drives' models as data. Each model is pts/sim/<name>.json (embedded
// like the rest of pts/): a "format": "ptsuite-sim-model/1" object whose "parameters" map
// every engine::SimModel field to {"value": ..., "source": "where the number came from"}.
// load_sim_model() reads one by name; a missing model is a UsageError("sim.model") that lists
// the models there are; a parameter without its value or its source, or an unknown parameter,
// is a data defect (exit 5) naming the file and the parameter, so no number enters a model
// without saying where it came from.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/engine/sim_device.hpp>

namespace ptsuite::pts {

// Names of the models in pts/sim/, sorted.
std::vector<std::string> sim_model_names();

engine::SimModel load_sim_model(std::string_view name);

// The same from a parsed file (`path` names it in errors).
engine::SimModel sim_model_from_json(const nlohmann::json& file, std::string_view name, std::string_view path);

}  // namespace ptsuite::pts
