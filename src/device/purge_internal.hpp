// Private: the state one purge run shares between the method implementations
// (purge_nvme.cpp, purge_ata.cpp, purge_scsi.cpp, purge_block.cpp).
#pragma once

#include <cstdint>
#include <string>

#include <ptsuite/device/purge.hpp>

namespace ptsuite::device::detail {

class PurgeContext {
 public:
  PurgeContext(Passthrough& channel, const DeviceIdentity& id, const PurgeOptions& options, const PurgeClock& clock,
               PurgeRecord& record, uint64_t default_timeout_ns);

  Passthrough& channel;
  const DeviceIdentity& id;
  const PurgeOptions& options;
  PurgeRecord& record;

  void message(const std::string& line);
  // Records (throttled to 1 % steps) and reports progress.
  void progress(double fraction, const std::string& note);
  [[nodiscard]] uint64_t elapsed_ns() const;
  [[nodiscard]] bool timed_out() const { return elapsed_ns() >= m_timeout_ns; }
  [[nodiscard]] uint64_t timeout_ns() const { return m_timeout_ns; }
  // For a single blocking command: the timeout in ms (saturated to uint32).
  [[nodiscard]] uint32_t timeout_ms() const;
  void sleep_poll_interval() const;
  void finish(PurgeOutcome outcome, const std::string& last_message);

 private:
  const PurgeClock& m_clock;
  uint64_t m_start_ns;
  uint64_t m_timeout_ns;
  double m_last_fraction = -2.0;
  std::string m_last_note;
};

void run_nvme_format(PurgeContext& ctx);
void run_nvme_sanitize(PurgeContext& ctx, PurgeMethod method);
void run_ata_security_erase(PurgeContext& ctx);
void run_ata_sanitize(PurgeContext& ctx, PurgeMethod method);
void run_scsi_sanitize(PurgeContext& ctx);
void run_scsi_format(PurgeContext& ctx);
// Discard / secure discard / zero-fill over the whole target; `chain` (auto fallback) moves
// on to the next fallback when the device does not support one.
void run_block_fallback(PurgeContext& ctx, PurgeMethod method, bool chain);

// Per-method default timeouts.
uint64_t default_timeout_ns(PurgeMethod method, const DeviceIdentity& id);

}  // namespace ptsuite::device::detail
