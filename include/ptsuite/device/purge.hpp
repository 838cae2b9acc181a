// Contract: purging the device under test (PTS 2.0.x purge before every test, see
// docs/device.md) and the record of how it was done.
//
// purge(path, options) is the one entry point for real devices. In order, with nothing sent
// to the device before the last step:
//   1. the safety gate (device/safety.hpp) and --allow-destructive (required for every
//      target, files included) -> SafetyRefusal, exit 3;
//   2. identify(path) (read-only);
//   3. a real drive (not loop / zram / file) needs options.confirm_serial equal to the
//      identified serial -> SafetyRefusal;
//   4. the method: `auto` picks the best the device supports (NVMe sanitize block erase >
//      Format NVM SES=1 > sanitize crypto erase; ATA sanitize block erase > enhanced / normal
//      security erase > sanitize crypto scramble; SCSI SANITIZE block erase > FORMAT UNIT;
//      with none, the fallbacks secure-discard > discard > zero-fill, recorded as NOT a PTS
//      purge). An explicit method the device lacks -> UsageError (exit 2); device states that
//      forbid it (ATA security frozen / locked / password already set, sanitize frozen) ->
//      SafetyRefusal with advice;
//   5. the device is opened through open_destructive_channel (gate again + O_EXCL) and the
//      method runs, reporting progress; long operations poll until done or the timeout.
// The returned PurgeRecord says what happened; outcome != succeeded is a device failure
// (the CLI exits 5 with the record's last message). Invariants the tests prove with fakes:
// Format NVM never uses SES=0 and keeps the current LBA format; an ATA security erase never
// leaves the temporary password set without saying so (it tries SECURITY DISABLE PASSWORD
// on every failure and reports the drive's final security state and the password).
//
// purge_via() runs steps 4-5 on a given channel (fakes in tests); callers other than purge()
// must have passed the gate themselves (open_destructive_channel does that).
// Not thread-safe per device; progress callbacks run on the calling thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <ptsuite/device/identity.hpp>
#include <ptsuite/device/passthrough.hpp>
#include <ptsuite/device/safety.hpp>
#include <ptsuite/results/purge.hpp>

