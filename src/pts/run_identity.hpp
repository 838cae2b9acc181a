// Private to the run layer: who a run is and what it runs on (docs/history.md "Run ids",
// docs/fleet.md). make_run_uid() draws the id of a new run; check_named_identity() holds the
// identified device to the name the run was given (--target serial:SERIAL implies the serial
// check) and to --asset-serial.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/device/drives.hpp>
#include <ptsuite/device/identity.hpp>
#include <ptsuite/pts/run_config.hpp>

namespace ptsuite::pts::detail {

// The run's id: the first 32 hex digits of SHA-256 over the medium's identity (identity_
// fingerprint(): serial, WWN/EUI-64/NGUID, model, capacity; a file's or loop device's backing
// st_dev + st_ino), the host and `nonce` (random_hex(16): 128 random bits). Two runs started in
// the same second on serial-less targets of one host differ by their nonces.
std::string make_run_uid(const nlohmann::json& identity, const std::string& host, const std::string& nonce);

// The identified device against its name: a drive named by serial:SERIAL must report that
// serial (compared exactly, else after device::normalize_serial) or, named through the asset
// registry, report none; --asset-serial is only for a device that reports none, and must agree
// with the registry's name. Fills identity.asset_serial. Returns the serial a purge of a real
// drive must confirm (--confirm-serial, or the serial the target was named by); a
// --confirm-serial other than that serial is a UsageError. SafetyRefusal (exit 3) when the
// device is not the one named.
std::optional<std::string> check_named_identity(const device::ResolvedTarget& named, device::DeviceIdentity& identity,
                                                const RunConfig& config);

}  // namespace ptsuite::pts::detail
