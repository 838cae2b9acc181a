// purge(): gate, identify, confirm, choose, run; the method table; the PurgeRecord.
#include <ptsuite/device/purge.hpp>
#include <ptsuite/device/target_gate.hpp>

#include <fmt/format.h>
#include <sys/stat.h>
#include <time.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include "device/purge_internal.hpp"

namespace ptsuite::device {

namespace {

struct MethodName {
  PurgeMethod method;
  const char* name;
};
constexpr std::array<MethodName, 13> k_methods{{
    {PurgeMethod::auto_select, "auto"},
    {PurgeMethod::nvme_format, "nvme-format"},
    {PurgeMethod::nvme_sanitize_block, "nvme-sanitize-block"},
    {PurgeMethod::nvme_sanitize_crypto, "nvme-sanitize-crypto"},
    {PurgeMethod::nvme_sanitize_overwrite, "nvme-sanitize-overwrite"},
    {PurgeMethod::ata_security_erase, "ata-security-erase"},
    {PurgeMethod::ata_sanitize_block, "ata-sanitize-block"},
    {PurgeMethod::ata_sanitize_crypto, "ata-sanitize-crypto"},
    {PurgeMethod::scsi_sanitize, "scsi-sanitize"},
    {PurgeMethod::scsi_format, "scsi-format"},
    {PurgeMethod::secure_discard, "secure-discard"},
    {PurgeMethod::discard, "discard"},
    {PurgeMethod::zero_fill, "zero-fill"},
}};

constexpr uint64_t k_ns_per_s = 1'000'000'000ULL;

bool supports(const DeviceIdentity& id, PurgeMethod m) {
  const auto& c = id.purge;
  switch (m) {
    case PurgeMethod::nvme_format:
      return id.transport == Transport::nvme && c.nvme_format;
    case PurgeMethod::nvme_sanitize_block:
      return id.transport == Transport::nvme && c.nvme_sanitize_block;
    case PurgeMethod::nvme_sanitize_crypto:
      return id.transport == Transport::nvme && c.nvme_sanitize_crypto;
    case PurgeMethod::nvme_sanitize_overwrite:
      return id.transport == Transport::nvme && c.nvme_sanitize_overwrite;
    case PurgeMethod::ata_security_erase:
      return id.transport == Transport::ata && c.ata_security_erase;
    case PurgeMethod::ata_sanitize_block:
      return id.transport == Transport::ata && c.ata_sanitize_block;
    case PurgeMethod::ata_sanitize_crypto:
      return id.transport == Transport::ata && c.ata_sanitize_crypto;
    case PurgeMethod::scsi_sanitize:
      return id.transport == Transport::scsi && c.scsi_sanitize.value_or(false);
    case PurgeMethod::scsi_format:
      return id.transport == Transport::scsi && c.scsi_format_unit.value_or(true);
    case PurgeMethod::secure_discard:
    case PurgeMethod::discard:
      return c.discard;
    case PurgeMethod::zero_fill:
      return true;
    case PurgeMethod::auto_select:
      return true;
  }
  return false;
}

std::string why_unsupported(const DeviceIdentity& id, PurgeMethod m) {
  const std::string t = to_string(id.transport);
  switch (m) {
    case PurgeMethod::nvme_format:
    case PurgeMethod::nvme_sanitize_block:
    case PurgeMethod::nvme_sanitize_crypto:
    case PurgeMethod::nvme_sanitize_overwrite:
      if (id.transport != Transport::nvme) return fmt::format("{} is a {} device, not NVMe", id.path, t);
      return m == PurgeMethod::nvme_format ? "the controller does not support Format NVM (OACS bit 1)"
                                           : "the controller does not report this sanitize action (SANICAP)";
    case PurgeMethod::ata_security_erase:
    case PurgeMethod::ata_sanitize_block:
    case PurgeMethod::ata_sanitize_crypto:
      if (id.transport != Transport::ata) return fmt::format("{} is a {} device, not ATA", id.path, t);
      return m == PurgeMethod::ata_security_erase ? "the drive does not support the Security feature set"
                                                  : "the drive does not report this SANITIZE action (IDENTIFY word 59)";
    case PurgeMethod::scsi_sanitize:
    case PurgeMethod::scsi_format: {
      if (id.transport != Transport::scsi) return fmt::format("{} is a {} device, not SCSI", id.path, t);
      const auto& known = m == PurgeMethod::scsi_sanitize ? id.purge.scsi_sanitize : id.purge.scsi_format_unit;
      if (!known) {
        return "the device does not answer REPORT SUPPORTED OPERATION CODES, so support is unknown (auto does not "
               "guess; name the method to try it)";
      }
      return "REPORT SUPPORTED OPERATION CODES says the device does not support it";
    }
    default:
      return fmt::format("{} does not support discard (queue/discard_max_bytes is 0)", id.path);
  }
}

// The PTS purge methods of the target's transport, each with why it is not available (for
// the record of an `auto` purge that had to fall back).
std::string missing_pts_methods(const DeviceIdentity& id, const PurgePolicy& policy) {
  std::vector<PurgeMethod> candidates;
  switch (id.transport) {
    case Transport::nvme:
      candidates = {PurgeMethod::nvme_sanitize_block, PurgeMethod::nvme_format, PurgeMethod::nvme_sanitize_crypto};
      break;
    case Transport::ata:
      candidates = {PurgeMethod::ata_sanitize_block, PurgeMethod::ata_security_erase, PurgeMethod::ata_sanitize_crypto};
      break;
    case Transport::scsi:
      candidates = {PurgeMethod::scsi_sanitize, PurgeMethod::scsi_format};
      break;
    default:
      return fmt::format("no PTS purge method: a {} target has none (PTS purges are NVMe, ATA and SCSI commands)",
                         to_string(id.transport));
  }
  std::vector<std::string> why;
  for (const PurgeMethod m : candidates) {
    const bool sanitize = m == PurgeMethod::nvme_sanitize_block || m == PurgeMethod::nvme_sanitize_crypto;
    if (id.is_partition) {
      why.push_back(fmt::format("{}: erases the whole device, and {} is a partition", to_string(m), id.path));
    } else if (sanitize && !policy.auto_may_sanitize && supports(id, m)) {
      why.push_back(fmt::format("{}: not chosen (purge.accept_nvme_sanitize is off)", to_string(m)));
    } else if (!supports(id, m) || m == PurgeMethod::scsi_format) {
      why.push_back(fmt::format("{}: {}", to_string(m), why_unsupported(id, m)));
    }
  }
  return fmt::format("no PTS purge method on this {} device: {}", to_string(id.transport), fmt::join(why, "; "));
}

}  // namespace

std::string to_string(PurgeMethod m) {
  for (const auto& e : k_methods) {
    if (e.method == m) return e.name;
  }
  return "auto";
}

PurgeMethod parse_purge_method(std::string_view text) {
  for (const auto& e : k_methods) {
    if (text == e.name) return e.method;
  }
  throw UsageError(
      "--method", fmt::format("unknown purge method \"{}\" (one of: {})", text, fmt::join(purge_method_names(), ", ")));
}

std::vector<std::string> purge_method_names() {
  std::vector<std::string> names;
  for (const auto& e : k_methods) names.emplace_back(e.name);
  return names;
}

bool is_pts_purge(PurgeMethod m, const PurgePolicy& policy) {
  if (m == PurgeMethod::nvme_sanitize_overwrite) return policy.overwrite_is_purge;
  return m != PurgeMethod::secure_discard && m != PurgeMethod::discard && m != PurgeMethod::zero_fill &&
         m != PurgeMethod::auto_select;
}

std::string to_string(PurgeOutcome o) {
  switch (o) {
    case PurgeOutcome::succeeded:
      return "succeeded";
    case PurgeOutcome::failed:
      return "failed";
    case PurgeOutcome::timed_out:
      return "timed_out";
  }
  return "failed";
}

PurgeMethod choose_purge_method(const DeviceIdentity& id, PurgeMethod requested, bool is_partition,
                                const PurgePolicy& policy) {
  if (requested != PurgeMethod::auto_select) {
    if (is_partition && is_pts_purge(requested)) {
      throw UsageError("--method", fmt::format("{} is a partition; {} erases the whole device: purge the "
                                               "whole device instead",
                                               id.path, to_string(requested)));
    }
    if (!supports(id, requested)) {
      throw UsageError("--method", fmt::format("{}: {}", to_string(requested), why_unsupported(id, requested)));
    }
    return requested;
  }
  if (!is_partition) {
    static constexpr PurgeMethod k_order[] = {PurgeMethod::nvme_sanitize_block,  PurgeMethod::nvme_format,
                                              PurgeMethod::nvme_sanitize_crypto, PurgeMethod::ata_sanitize_block,
                                              PurgeMethod::ata_security_erase,   PurgeMethod::ata_sanitize_crypto,
                                              PurgeMethod::scsi_sanitize};
    for (const PurgeMethod m : k_order) {
      const bool sanitize = m == PurgeMethod::nvme_sanitize_block || m == PurgeMethod::nvme_sanitize_crypto;
      if (sanitize && !policy.auto_may_sanitize) continue;
      if (supports(id, m)) return m;
    }
    // FORMAT UNIT only when the device confirmed it (auto must not guess).
    if (id.transport == Transport::scsi && id.purge.scsi_format_unit.value_or(false)) return PurgeMethod::scsi_format;
  }
  return id.purge.discard ? PurgeMethod::secure_discard : PurgeMethod::zero_fill;
}

namespace detail {

PurgeContext::PurgeContext(Passthrough& ch, const DeviceIdentity& ident, const PurgeOptions& opts,
                           const PurgeClock& clock, PurgeRecord& rec, uint64_t default_timeout)
    : channel(ch),
      id(ident),
      options(opts),
      record(rec),
      m_clock(clock),
      m_start_ns(clock.now_ns()),
      m_timeout_ns(opts.timeout_ns != 0 ? opts.timeout_ns : default_timeout) {}

void PurgeContext::message(const std::string& line) {
  record.messages.push_back(line);
  if (options.on_message) options.on_message(line);
}

uint64_t PurgeContext::elapsed_ns() const { return m_clock.now_ns() - m_start_ns; }

uint32_t PurgeContext::timeout_ms() const {
  return static_cast<uint32_t>(std::min<uint64_t>(m_timeout_ns / 1'000'000, 0xffffffffULL));
}

void PurgeContext::sleep_poll_interval() const { m_clock.sleep_ns(options.poll_interval_ns); }

void PurgeContext::progress(double fraction, const std::string& note) {
  PurgeProgress p{elapsed_ns() / 1'000'000, fraction, note};
  const bool step =
      fraction < 0 ? note != m_last_note : std::floor(fraction * 100) != std::floor(m_last_fraction * 100);
  if (step || record.progress.empty()) {
    record.progress.push_back(p);
    m_last_fraction = fraction;
    m_last_note = note;
  } else {
    record.progress.back() = p;  // keep the latest within the same percent
  }
  if (options.on_progress) options.on_progress(p);
}

void PurgeContext::finish(PurgeOutcome outcome, const std::string& last_message) {
  record.outcome = outcome;
  if (!last_message.empty()) message(last_message);
}

uint64_t default_timeout_ns(PurgeMethod method, const DeviceIdentity& id) {
  switch (method) {
    case PurgeMethod::nvme_format:
      return 3 * 3600 * k_ns_per_s;
    case PurgeMethod::ata_security_erase: {
      uint64_t minutes = 0;
      if (id.ata_security) {
        minutes = std::max(id.ata_security->erase_minutes, id.ata_security->enhanced_erase_minutes);
      }
      return std::max<uint64_t>(2 * 3600, (2 * minutes + 30) * 60) * k_ns_per_s;
    }
    case PurgeMethod::secure_discard:
    case PurgeMethod::discard:
    case PurgeMethod::zero_fill:
      return 7 * 24 * 3600 * k_ns_per_s;
    default:
      return 24 * 3600 * k_ns_per_s;  // sanitize and SCSI format: polled
  }
}

}  // namespace detail

PurgeRecord purge_via(Passthrough& channel, const DeviceIdentity& id, const PurgeOptions& options,
                      const PurgeClock& clock_in) {
  PurgeClock clock = clock_in;
  if (!clock.now_ns) clock.now_ns = [] { return monotonic_ns(); };
  if (!clock.sleep_ns) {
    clock.sleep_ns = [](uint64_t ns) {
      timespec ts{static_cast<time_t>(ns / k_ns_per_s), static_cast<long>(ns % k_ns_per_s)};
      while (::nanosleep(&ts, &ts) != 0) {
      }
    };
  }
  const PurgeMethod method = choose_purge_method(id, options.method, id.is_partition, options.policy);
  PurgeRecord rec;
  rec.target = id.path;
  rec.device_model = id.model;
  rec.device_serial = id.serial;
  rec.requested_method = to_string(options.method);
  rec.method = to_string(method);
  rec.pts_compliant = is_pts_purge(method, options.policy);
  rec.started_utc = utc_now_iso8601();
  detail::PurgeContext ctx(channel, id, options, clock, rec, detail::default_timeout_ns(method, id));
  if (method == PurgeMethod::nvme_sanitize_overwrite && !rec.pts_compliant) {
    ctx.message(
        "not a PTS purge: an overwrite sanitize leaves every LBA written, not the fresh-out-of-box state "
        "(setting purge.accept_nvme_sanitize_overwrite accepts it)");
  } else if (!rec.pts_compliant) {
    ctx.message("not a PTS purge: discard and zero-fill do not return the device to a fresh-out-of-box state");
    if (options.method == PurgeMethod::auto_select) ctx.message(missing_pts_methods(id, options.policy));
  }
  switch (method) {
    case PurgeMethod::nvme_format:
      detail::run_nvme_format(ctx);
      break;
    case PurgeMethod::nvme_sanitize_block:
    case PurgeMethod::nvme_sanitize_crypto:
    case PurgeMethod::nvme_sanitize_overwrite:
      detail::run_nvme_sanitize(ctx, method);
      break;
    case PurgeMethod::ata_security_erase:
      detail::run_ata_security_erase(ctx);
      break;
    case PurgeMethod::ata_sanitize_block:
    case PurgeMethod::ata_sanitize_crypto:
      detail::run_ata_sanitize(ctx, method);
      break;
    case PurgeMethod::scsi_sanitize:
      detail::run_scsi_sanitize(ctx);
      break;
    case PurgeMethod::scsi_format:
      detail::run_scsi_format(ctx);
      break;
    case PurgeMethod::secure_discard:
    case PurgeMethod::discard:
    case PurgeMethod::zero_fill:
      detail::run_block_fallback(ctx, method, options.method == PurgeMethod::auto_select);
      break;
    case PurgeMethod::auto_select:
      break;
  }
  rec.pts_compliant = rec.pts_compliant && is_pts_purge(parse_purge_method(rec.method), options.policy);
  rec.ended_utc = utc_now_iso8601();
  rec.duration_ns = ctx.elapsed_ns();
  return rec;
}

void require_serial_confirmation(const DeviceIdentity& id, const std::optional<std::string>& confirm_serial) {
  if (!id.is_real_drive()) {
    return;
  }
  const std::string& path = id.path;
  if (id.serial.empty()) {
    throw SafetyRefusal(
        fmt::format("refusing to purge {}: the drive reports no serial number to confirm "
                    "with --confirm-serial",
                    path));
  }
  if (!confirm_serial) {
    throw SafetyRefusal(
        fmt::format("refusing to purge {} ({} serial {}): pass --confirm-serial {} to confirm "
                    "this is the drive to erase",
                    path, id.model, id.serial, id.serial));
  }
  if (*confirm_serial != id.serial) {
    throw SafetyRefusal(
        fmt::format("refusing to purge {}: --confirm-serial {} does not match the drive's "
                    "serial {}",
                    path, *confirm_serial, id.serial));
  }
}

PurgeMethod prepare_purge(const DeviceIdentity& id, const PurgeOptions& options) {
  // 1. The gate (again under a held claim: a few reads); purge needs the consent flag even
  //    for files.
  require_destructive_allowed(id.path, options.allow_destructive, options.roots);
  if (!options.allow_destructive) {
    throw SafetyRefusal(
        fmt::format("refusing to purge {}: this destroys its data; pass --allow-destructive to proceed", id.path));
  }
  // 3. Serial confirmation for real drives.
  require_serial_confirmation(id, options.confirm_serial);
  // 4. Method (throws before the device is opened for writing).
  const PurgeMethod method = choose_purge_method(id, options.method, id.is_partition, options.policy);
  const bool controller_wide = method == PurgeMethod::nvme_sanitize_block ||
                               method == PurgeMethod::nvme_sanitize_crypto ||
                               method == PurgeMethod::nvme_sanitize_overwrite ||
                               (method == PurgeMethod::nvme_format && id.purge.nvme_format_all_namespaces);
  if (controller_wide) {
    const auto verdict = check_sibling_namespaces_allowed(id.kernel_name, id.path, options.roots);
    if (!verdict.allowed) throw SafetyRefusal(verdict.reason);
  }
  return method;
}

PurgeRecord purge(const std::string& path, const PurgeOptions& options) {
  // 1. The gate before anything else, 2. identity (read-only), 3-4 in prepare_purge().
  const TargetGuard guard =
      pass_target_gate({path, TargetAccess::read_write, options.allow_destructive, "device purge", options.roots});
  const DeviceIdentity id = identify(path, options.roots);
  (void)prepare_purge(id, options);
  // 5. Gate again + exclusive open, then run.
  auto channel = open_destructive_channel(guard.writable(), options.allow_destructive, options.roots);
  return purge_via(*channel, id, options);
}

results::PurgeRecord record_of(const PurgeRecord& r) {
  results::PurgeRecord out;
  out.target = r.target;
  out.device_model = r.device_model;
  out.device_serial = r.device_serial;
  out.requested_method = r.requested_method;
  out.method = r.method;
  out.description = r.description;
  out.pts_compliant = r.pts_compliant;
  out.started_utc = r.started_utc;
  out.ended_utc = r.ended_utc;
  out.duration_ns = r.duration_ns;
  out.outcome = to_string(r.outcome);
  for (const PurgeProgress& p : r.progress) {
    out.progress.push_back({p.elapsed_ms, p.fraction < 0 ? std::nullopt : std::optional<double>(p.fraction), p.note});
  }
  out.messages = r.messages;
  out.parameters = nlohmann::json(r.parameters).get<std::map<std::string, std::string>>();
  return out;
}

void to_json(nlohmann::json& j, const PurgeParameters& p) {
  const auto set = [&j](const char* key, const auto& value) {
    if (value) j[key] = std::to_string(*value);
  };
  const auto set_text = [&j](const char* key, const std::string& value) {
    if (!value.empty()) j[key] = value;
  };
  j = nlohmann::json::object();
  set("ses", p.ses);
  set("lbaf", p.lbaf);
  set("nsid", p.nsid);
  set("sanact", p.sanact);
  if (p.cdw10) j["cdw10"] = fmt::format("{:#010x}", *p.cdw10);
  if (p.enhanced) j["enhanced"] = *p.enhanced ? "true" : "false";
  set_text("password", p.password);
  set("reported_erase_minutes", p.reported_erase_minutes);
  set_text("final_security_state", p.final_security_state);
  set_text("sanitize", p.sanitize);
  set_text("service_action", p.service_action);
  set("protection_type", p.protection_type);
  set("bytes", p.bytes);
}

void to_json(nlohmann::json& j, const PurgeRecord& r) { j = record_of(r); }

}  // namespace ptsuite::device
