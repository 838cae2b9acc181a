// ATA purges through SAT: SECURITY ERASE UNIT (ACS-3 Security feature set: set a user
// password, ERASE PREPARE, ERASE UNIT, make sure the password is gone) and SANITIZE (ACS-3,
// polled with SANITIZE STATUS EXT).
//
// Security erase invariant: from the moment SECURITY SET PASSWORD is sent, every exit path
// re-reads IDENTIFY DEVICE, tries SECURITY UNLOCK + SECURITY DISABLE PASSWORD when a password
// is still set, and records the drive's final security state and the password used.
#include <fmt/format.h>

#include <ptsuite/device/ata.hpp>
#include <ptsuite/util/error.hpp>
#include "device/purge_internal.hpp"

namespace ptsuite::device::detail {

namespace {

struct Issued {
  ata::Result result;
  std::vector<uint8_t> data;
};

Issued issue(PurgeContext& ctx, ScsiCommand cmd) {
  const auto raw = ctx.channel.scsi(cmd);
  return Issued{ata::decode_result(raw), std::move(cmd.data)};
}

std::optional<ata::IdentifyDevice> read_identify(PurgeContext& ctx, std::string& problem) {
  auto out = issue(ctx, ata::identify_device());
  if (!out.result.ok()) {
    problem = "IDENTIFY DEVICE failed: " + out.result.problem;
    return std::nullopt;
  }
  return ata::parse_identify_device(out.data);
}

std::string state_text(const ata::SecurityState& s) {
  return fmt::format("security {}, {}, {}",
                     s.enabled ? "ENABLED (a user password is set)" : "disabled (no user password)",
                     s.locked ? "LOCKED" : "unlocked", s.frozen ? "frozen" : "not frozen");
}

// Removes the temporary password if it is still set; returns the final-state message.
std::string cleanup_password(PurgeContext& ctx, const std::string& password) {
  std::string problem;
  auto state = read_identify(ctx, problem);
  if (!state) {
    return fmt::format(
        "could not read the drive's security state after the failure ({}); it may still have user "
        "password '{}' set: check with hdparm -I and remove it with "
        "hdparm --user-master u --security-disable {} {}",
        problem, password, password, ctx.id.path);
  }
  if (state->security.enabled) {
    if (state->security.locked) {
      const auto unlock = issue(ctx, ata::security_unlock(password));
      if (!unlock.result.ok()) ctx.message("SECURITY UNLOCK failed: " + unlock.result.problem);
    }
    const auto disable = issue(ctx, ata::security_disable_password(password));
    if (!disable.result.ok()) ctx.message("SECURITY DISABLE PASSWORD failed: " + disable.result.problem);
    state = read_identify(ctx, problem);
    if (!state) {
      return fmt::format(
          "tried to remove user password '{}' but could not re-read the security state ({}); check "
          "with hdparm -I {}",
          password, problem, ctx.id.path);
    }
  }
  ctx.record.parameters.final_security_state = state_text(state->security);
  if (state->security.enabled) {
    return fmt::format(
        "THE DRIVE STILL HAS USER PASSWORD '{}' SET ({}); remove it with "
        "hdparm --user-master u --security-disable {} {} (after a power cycle if it is locked)",
        password, state_text(state->security), password, ctx.id.path);
  }
  return fmt::format("temporary password removed; drive state: {}", state_text(state->security));
}

}  // namespace

void run_ata_security_erase(PurgeContext& ctx) {
  const std::string password(k_ata_temporary_password);
  std::string problem;
  const auto before = read_identify(ctx, problem);
  if (!before) {
    ctx.finish(PurgeOutcome::failed, problem + "; nothing was sent");
    return;
  }
  const auto& s = before->security;
  if (!s.supported) {
    throw UsageError("--method", "ata-security-erase: the drive does not support the Security feature set");
  }
  if (s.frozen) {
    throw SafetyRefusal(fmt::format(
        "refusing ATA security erase of {}: the drive's security state is frozen (the BIOS/firmware froze it at "
        "boot); suspend and resume the machine (echo mem > /sys/power/state) or hot-unplug and replug the drive, "
        "then retry{}",
        ctx.id.path, ctx.id.purge.ata_sanitize_block ? ", or use --method ata-sanitize-block" : ""));
  }
  if (s.locked) {
    throw SafetyRefusal(
        fmt::format("refusing ATA security erase of {}: the drive is locked by a password ptsuite "
                    "did not set; unlock it with its owner's password first",
                    ctx.id.path));
  }
  if (s.enabled) {
    throw SafetyRefusal(
        fmt::format("refusing ATA security erase of {}: a user password is already set on the "
                    "drive; remove it (hdparm --security-disable) first",
                    ctx.id.path));
  }
  if (s.count_expired) {
    throw SafetyRefusal(
        fmt::format("refusing ATA security erase of {}: the password attempt counter has expired; "
                    "power-cycle the drive first",
                    ctx.id.path));
  }
  const bool enhanced = s.enhanced_erase_supported;
  const uint32_t minutes = enhanced ? s.enhanced_erase_minutes : s.erase_minutes;
  ctx.record.description = fmt::format("ATA SECURITY ERASE UNIT ({} erase) with a temporary user password",
                                       enhanced ? "enhanced" : "normal");
  ctx.record.parameters.enhanced = enhanced;
  ctx.record.parameters.password = password;
  ctx.record.parameters.reported_erase_minutes = minutes;
  ctx.message(
      fmt::format("setting temporary ATA user password '{}'; if this run is interrupted remove it with "
                  "hdparm --user-master u --security-disable {} {}",
                  password, password, ctx.id.path));

  // From here on every exit goes through cleanup_password().
  auto fail = [&](const std::string& why) {
    ctx.message(why);
    ctx.finish(PurgeOutcome::failed, cleanup_password(ctx, password));
  };
  if (const auto set = issue(ctx, ata::security_set_password(password)); !set.result.ok()) {
    fail("SECURITY SET PASSWORD failed: " + set.result.problem);
    return;
  }
  const auto armed = read_identify(ctx, problem);
  if (!armed || !armed->security.enabled) {
    fail(armed ? "the drive did not enable security after SECURITY SET PASSWORD; erase not attempted" : problem);
    return;
  }
  if (const auto prep = issue(ctx, ata::security_erase_prepare()); !prep.result.ok()) {
    fail("SECURITY ERASE PREPARE failed: " + prep.result.problem);
    return;
  }
  ctx.progress(-1, fmt::format("security erase running (the drive estimates {} minutes; no progress is reported)",
                               minutes == 0 ? std::string("?") : std::to_string(minutes)));
  if (const auto erase = issue(ctx, ata::security_erase_unit(password, enhanced, ctx.timeout_ms()));
      !erase.result.ok()) {
    fail("SECURITY ERASE UNIT failed: " + erase.result.problem);
    return;
  }
  // A successful erase disables security itself (ACS-3 Security feature set); cleanup_password() confirms
  // it and removes the password otherwise.
  const std::string final_state = cleanup_password(ctx, password);
  const bool clean = final_state.rfind("temporary password removed", 0) == 0;
  ctx.progress(1.0, "security erase complete");
  ctx.message("SECURITY ERASE UNIT completed");
  ctx.finish(clean ? PurgeOutcome::succeeded : PurgeOutcome::failed, final_state);
}

void run_ata_sanitize(PurgeContext& ctx, PurgeMethod method) {
  const bool block = method == PurgeMethod::ata_sanitize_block;
  const char* name = block ? "BLOCK ERASE EXT" : "CRYPTO SCRAMBLE EXT";
  auto status = issue(ctx, ata::sanitize_status());
  if (!status.result.ok()) {
    ctx.finish(PurgeOutcome::failed, "SANITIZE STATUS EXT failed: " + status.result.problem + "; nothing was sent");
    return;
  }
  const auto before = ata::parse_sanitize_status(status.result);
  if (before.frozen) {
    throw SafetyRefusal(
        fmt::format("refusing ATA sanitize of {}: the sanitize feature is frozen (SANITIZE FREEZE "
                    "LOCK EXT since power-on); power-cycle the drive and retry",
                    ctx.id.path));
  }
  if (before.in_progress) {
    ctx.finish(PurgeOutcome::failed, "a sanitize operation is already in progress on this drive; wait for it");
    return;
  }
  ctx.record.description = fmt::format("ATA SANITIZE {}, polled with SANITIZE STATUS EXT", name);
  ctx.record.parameters.sanitize = name;
  if (const auto start =
          issue(ctx, ata::sanitize(block ? ata::SanitizeMethod::block_erase : ata::SanitizeMethod::crypto_scramble));
      !start.result.ok()) {
    ctx.finish(PurgeOutcome::failed, fmt::format("SANITIZE {} failed: {}", name, start.result.problem));
    return;
  }
  ctx.progress(0.0, fmt::format("sanitize {} started", name));
  for (;;) {
    if (ctx.timed_out()) {
      ctx.finish(PurgeOutcome::timed_out, "timed out waiting for sanitize; it continues in the drive");
      return;
    }
    ctx.sleep_poll_interval();
    status = issue(ctx, ata::sanitize_status());
    const auto now = ata::parse_sanitize_status(status.result);
    if (!status.result.ok()) {
      // ABORT with the operation-failed state: the sanitize failed (ACS-3 SANITIZE STATUS EXT).
      ctx.finish(PurgeOutcome::failed, fmt::format("sanitize {} failed: {}", name, status.result.problem));
      return;
    }
    if (now.in_progress) {
      ctx.progress(now.progress / 65536.0, fmt::format("sanitize {} in progress", name));
      continue;
    }
    if (now.completed_ok) {
      ctx.progress(1.0, fmt::format("sanitize {} complete", name));
      ctx.finish(PurgeOutcome::succeeded, fmt::format("sanitize {} completed without error", name));
      return;
    }
    ctx.finish(PurgeOutcome::failed, fmt::format("sanitize {} ended without the 'completed without error' flag", name));
    return;
  }
}

}  // namespace ptsuite::device::detail
