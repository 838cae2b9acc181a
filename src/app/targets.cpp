// Gating, identifying and creating the targets of an application run (targets.hpp).
#include "app/targets.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <fstream>

#include <ptsuite/device/identity.hpp>
#include <ptsuite/device/purge.hpp>
#include <ptsuite/device/session.hpp>
#include <ptsuite/device/target_gate.hpp>
#include <ptsuite/engine/loop_device.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::app::detail {

uint64_t scratch_bytes(const AppConfig& config) {
  const uint64_t wanted = config.estimated_data_bytes() * 3 + units::k_gib;
  return std::max<uint64_t>(2 * units::k_gib, (wanted + units::k_gib - 1) / units::k_gib * units::k_gib);
}

uint64_t scratch_ram_bytes(const AppConfig& config) {
  return config.estimated_data_bytes() * 3 + scratch_bytes(config) / 32 + config.memory_limit_bytes;
}

namespace {

// /proc/meminfo's MemAvailable (the kernel's estimate of what can be used without swapping);
// 0 when it cannot be read (then the check is left to the kernel).
uint64_t memory_available_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * units::k_kib;
  }
  return 0;
}

void check_scratch_resources(const AppConfig& config, uint32_t instances) {
  const uint64_t ram = scratch_ram_bytes(config) * instances;
  const uint64_t available = memory_available_bytes();
  const std::string what = fmt::format("{} scratch instance(s) of {}", instances, config.definition.name);
  if (available != 0 && ram > available) {
    throw UsageError("--instances",
                     fmt::format("{} need about {} of RAM (the database written to /dev/shm and each "
                                 "server's memory limit), and {} is available: give a smaller "
                                 "database (--set), fewer instances, or --target",
                                 what, units::format_size_human(ram), units::format_size_human(available)));
  }
  struct statvfs shm {};
  if (::statvfs("/dev/shm", &shm) == 0) {
    const uint64_t free_bytes = static_cast<uint64_t>(shm.f_bavail) * shm.f_frsize;
    const uint64_t written = (scratch_ram_bytes(config) - config.memory_limit_bytes) * instances;
    if (written > free_bytes) {
      throw UsageError("--instances",
                       fmt::format("{} write about {} to /dev/shm, which has {} free: give a smaller "
                                   "database (--set), fewer instances, or --target",
                                   what, units::format_size_human(written), units::format_size_human(free_bytes)));
    }
  }
}

}  // namespace

void check_request(const AppRunRequest& request, const AppConfig& config) {
  if (request.instances && (*request.instances == 0 || *request.instances > k_max_instances)) {
    throw UsageError("--instances",
                     fmt::format("{} is outside 1 to {} (docs/app.md)", *request.instances, k_max_instances));
  }
  if (!request.targets.empty()) {
    if (request.instances && *request.instances != request.targets.size()) {
      throw UsageError("--instances", fmt::format("{} instances on {} targets: give one target per instance (a "
                                                  "partition or namespace each), or no target for scratch devices",
                                                  *request.instances, request.targets.size()));
    }
    if (request.targets.size() > k_max_instances) {
      throw UsageError("--target", fmt::format("{} targets: at most {} instances (docs/app.md)", request.targets.size(),
                                               k_max_instances));
    }
    return;
  }
  check_scratch_resources(config, request.instances.value_or(1));
}

namespace {

PreparedTarget gate(const std::string& path, const AppRunRequest& request, const AppConfig& config) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) {
    throw UsageError("--target", fmt::format("{} is not a block device: an app run makes a filesystem on a block "
                                             "device (partition, namespace, disk)",
                                             path));
  }
  // The target gate (mounted, swap, holders, loop devices over it, another ptsuite; consent),
  // then identity and claim.
  device::TargetGuard guard =
      device::pass_target_gate({path, device::TargetAccess::read_write, request.allow_destructive, "app"});
  device::SessionOptions options;
  options.allow_destructive = request.allow_destructive;
  auto session = device::DeviceSession::open(guard.writable(), options);
  const device::DeviceIdentity& id = session->identity();
  std::optional<std::string> confirm;
  for (const std::string& serial : request.confirm_serials) {
    if (!id.serial.empty() && serial == id.serial) confirm = serial;
  }
  // mkfs destroys the drive's data as a purge does: the same confirmation for real drives.
  if (id.is_real_drive()) device::require_serial_confirmation(id, confirm);
  // The database and as much again (WAL / redo, the filesystem's metadata and free space) must
  // fit, or the load fails hours into the run.
  check_capacity(config, path, id.capacity_bytes);
  PreparedTarget t;
  t.path = path;
  t.kind = "block device";
  t.identity = id;
  t.guard = std::move(guard);
  return t;  // the session's claim ends here; mkfs and mount follow at once
}

}  // namespace

std::vector<PreparedTarget> prepare_targets(const AppRunRequest& request, const AppConfig& config) {
  std::vector<PreparedTarget> out;
  if (!request.targets.empty()) {
    for (const std::string& path : request.targets) {
      for (const PreparedTarget& seen : out) {
        if (seen.path == path) throw UsageError("--target", fmt::format("{} is given twice", path));
      }
      out.push_back(gate(path, request, config));
    }
    return out;
  }
  if (const std::string why = engine::LoopDevice::unavailable_reason(); !why.empty()) {
    throw SystemError(fmt::format("an app run without --target needs scratch loop devices: {}", why));
  }
  const uint32_t n = request.instances.value_or(1);
  for (uint32_t i = 0; i < n; ++i) {
    PreparedTarget t;
    t.scratch = engine::ScratchTarget::create(scratch_bytes(config), true);
    if (t.scratch->kind() != engine::ScratchKind::loop_device) {
      throw SystemError("an app run needs a loop device as its scratch target: " + t.scratch->description());
    }
    t.path = t.scratch->path();
    t.guard = device::pass_target_gate({t.path, device::TargetAccess::read_write, true, "app"});
    t.kind = "scratch " + t.scratch->description();
    t.identity = device::identify(t.path);
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace ptsuite::app::detail
