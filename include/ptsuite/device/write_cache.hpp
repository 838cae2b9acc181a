// Contract: the device's volatile write cache, read and set the way the PTS profiles demand
// (PTS-E: disabled, WCD; PTS-C: enabled, WCE). NVMe: Get/Set Features 06h Volatile Write
// Cache (Base Spec 2.0 Set Features, Volatile Write Cache feature); ATA: IDENTIFY DEVICE words 82/85 bit 5 and SET
// FEATURES 02h/82h (ACS-3); SCSI: Caching mode page 08h WCE via MODE SENSE(10) / MODE SELECT(10) (SBC-3). Loop devices,
// zram, files and other devices have no device write cache that ptsuite can control: their state is "not applicable",
// recorded as such.
//
// Reading goes through a read-only channel; changing goes through a destructive channel (the
// run's DeviceSession, or open_destructive_channel: the safety gate and --allow-destructive),
// and never saves the setting across power cycles. WriteCacheSession applies a state on a
// given channel and restores the original when restore() is called or the session is
// destroyed (destruction never throws: a failed restore is recorded). Both states are in the
// WriteCacheRecord, for results.json.
#pragma once

#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/device/identity.hpp>
#include <ptsuite/device/passthrough.hpp>

namespace ptsuite::device {

struct WriteCacheState {
  bool applicable = false;      // the device has a write cache ptsuite can read/set
  std::optional<bool> enabled;  // nullopt when unknown
  std::string mechanism;        // "nvme-feature-06h", "ata-set-features", "scsi-caching-mode-page"
  std::string note;             // why not applicable / what failed
};

WriteCacheState read_write_cache(Passthrough& channel, const DeviceIdentity& id);
// The "not applicable" state of a target without a controllable cache (loop, zram, file,
// virtio ...), with the reason; sends nothing.
WriteCacheState write_cache_not_applicable(const DeviceIdentity& id);
WriteCacheState read_write_cache(const std::string& path, const SystemRoots& roots = {});
// Throws SystemError when the device rejects the change, UsageError when not applicable.
void set_write_cache(Passthrough& channel, const DeviceIdentity& id, bool enabled);

struct WriteCacheRecord {
  bool requested_enabled = false;
  WriteCacheState original;
  WriteCacheState applied;                  // as read back after setting
  std::optional<WriteCacheState> restored;  // after restore()
  std::vector<std::string> messages;
};

// One re-application of the requested state (after a purge): what was found, and the
// state read back after setting it again.
struct WriteCacheReapply {
  std::optional<bool> found;  // nullopt: unknown or not applicable
  WriteCacheState read_back;
};

// The write cache set again after a purge (results/purge.hpp "write_cache_after_purge"):
// {"requested_enabled", "found_enabled", "read_back"}.
struct WriteCacheAfterPurge {
  WriteCacheReapply reapply;
  bool requested_enabled = false;
};

class WriteCacheSession {
 public:
  // Reads the original state, sets `enabled` when applicable and reads it back. Uses the
  // given channel (which must outlive the session). `known_original` is the state an earlier,
  // interrupted session found (kill -9 leaves the device's volatile setting changed): restore()
  // then puts back that state, not the one read now.
  WriteCacheSession(Passthrough& channel, DeviceIdentity id, bool enabled,
                    std::optional<bool> known_original = std::nullopt);
  ~WriteCacheSession();
  WriteCacheSession(const WriteCacheSession&) = delete;
  WriteCacheSession& operator=(const WriteCacheSession&) = delete;

  // Reads the state, sets the requested one again when it differs (a purge may reset the
  // device's volatile settings) and reads it back. Not applicable: the applied state as is.
  // Throws SystemError when the device refuses the change.
  WriteCacheReapply reapply();
  // Puts the original state back (once); throws SystemError when the device refuses.
  void restore();
  [[nodiscard]] const WriteCacheRecord& record() const { return m_record; }

 private:
  void apply(bool enabled, std::optional<bool> known_original);

  Passthrough* m_channel;
  DeviceIdentity m_id;
  WriteCacheRecord m_record;
  bool m_restore_pending = false;
};

void to_json(nlohmann::json& j, const WriteCacheState& s);
void to_json(nlohmann::json& j, const WriteCacheRecord& r);
void to_json(nlohmann::json& j, const WriteCacheReapply& r);
void to_json(nlohmann::json& j, const WriteCacheAfterPurge& r);

}  // namespace ptsuite::device