namespace ptsuite::device {

enum class PurgeMethod {
  auto_select,
  nvme_format,
  nvme_sanitize_block,
  nvme_sanitize_crypto,
  nvme_sanitize_overwrite,
  ata_security_erase,
  ata_sanitize_block,
  ata_sanitize_crypto,
  scsi_sanitize,
  scsi_format,
  secure_discard,
  discard,
  zero_fill,
};

std::string to_string(PurgeMethod m);                   // "nvme-sanitize-block", "zero-fill", "auto"
PurgeMethod parse_purge_method(std::string_view text);  // UsageError("--method", ...)
std::vector<std::string> purge_method_names();
// What a run accepts as a PTS purge where the spec reference leaves it open (both are named,
// disclosed settings of the PTS layer, pts/common.json "purge"):
//   * auto_may_sanitize (purge.accept_nvme_sanitize, [U]: whether the 2.0 text names NVMe
//     Sanitize): when false, `auto` never picks an NVMe Sanitize action (Format NVM instead);
//   * overwrite_is_purge (purge.accept_nvme_sanitize_overwrite, default false): an overwrite
//     sanitize leaves every LBA written, which is not the fresh-out-of-box state §2.1 asks for,
//     so it counts as a PTS purge only when this says so. `auto` never picks it either way.
struct PurgePolicy {
  bool auto_may_sanitize = true;
  bool overwrite_is_purge = false;
};

// True for the methods the PTS accepts as a purge: everything but the three fallbacks, and
// nvme-sanitize-overwrite only under policy.overwrite_is_purge.
bool is_pts_purge(PurgeMethod m, const PurgePolicy& policy = {});

enum class PurgeOutcome { succeeded, failed, timed_out };
std::string to_string(PurgeOutcome o);

struct PurgeProgress {
  uint64_t elapsed_ms = 0;
  double fraction = -1.0;  // 0..1; -1 when the device reports none
  std::string note;
};
using PurgeProgressCallback = std::function<void(const PurgeProgress&)>;

// The ATA user password set for the duration of a security erase (printed before it is set).
inline constexpr std::string_view k_ata_temporary_password = "ptsuite-purge";

struct PurgeOptions {
  PurgeMethod method = PurgeMethod::auto_select;
  bool allow_destructive = false;
  std::optional<std::string> confirm_serial;
  uint8_t nvme_secure_erase_setting = 1;  // nvme-format: 1 user data erase, 2 cryptographic
  uint64_t timeout_ns = 0;                // 0: the method's default (docs/device.md)
  uint64_t poll_interval_ns = 1'000'000'000;
  PurgeProgressCallback on_progress;
  // Called with every record message as it happens (the CLI prints them at once, so e.g. the
  // temporary ATA password is on screen before it is set, even if the run is then killed).
  std::function<void(const std::string&)> on_message;
  SystemRoots roots;
  PurgePolicy policy;
};

// Time source for polling (tests inject a fake clock; nothing real is slept on in tests).
struct PurgeClock {
  std::function<uint64_t()> now_ns;        // default: monotonic_ns
  std::function<void(uint64_t)> sleep_ns;  // default: nanosleep
};

// What the purge method sent and found, typed; the record stores the ones set as strings
// (results/purge.hpp "parameters": ses=1, lbaf=1, cdw10=0x00000a01, password=...).
struct PurgeParameters {
  std::optional<uint32_t> ses, lbaf, nsid;  // NVMe Format NVM
  std::optional<uint32_t> sanact;           // NVMe Sanitize action
  std::optional<uint32_t> cdw10;            // the NVMe command's CDW10, written 0x%08x
  std::optional<bool> enhanced;             // ATA SECURITY ERASE UNIT: enhanced erase
  std::string password;                     // ATA: the temporary user password ("" none)
  std::optional<uint32_t> reported_erase_minutes;
  std::string final_security_state;         // ATA: the security state after the erase
  std::string sanitize;                     // ATA SANITIZE: the action's name
  std::string service_action;               // SCSI SANITIZE: "block-erase"
  std::optional<uint32_t> protection_type;  // SCSI FORMAT UNIT: the protection type kept
  std::optional<uint64_t> bytes;            // block fallback: the bytes discarded / zeroed
};
// The parameters set, as the record's object of strings ({} when none).
void to_json(nlohmann::json& j, const PurgeParameters& p);

struct PurgeRecord {
  std::string target;
  std::string device_model;
  std::string device_serial;
  std::string method;  // to_string(PurgeMethod) of the method that ran
  std::string requested_method;
  std::string description;  // one line: what was sent, e.g. "NVMe Format NVM, SES=1, LBAF 1 kept"
  bool pts_compliant = false;
  std::string started_utc, ended_utc;
  uint64_t duration_ns = 0;
  PurgeOutcome outcome = PurgeOutcome::failed;
  std::vector<PurgeProgress> progress;  // at most ~100 entries (every 1 %), first and last kept
  std::vector<std::string> messages;    // one line each, in order
  PurgeParameters parameters;
};

PurgeRecord purge(const std::string& path, const PurgeOptions& options);

// Step 3: throws SafetyRefusal unless `id` is not a real drive or `confirm_serial` equals
// its (non-empty) serial.
void require_serial_confirmation(const DeviceIdentity& id, const std::optional<std::string>& confirm_serial);

// Resolves `auto` (under `policy`) and validates an explicit method against the identity (see step 4).
PurgeMethod choose_purge_method(const DeviceIdentity& id, PurgeMethod requested, bool is_partition = false,
                                const PurgePolicy& policy = {});

// Steps 1, 3 and 4 for an identified target, plus the sibling-namespace rule for methods that
// erase every namespace: throws SafetyRefusal / UsageError before anything is sent, returns
// the method that will run. purge() and DeviceSession::purge() both go through it.
PurgeMethod prepare_purge(const DeviceIdentity& id, const PurgeOptions& options);

PurgeRecord purge_via(Passthrough& channel, const DeviceIdentity& id, const PurgeOptions& options,
                      const PurgeClock& clock = {});

// The record as results.json and `ptsuite device purge --json` write it (results/purge.hpp,
// its one writer and reader); to_json writes record_of(r).
results::PurgeRecord record_of(const PurgeRecord& r);
void to_json(nlohmann::json& j, const PurgeRecord& r);

}  // namespace ptsuite::device
