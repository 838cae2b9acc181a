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
// What one scratch instance may put in RAM: what it writes to its file in /dev/shm (3x the data
// estimate: tables and indexes, WAL / redo, growth; plus the filesystem's metadata made at mkfs,
// at most 1/32 of the device: ext4's inode tables are 1/64 and its journal 1/64 or less) and,
// beside it, its server's memory limit.
uint64_t scratch_ram_bytes(const AppConfig& config);

// The request against the host, before anything exists (UsageError naming the option):
// --instances from 1 to k_max_instances, and as many as the targets when both are given;
// scratch instances' scratch_ram_bytes() within MemAvailable and their files within /dev/shm's
// free space.
void check_request(const AppRunRequest& request, const AppConfig& config);

// Gates and identifies the given targets (throws SafetyRefusal / UsageError), or creates the
// scratch devices. Writes nothing to any device.
std::vector<PreparedTarget> prepare_targets(const AppRunRequest& request, const AppConfig& config);

}  // namespace ptsuite::app::detail
