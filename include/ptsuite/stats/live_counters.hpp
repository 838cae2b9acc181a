// Contract: counters a worker thread publishes for a sampling thread (progress line and
// per-interval series). Single writer (the worker) with relaxed stores of its own running
// totals, any number of readers with relaxed loads: no read-modify-write on the hot path.
// Readers see monotonically growing totals and diff consecutive samples.
#pragma once

#include <atomic>
#include <cstdint>

namespace ptsuite::stats {

struct LiveTotals {
  uint64_t ios[2] = {0, 0};  // [0] = read, [1] = write
  uint64_t bytes[2] = {0, 0};
  uint64_t latency_sum_ns[2] = {0, 0};
};

class alignas(64) LiveCounters {
 public:
  // Called by the owning worker only.
  void publish(const LiveTotals& totals) noexcept {
    for (int d = 0; d < 2; ++d) {
      m_ios[d].store(totals.ios[d], std::memory_order_relaxed);
      m_bytes[d].store(totals.bytes[d], std::memory_order_relaxed);
      m_latency_sum_ns[d].store(totals.latency_sum_ns[d], std::memory_order_relaxed);
    }
  }
  [[nodiscard]] LiveTotals load() const noexcept {
    LiveTotals t;
    for (int d = 0; d < 2; ++d) {
      t.ios[d] = m_ios[d].load(std::memory_order_relaxed);
      t.bytes[d] = m_bytes[d].load(std::memory_order_relaxed);
      t.latency_sum_ns[d] = m_latency_sum_ns[d].load(std::memory_order_relaxed);
    }
    return t;
  }

 private:
  std::atomic<uint64_t> m_ios[2] = {0, 0};
  std::atomic<uint64_t> m_bytes[2] = {0, 0};
  std::atomic<uint64_t> m_latency_sum_ns[2] = {0, 0};
};

}  // namespace ptsuite::stats
