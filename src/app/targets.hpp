// Private to app: the targets of an application run, gated and identified before anything is
// written (app/app_runner.hpp steps 3 and 4), and the scratch loop devices when none is given.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/app/app_runner.hpp>
#include <ptsuite/app/definition.hpp>
#include <ptsuite/device/target_gate.hpp>
#include <ptsuite/engine/scratch_target.hpp>

namespace ptsuite::app::detail {

struct PreparedTarget {
  std::string path;
  std::string kind;  // "scratch loop device (...)", "block device"
  nlohmann::json identity;
  std::optional<engine::ScratchTarget> scratch;  // owned: detached when the run ends
  device::TargetGuard guard;                     // ptsuite's lock on the target for the whole run
};

// Scratch size: room for the data three times over (tables, indexes, WAL / redo, free space
// for the filesystem), at least 2 GiB. tmpfs only uses what is written.
uint64_t scratch_bytes(const AppConfig& config);

// Gates and identifies the given targets (throws SafetyRefusal / UsageError), or creates the
// scratch devices. Writes nothing to any device.
std::vector<PreparedTarget> prepare_targets(const AppRunRequest& request, const AppConfig& config);

}  // namespace ptsuite::app::detail
