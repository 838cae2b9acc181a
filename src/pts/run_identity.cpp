// Run ids and the identity a run's target was named by (pts/run_identity.hpp).
#include "pts/run_identity.hpp"

#include <fmt/format.h>

#include <ptsuite/device/identity.hpp>
#include <ptsuite/pts/run.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/printable.hpp>
#include <ptsuite/util/sha256.hpp>
#include <ptsuite/util/text.hpp>

namespace ptsuite::pts::detail {

std::string make_run_uid(const nlohmann::json& identity, const std::string& host, const std::string& nonce) {
  return sha256_hex(device::identity_fingerprint(identity).dump() + "\n" + host + "\n" + nonce).substr(0, 32);
}

namespace {

bool same_serial(const std::string& reported, const std::string& named) {
  const std::string r(trim(reported));
  return r == named || device::normalize_serial(r) == device::normalize_serial(named);
}

void check_asset_serial(const device::ResolvedTarget& named, device::DeviceIdentity& identity,
                        const RunConfig& config) {
  if (!named.asset && config.asset_serial.empty()) {
    return;
  }
  const std::string reported(trim(identity.serial));
  if (!reported.empty()) {
    if (!config.asset_serial.empty()) {
      throw UsageError("--asset-serial", fmt::format("{} reports serial {}; --asset-serial names a device that "
                                                     "reports none",
                                                     identity.path, printable(reported)));
    }
    throw SafetyRefusal(
        fmt::format("refusing {}: the asset registry names it {}, but it reports serial {} (the "
                    "device behind the registry's path was replaced)",
                    identity.path, printable(named.serial), printable(reported)));
  }
  if (named.asset && !config.asset_serial.empty() && config.asset_serial != named.serial) {
    throw UsageError("--asset-serial", fmt::format("the asset registry names {} {}, not {}", identity.path,
                                                   printable(named.serial), printable(config.asset_serial)));
  }
  identity.asset_serial = config.asset_serial.empty() ? named.serial : config.asset_serial;
}

}  // namespace

std::optional<std::string> check_named_identity(const device::ResolvedTarget& named, device::DeviceIdentity& identity,
                                                const RunConfig& config) {
  check_asset_serial(named, identity, config);
  if (named.by_serial && !named.asset && !same_serial(identity.serial, named.serial)) {
    throw SafetyRefusal(
        fmt::format("refusing {}: it was found as serial {}, but identifies as serial {}; "
                    "nothing was written",
                    identity.path, printable(named.serial), printable(identity.serial)));
  }
  if (!named.by_serial || named.asset) {
    return config.confirm_serial;
  }
  if (config.confirm_serial && !same_serial(*config.confirm_serial, named.serial)) {
    throw UsageError("--confirm-serial", fmt::format("{} does not match the serial the target names ({})",
                                                     printable(*config.confirm_serial), printable(named.serial)));
  }
  return identity.serial;  // serial:SERIAL is the confirmation (purge compares it exactly)
}

}  // namespace ptsuite::pts::detail
