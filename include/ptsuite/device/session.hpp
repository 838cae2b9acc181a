// Contract: ONE device session per target and run. It passes the safety gate, identifies the
// target, and takes the kernel's exclusive claim once (block devices: O_RDWR | O_EXCL, which
// also keeps anyone from mounting the device while the run holds it; regular files: a plain
// O_RDWR open). Every device operation of the run goes through that claim: write cache,
// purge, health. The workload's own O_DIRECT opens are plain (non-exclusive) opens, which the
// kernel allows next to our claim. Asking for a second exclusive claim from the same process
// fails with EBUSY, which is why nothing below re-opens the device destructively.
//
// Lifecycle: open() -> apply_write_cache() -> {purge(), reapply_write_cache(), health()}* ->
// restore_write_cache() (also run by the destructor, which never throws) -> destroyed (the
// claim is released). Purge checks (gate, consent, --confirm-serial, method choice, sibling
// namespaces) run at every purge, as device::purge() does them (prepare_purge()).
// Not thread-safe: one thread (the run's) uses a session.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <ptsuite/device/health.hpp>
#include <ptsuite/device/identity.hpp>
#include <ptsuite/device/passthrough.hpp>
#include <ptsuite/device/purge.hpp>
#include <ptsuite/device/safety.hpp>
#include <ptsuite/device/write_cache.hpp>

namespace ptsuite::device {

struct SessionOptions {
  bool allow_destructive = false;  // consent; our own scratch targets pass true
  SystemRoots roots;
};

class DeviceSession {
 public:
  // Gate, identity, claim. Throws SafetyRefusal (exit 3) from the gate, SystemError (exit 5)
  // when the claim fails (the message names the processes that have the device open).
  // `target`: the target gate's token (device/target_gate.hpp: pass_target_gate()).
  static std::unique_ptr<DeviceSession> open(const WritableTarget& target, const SessionOptions& options);
  // A session over a given channel (tests: a fake pass-through); the gate is not run.
  DeviceSession(std::unique_ptr<Passthrough> channel, DeviceIdentity identity, SessionOptions options);
  ~DeviceSession();
  DeviceSession(const DeviceSession&) = delete;
  DeviceSession& operator=(const DeviceSession&) = delete;

  [[nodiscard]] const DeviceIdentity& identity() const noexcept { return m_identity; }
  [[nodiscard]] Passthrough& channel() noexcept { return *m_channel; }

  // The write cache as it is now (read-only; not applicable states for targets without one).
  [[nodiscard]] WriteCacheState read_write_cache_state();
  // Sets the profile's write-cache state and reads it back (see WriteCacheSession). A
  // partition target is never changed: its cache is the whole disk's, which ptsuite only
  // changes when handed the whole device (recorded as not applicable, with that reason).
  const WriteCacheRecord& apply_write_cache(bool enabled, std::optional<bool> known_original = std::nullopt);
  // After a purge: the requested state set again where the purge reset it, and read back.
  // Before apply_write_cache(): nothing to re-apply (an empty, not-applicable result).
  WriteCacheReapply reapply_write_cache();
  // Puts the original state back; the record then holds the restored state. Throws
  // SystemError when the device refuses (the destructor records that instead).
  void restore_write_cache();
  [[nodiscard]] std::optional<WriteCacheRecord> write_cache_record() const;

  // device::purge() on the held claim: prepare_purge() (gate, consent, serial, method,
  // sibling namespaces), then purge_via() on this session's channel.
  PurgeRecord purge(const PurgeOptions& options);
  // One health snapshot (read-only commands on the held claim; sysfs-only targets as
  // read_health(path) reads them).
  HealthSnapshot health();

 private:
  [[nodiscard]] bool has_device_commands() const;

  std::unique_ptr<Passthrough> m_channel;
  DeviceIdentity m_identity;
  SessionOptions m_options;
  std::unique_ptr<WriteCacheSession> m_write_cache;
  std::optional<WriteCacheRecord> m_not_applicable_cache;  // partitions, loop, zram, files
};

}  // namespace ptsuite::device
