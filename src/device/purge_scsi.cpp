// SCSI purges: SANITIZE BLOCK ERASE and FORMAT UNIT (SBC-3), both started with IMMED=1 and
// followed with REQUEST SENSE, whose NOT READY sense carries the progress indication
// (SPC-4 sense-key specific field) while the operation runs.
#include <fmt/format.h>

#include <ptsuite/device/scsi.hpp>
#include "device/purge_internal.hpp"

namespace ptsuite::device::detail {

namespace {

// Polls REQUEST SENSE until the device is no longer NOT READY with `busy_ascq` (04h/xx).
void poll_until_ready(PurgeContext& ctx, uint8_t busy_ascq, const std::string& name, uint8_t failed_ascq) {
  for (;;) {
    if (ctx.timed_out()) {
      ctx.finish(PurgeOutcome::timed_out, fmt::format("timed out waiting for {}; it continues in the device", name));
      return;
    }
    ctx.sleep_poll_interval();
    auto cmd = scsi::request_sense();
    const auto r = ctx.channel.scsi(cmd);
    if (!r.transport_ok()) {
      ctx.finish(PurgeOutcome::failed,
                 fmt::format("REQUEST SENSE failed while waiting for {}: {}", name, scsi::describe_result(r)));
      return;
    }
    cmd.data.resize(cmd.data.size() - static_cast<size_t>(std::max(0, r.residual)));
    const auto sense = scsi::parse_sense(cmd.data);
    if (sense.valid && sense.key == 0x02 && sense.asc == 0x04 && sense.ascq == busy_ascq) {
      ctx.progress(sense.progress ? *sense.progress / 65536.0 : -1.0, name + " in progress");
      continue;
    }
    if (sense.valid && sense.asc == 0x31 && (sense.ascq == failed_ascq || sense.ascq == 0x00)) {
      ctx.finish(PurgeOutcome::failed, fmt::format("{} failed: {}", name, scsi::describe_sense(sense)));
      return;
    }
    if (sense.valid && sense.key != 0x00 && sense.key != 0x01 && sense.key != 0x06) {
      ctx.finish(PurgeOutcome::failed, fmt::format("{} ended with {}", name, scsi::describe_sense(sense)));
      return;
    }
    ctx.progress(1.0, name + " complete");
    ctx.finish(PurgeOutcome::succeeded, name + " completed");
    return;
  }
}

bool start(PurgeContext& ctx, ScsiCommand cmd, const std::string& name) {
  const auto r = ctx.channel.scsi(cmd);
  if (!r.good()) {
    ctx.finish(PurgeOutcome::failed, fmt::format("{} failed: {}", name, scsi::describe_result(r)));
    return false;
  }
  ctx.progress(0.0, name + " started");
  return true;
}

}  // namespace

void run_scsi_sanitize(PurgeContext& ctx) {
  ctx.record.description = "SCSI SANITIZE, BLOCK ERASE (IMMED, polled with REQUEST SENSE)";
  ctx.record.parameters.service_action = "block-erase";
  if (start(ctx, scsi::sanitize(scsi::SanitizeAction::block_erase), "SANITIZE BLOCK ERASE")) {
    poll_until_ready(ctx, 0x1b, "SANITIZE BLOCK ERASE", 0x03);  // 04h/1Bh in progress, 31h/03h failed
  }
}

void run_scsi_format(PurgeContext& ctx) {
  const uint8_t protection = static_cast<uint8_t>(ctx.id.protection_type);
  ctx.record.description =
      fmt::format("SCSI FORMAT UNIT (IMMED, current block size and protection type {} kept)", protection);
  ctx.record.parameters.protection_type = protection;
  if (start(ctx, scsi::format_unit(protection), "FORMAT UNIT")) {
    poll_until_ready(ctx, 0x04, "FORMAT UNIT", 0x01);  // 04h/04h in progress, 31h/01h failed
  }
}

}  // namespace ptsuite::device::detail
