// Contract: detects a stalled workload: IO that should be running while no IO has completed for
// a while (a hung device, a lost completion). A device that never completes an IO cannot be
// abandoned from user space: the kernel owns the buffers until it finishes, so the run has to
// wait. What ptsuite can and must do is never wait SILENTLY: the sampler feeds this detector
// with the total of completed IOs, and the consoles (`ptsuite workload`, `ptsuite run`) print a
// warning once `stalled_ns()` passes k_stall_warning_ns, and again every k_stall_warning_ns.
// Pure value type; not thread-safe (the sampling thread owns it).
#pragma once

#include <cstdint>

namespace ptsuite::workload {

// Completions normally arrive within milliseconds; device timeouts (NVMe, SCSI) default to
// 30 s, so 10 s without a single completion is already abnormal on any device.
inline constexpr uint64_t k_stall_warning_ns = 10'000'000'000;

class StallDetector {
 public:
  explicit StallDetector(uint64_t start_ns) : m_last_change_ns(start_ns) {}

  // Called with the running total of completed IOs at time `now_ns`.
  void observe(uint64_t completed_ios, uint64_t now_ns) noexcept {
    if (completed_ios != m_last_total) {
      m_last_total = completed_ios;
      m_last_change_ns = now_ns;
    }
  }
  // Time since the total last changed (or since the start when nothing completed yet).
  [[nodiscard]] uint64_t stalled_ns(uint64_t now_ns) const noexcept {
    return now_ns > m_last_change_ns ? now_ns - m_last_change_ns : 0;
  }

 private:
  uint64_t m_last_total = 0;
  uint64_t m_last_change_ns;
};

}  // namespace ptsuite::workload
