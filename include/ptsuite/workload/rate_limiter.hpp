// Contract: the pacing schedule of one rate-limited worker thread. Pure arithmetic, no clock:
// the runner asks when the next IO may be issued and waits (reaping completions or sleeping,
// never busy-polling) until then.
//
// Schedule: with per-thread rates R_io (IOs/s) and R_b (bytes/s), the next IO after
// `ios_issued` IOs totalling `bytes_issued` bytes may start at
//     start + max(ios_issued / R_io, bytes_issued / R_b)     (a limit of 0 is off)
// i.e. IO n (from 0) is due at n / R_io: a linear schedule anchored at the start (fio's
// rate_process=linear). A thread that falls behind (slow device) catches up at full speed, so
// the long-run average stays at the rate. Per-thread rates are the total divided by the
// thread count (for_thread()); MB/s are decimal (10^6 bytes).
#pragma once

#include <cstdint>

#include <ptsuite/workload/workload_spec.hpp>

namespace ptsuite::workload {

class RateLimiter {
 public:
  RateLimiter() = default;  // unlimited
  RateLimiter(double ios_per_s, double bytes_per_s) noexcept;

  // The share of thread-count `threads` of a total RateLimit.
  static RateLimiter for_thread(const RateLimit& total, uint32_t threads) noexcept;

  [[nodiscard]] bool enabled() const noexcept { return m_ios_per_s > 0 || m_bytes_per_s > 0; }

  // Offset from the start (ns) before which the next IO must not be issued.
  [[nodiscard]] uint64_t earliest_offset_ns(uint64_t ios_issued, uint64_t bytes_issued) const noexcept;

 private:
  double m_ios_per_s = 0;    // R_io; 0 = unlimited
  double m_bytes_per_s = 0;  // R_b;  0 = unlimited
};

}  // namespace ptsuite::workload
