// NVMe purges: Format NVM with a Secure Erase Setting (Base Spec 2.0 §5.23) keeping the
// namespace's current LBA format, and Sanitize (§5.24) polled through the Sanitize Status log
// (Get Log Page, Sanitize Status log) until it completes.
#include <fmt/format.h>

#include <cstring>

#include <ptsuite/device/nvme.hpp>
#include <ptsuite/util/error.hpp>
#include "device/purge_internal.hpp"

namespace ptsuite::device::detail {

namespace {

std::string failure(const char* what, const NvmeCompletion& c) {
  if (c.os_error != 0) return fmt::format("{} failed: {}", what, std::strerror(c.os_error));
  return fmt::format("{} failed: {}", what, describe_nvme_status(c.status));
}

std::optional<nvme::SanitizeStatus> read_sanitize_status(PurgeContext& ctx, std::string& problem) {
  auto cmd = nvme::get_log_page(nvme::k_log_sanitize_status, nvme::k_nsid_all, 512);
  const auto done = ctx.channel.nvme_admin(cmd);
  if (!done.ok()) {
    problem = failure("Get Log Page (Sanitize Status)", done);
    return std::nullopt;
  }
  return nvme::parse_sanitize_status(cmd.data);
}

}  // namespace

void run_nvme_format(PurgeContext& ctx) {
  const uint8_t ses_value = ctx.options.nvme_secure_erase_setting;
  if (ses_value != 1 && ses_value != 2) {
    throw UsageError("--ses", "Format NVM needs Secure Erase Setting 1 (user data) or 2 (cryptographic)");
  }
  if (ses_value == 2 && !ctx.id.purge.nvme_format_crypto) {
    throw UsageError("--ses", "the controller does not support cryptographic erase in Format NVM (FNA bit 2)");
  }
  const auto ses = static_cast<nvme::SecureErase>(ses_value);
  // Read the namespace's CURRENT format from the device itself, right before formatting.
  const uint32_t nsid = ctx.id.nvme_nsid != 0 ? ctx.id.nvme_nsid : 1;
  auto id_cmd = nvme::identify_namespace(nsid);
  if (const auto done = ctx.channel.nvme_admin(id_cmd); !done.ok()) {
    ctx.finish(PurgeOutcome::failed, failure("Identify Namespace before Format NVM", done) + "; nothing was formatted");
    return;
  }
  const auto ns = nvme::parse_identify_namespace(id_cmd.data);
  const auto current = ns.current_format();
  if (!current || current->data_bytes == 0) {
    ctx.finish(PurgeOutcome::failed, "the namespace reports no valid current LBA format; nothing was formatted");
    return;
  }
  auto cmd = nvme::format_nvm(nsid, ns, ses, ctx.timeout_ms());
  const uint32_t lbaf = ns.current_format_index();
  ctx.record.description = fmt::format(
      "NVMe Format NVM, Secure Erase Setting {} ({}), LBA format {} kept ({} B data + {} B metadata)", ses_value,
      ses_value == 1 ? "user data erase" : "cryptographic erase", lbaf, current->data_bytes, current->metadata_bytes);
  ctx.record.parameters.ses = ses_value;
  ctx.record.parameters.lbaf = lbaf;
  ctx.record.parameters.nsid = nsid;
  ctx.record.parameters.cdw10 = cmd.cdw[0];
  if (ctx.id.purge.nvme_format_all_namespaces) {
    ctx.message("the controller formats/erases all namespaces together (FNA), not only this one");
  }
  ctx.progress(-1, "Format NVM running (the device reports no progress)");
  const auto done = ctx.channel.nvme_admin(cmd);
  if (!done.ok()) {
    if (done.os_error == ETIMEDOUT || done.os_error == EINTR) {
      ctx.finish(PurgeOutcome::timed_out, failure("Format NVM", done) + " (the controller may still be formatting)");
    } else {
      ctx.finish(PurgeOutcome::failed, failure("Format NVM", done));
    }
    return;
  }
  ctx.progress(1.0, "Format NVM complete");
  ctx.finish(PurgeOutcome::succeeded, "Format NVM completed");
}

void run_nvme_sanitize(PurgeContext& ctx, PurgeMethod method) {
  nvme::SanitizeAction action = nvme::SanitizeAction::block_erase;
  const char* name = "block erase";
  if (method == PurgeMethod::nvme_sanitize_crypto) {
    action = nvme::SanitizeAction::crypto_erase;
    name = "crypto erase";
  } else if (method == PurgeMethod::nvme_sanitize_overwrite) {
    action = nvme::SanitizeAction::overwrite;
    name = "overwrite";
  }
  std::string problem;
  const auto before = read_sanitize_status(ctx, problem);
  if (!before) {
    ctx.finish(PurgeOutcome::failed, problem + "; sanitize not started");
    return;
  }
  if (before->state == nvme::SanitizeState::in_progress) {
    ctx.finish(PurgeOutcome::failed, "a sanitize operation is already in progress on this controller; wait for it");
    return;
  }
  if (before->state == nvme::SanitizeState::failed) {
    ctx.message("the previous sanitize failed; this sanitize (AUSE=1) also clears that failure state");
  }
  auto cmd = nvme::sanitize(action);
  ctx.record.description =
      fmt::format("NVMe Sanitize, {} (SANACT {}), polled via the Sanitize Status log", name, static_cast<int>(action));
  ctx.record.parameters.sanact = static_cast<uint32_t>(action);
  ctx.record.parameters.cdw10 = cmd.cdw[0];
  const auto started = ctx.channel.nvme_admin(cmd);
  if (!started.ok()) {
    ctx.finish(PurgeOutcome::failed, failure("Sanitize", started));
    return;
  }
  ctx.progress(0.0, fmt::format("sanitize {} started", name));
  // The Sanitize command completes at once; the operation itself runs in the background and
  // is followed through the Sanitize Status log (Base Spec 2.0 "Sanitize Operations").
  for (;;) {
    if (ctx.timed_out()) {
      ctx.finish(PurgeOutcome::timed_out,
                 "timed out waiting for sanitize; it continues in the device (check the Sanitize Status log)");
      return;
    }
    ctx.sleep_poll_interval();
    const auto status = read_sanitize_status(ctx, problem);
    if (!status) {
      ctx.finish(PurgeOutcome::failed, problem + "; the sanitize may still be running in the device");
      return;
    }
    switch (status->state) {
      case nvme::SanitizeState::in_progress:
        ctx.progress(status->fraction(), fmt::format("sanitize {} in progress", name));
        continue;
      case nvme::SanitizeState::completed:
      case nvme::SanitizeState::completed_no_deallocate:
        ctx.progress(1.0, fmt::format("sanitize {} complete", name));
        ctx.finish(PurgeOutcome::succeeded, fmt::format("sanitize {} completed", name));
        return;
      case nvme::SanitizeState::failed:
        ctx.finish(PurgeOutcome::failed,
                   fmt::format("sanitize {} failed: the controller is in sanitize failure mode and accepts only "
                               "a new sanitize (or Exit Failure Mode); data may remain",
                               name));
        return;
      case nvme::SanitizeState::never_sanitized:
      default:
        continue;  // not yet reflected in the log
    }
  }
}

}  // namespace ptsuite::device::detail
