#include <ptsuite/device/write_cache.hpp>

#include <fmt/format.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include <ptsuite/device/ata.hpp>
#include <ptsuite/device/nvme.hpp>
#include <ptsuite/device/scsi.hpp>
#include <ptsuite/device/write_cache_record.hpp>
#include <ptsuite/results/record_writers.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::device {

namespace {

WriteCacheState not_applicable(const DeviceIdentity& id) {
  WriteCacheState s;
  s.mechanism = "none";
  switch (id.transport) {
    case Transport::loop:
      s.note = "not applicable: loop device (the backing file's page cache is not a device cache)";
      break;
    case Transport::zram:
      s.note = "not applicable: zram device (RAM, no device write cache)";
      break;
    case Transport::file:
      s.note = "not applicable: regular file";
      break;
    default:
      s.note = fmt::format("not applicable: {} device has no write cache control ptsuite supports{}",
                           to_string(id.transport),
                           id.queue.write_cache.empty() ? "" : " (kernel view: " + id.queue.write_cache + ")");
  }
  return s;
}

std::optional<std::vector<uint8_t>> mode_sense_caching(Passthrough& ch, std::string& problem) {
  auto cmd = scsi::mode_sense10(0x08);
  const auto r = ch.scsi(cmd);
  if (!r.good()) {
    problem = "MODE SENSE(10) caching page failed: " + scsi::describe_result(r);
    return std::nullopt;
  }
  return cmd.data;
}

}  // namespace

WriteCacheState write_cache_not_applicable(const DeviceIdentity& id) { return not_applicable(id); }

WriteCacheState read_write_cache(Passthrough& ch, const DeviceIdentity& id) {
  WriteCacheState s;
  switch (id.transport) {
    case Transport::nvme: {
      s.mechanism = "nvme-feature-06h";
      if (id.write_cache_present == false) {
        s.note = "not applicable: the controller reports no volatile write cache (VWC bit 0 = 0)";
        s.enabled = false;
        return s;
      }
      auto cmd = nvme::get_features(nvme::k_feature_volatile_write_cache);
      const auto done = ch.nvme_admin(cmd);
      if (!done.ok()) {
        s.note = done.os_error ? fmt::format("Get Features 06h failed: {}", std::strerror(done.os_error))
                               : "Get Features 06h failed: " + describe_nvme_status(done.status);
        return s;
      }
      s.applicable = true;
      s.enabled = (done.dw0 & 0x1) != 0;
      return s;
    }
    case Transport::ata: {
      s.mechanism = "ata-set-features";
      auto cmd = ata::identify_device();
      const auto r = ata::decode_result(ch.scsi(cmd));
      if (!r.ok()) {
        s.note = "IDENTIFY DEVICE failed: " + r.problem;
        return s;
      }
      const auto dev = ata::parse_identify_device(cmd.data);
      if (!dev.write_cache_supported) {
        s.note = "not applicable: the drive reports no volatile write cache (IDENTIFY word 82 bit 5)";
        s.enabled = false;
        return s;
      }
      s.applicable = true;
      s.enabled = dev.write_cache_enabled;
      return s;
    }
    case Transport::scsi: {
      s.mechanism = "scsi-caching-mode-page";
      std::string problem;
      const auto data = mode_sense_caching(ch, problem);
      if (!data) {
        s.note = problem;
        return s;
      }
      try {
        s.enabled = scsi::parse_caching_page(*data).write_cache_enabled;
        s.applicable = true;
      } catch (const Error& e) {
        s.note = e.what();
      }
      return s;
    }
    default:
      return not_applicable(id);
  }
}

WriteCacheState read_write_cache(const std::string& path, const SystemRoots& roots) {
  const DeviceIdentity id = identify(path, roots);
  if (id.transport != Transport::nvme && id.transport != Transport::ata && id.transport != Transport::scsi) {
    return not_applicable(id);
  }
  auto channel = open_read_only_channel(id.device_path.empty() ? path : id.device_path);
  return read_write_cache(*channel, id);
}

void set_write_cache(Passthrough& ch, const DeviceIdentity& id, bool enabled) {
  switch (id.transport) {
    case Transport::nvme: {
      auto cmd = nvme::set_features(nvme::k_feature_volatile_write_cache, enabled ? 1u : 0u, false);
      const auto done = ch.nvme_admin(cmd);
      if (!done.ok()) {
        throw SystemError(done.os_error ? fmt::format("Set Features 06h failed: {}", std::strerror(done.os_error))
                                        : "Set Features 06h failed: " + describe_nvme_status(done.status));
      }
      return;
    }
    case Transport::ata: {
      auto cmd = ata::set_write_cache(enabled);
      const auto r = ata::decode_result(ch.scsi(cmd));
      if (!r.ok()) throw SystemError(fmt::format("SET FEATURES {:02X}h failed: {}", enabled ? 0x02 : 0x82, r.problem));
      return;
    }
    case Transport::scsi: {
      std::string problem;
      const auto data = mode_sense_caching(ch, problem);
      if (!data) throw SystemError(problem);
      const auto page = scsi::parse_caching_page(*data);
      auto cmd = scsi::mode_select10(scsi::caching_select_parameters(page, enabled), false);
      const auto r = ch.scsi(cmd);
      if (!r.good()) throw SystemError("MODE SELECT(10) caching page failed: " + scsi::describe_result(r));
      return;
    }
    default:
      throw UsageError("--write-cache", not_applicable(id).note);
  }
}

