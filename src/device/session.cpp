#include <ptsuite/device/session.hpp>

#include <fmt/format.h>

#include <ptsuite/util/error.hpp>

namespace ptsuite::device {

std::unique_ptr<DeviceSession> DeviceSession::open(const WritableTarget& target, const SessionOptions& options) {
  require_destructive_allowed(target.path(), options.allow_destructive, options.roots);
  DeviceIdentity identity = identify(target.path(), options.roots);
  // open_destructive_channel runs the gate again and takes the O_EXCL claim.
  std::unique_ptr<Passthrough> channel = open_destructive_channel(target, options.allow_destructive, options.roots);
  return std::make_unique<DeviceSession>(std::move(channel), std::move(identity), options);
}

DeviceSession::DeviceSession(std::unique_ptr<Passthrough> channel, DeviceIdentity identity, SessionOptions options)
    : m_channel(std::move(channel)), m_identity(std::move(identity)), m_options(std::move(options)) {}

DeviceSession::~DeviceSession() = default;  // WriteCacheSession's destructor restores; never throws

bool DeviceSession::has_device_commands() const {
  const Transport t = m_identity.transport;
  return !m_identity.is_partition && (t == Transport::nvme || t == Transport::ata || t == Transport::scsi);
}

WriteCacheState DeviceSession::read_write_cache_state() {
  return has_device_commands() ? read_write_cache(*m_channel, m_identity) : write_cache_not_applicable(m_identity);
}

const WriteCacheRecord& DeviceSession::apply_write_cache(bool enabled, std::optional<bool> known_original) {
  if (has_device_commands()) {
    m_write_cache = std::make_unique<WriteCacheSession>(*m_channel, m_identity, enabled, known_original);
    return m_write_cache->record();
  }
  WriteCacheRecord rec;
  rec.requested_enabled = enabled;
  rec.original = write_cache_not_applicable(m_identity);
  if (m_identity.is_partition) {
    rec.original.mechanism = "none";
    rec.original.note = fmt::format(
        "not changed: {} is a partition, and its write cache is the whole disk's ({}); ptsuite changes it only "
        "when given the whole device",
        m_identity.path, m_identity.device_path);
  }
  rec.applied = rec.original;
  rec.messages.push_back(rec.original.note);
  m_not_applicable_cache = rec;
  return *m_not_applicable_cache;
}

WriteCacheReapply DeviceSession::reapply_write_cache() {
  if (m_write_cache) return m_write_cache->reapply();
  WriteCacheReapply out;
  if (m_not_applicable_cache) out.read_back = m_not_applicable_cache->applied;
  return out;
}

void DeviceSession::restore_write_cache() {
  if (m_write_cache) m_write_cache->restore();
}

std::optional<WriteCacheRecord> DeviceSession::write_cache_record() const {
  if (m_write_cache) return m_write_cache->record();
  return m_not_applicable_cache;
}

PurgeRecord DeviceSession::purge(const PurgeOptions& options) {
  PurgeOptions opts = options;
  opts.roots = m_options.roots;
  (void)prepare_purge(m_identity, opts);
  return purge_via(*m_channel, m_identity, opts);
}

HealthSnapshot DeviceSession::health() {
  if (has_device_commands()) return read_health(*m_channel, m_identity);
  return read_health(m_identity.path, m_identity);
}

}  // namespace ptsuite::device
