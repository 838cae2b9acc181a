// Gating, identifying and creating the targets of an application run (targets.hpp).
#include "app/targets.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

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

namespace {

PreparedTarget gate(const std::string& path, const AppRunRequest& request) {
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
    if (request.instances > 1 && request.instances != request.targets.size()) {
      throw UsageError("--instances", fmt::format("{} instances on {} targets: give one target per instance (a "
                                                  "partition or namespace each), or no target for scratch devices",
                                                  request.instances, request.targets.size()));
    }
    for (const std::string& path : request.targets) {
      for (const PreparedTarget& seen : out) {
        if (seen.path == path) throw UsageError("--target", fmt::format("{} is given twice", path));
      }
      out.push_back(gate(path, request));
    }
    return out;
  }
  if (const std::string why = engine::LoopDevice::unavailable_reason(); !why.empty()) {
    throw SystemError(fmt::format("an app run without --target needs scratch loop devices: {}", why));
  }
  const uint32_t n = std::max<uint32_t>(1, request.instances);
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