WriteCacheSession::WriteCacheSession(Passthrough& channel, DeviceIdentity id, bool enabled,
                                     std::optional<bool> known_original)
    : m_channel(&channel), m_id(std::move(id)) {
  apply(enabled, known_original);
}

namespace {
std::string on_off(bool enabled) { return enabled ? "enabled" : "disabled"; }
}  // namespace

void WriteCacheSession::apply(bool enabled, std::optional<bool> known_original) {
  m_record.requested_enabled = enabled;
  const WriteCacheState now = m_channel != nullptr ? read_write_cache(*m_channel, m_id) : not_applicable(m_id);
  m_record.original = now;
  if (!now.applicable) {
    m_record.applied = now;
    m_record.messages.push_back(now.note);
    return;
  }
  if (known_original && now.enabled != known_original) {
    m_record.original.enabled = known_original;
    m_record.messages.push_back(
        fmt::format("write cache found {}; the interrupted start of this run had found it {}, "
                    "which is what it is restored to",
                    now.enabled ? on_off(*now.enabled) : "unknown", on_off(*known_original)));
  }
  // Something to put back at the end only when the original is known and differs.
  m_restore_pending = m_record.original.enabled.has_value() && *m_record.original.enabled != enabled;
  if (now.enabled == enabled) {
    m_record.applied = now;
    m_record.messages.push_back(fmt::format("write cache already {}", on_off(enabled)));
    return;
  }
  set_write_cache(*m_channel, m_id, enabled);
  m_record.applied = read_write_cache(*m_channel, m_id);
  if (m_record.applied.enabled != enabled) {
    m_record.messages.push_back(fmt::format("the device did not keep write cache {}", on_off(enabled)));
  } else {
    m_record.messages.push_back(fmt::format("write cache {} for the run (was {})", on_off(enabled), on_off(!enabled)));
  }
}

WriteCacheReapply WriteCacheSession::reapply() {
  WriteCacheReapply out;
  if (!m_record.original.applicable) {
    out.read_back = m_record.applied;
    return out;
  }
  const bool want = m_record.requested_enabled;
  out.found = read_write_cache(*m_channel, m_id).enabled;
  if (out.found != want) {
    set_write_cache(*m_channel, m_id, want);
    m_restore_pending = m_restore_pending || m_record.original.enabled.has_value();
  }
  out.read_back = read_write_cache(*m_channel, m_id);
  return out;
}

void WriteCacheSession::restore() {
  if (!m_restore_pending) return;
  m_restore_pending = false;
  const bool original = m_record.original.enabled.value_or(false);
  set_write_cache(*m_channel, m_id, original);
  m_record.restored = read_write_cache(*m_channel, m_id);
  m_record.messages.push_back(fmt::format("write cache restored to {}", on_off(original)));
}

WriteCacheSession::~WriteCacheSession() {
  try {
    restore();
  } catch (const std::exception& e) {
    m_record.messages.push_back(std::string("restoring the write cache failed: ") + e.what());
  }
}

results::WriteCacheState record_of(const WriteCacheState& s) { return {s.applicable, s.enabled, s.mechanism, s.note}; }

results::WriteCacheRecord record_of(const WriteCacheRecord& r) {
  results::WriteCacheRecord out;
  out.requested_enabled = r.requested_enabled;
  out.original = record_of(r.original);
  out.applied = record_of(r.applied);
  if (r.restored) {
    out.restored = record_of(*r.restored);
  }
  out.messages = r.messages;
  return out;
}

void to_json(nlohmann::json& j, const WriteCacheState& s) { j = record_of(s); }

void to_json(nlohmann::json& j, const WriteCacheReapply& r) {
  j = {{"found_enabled", r.found ? nlohmann::json(*r.found) : nlohmann::json(nullptr)}, {"read_back", r.read_back}};
}

void to_json(nlohmann::json& j, const WriteCacheAfterPurge& r) {
  to_json(j, r.reapply);
  j["requested_enabled"] = r.requested_enabled;
}

void to_json(nlohmann::json& j, const WriteCacheRecord& r) { j = record_of(r); }

}  // namespace ptsuite::device
