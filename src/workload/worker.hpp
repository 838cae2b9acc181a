// Private: one worker thread of run_workload(). It owns an IoQueue and the thread's generators
// and runs the stage -> fill -> flush -> reap loop until its share of the limits is reached,
// the deadline passes, the run is stopped, or an IO fails. It shares nothing with the other
// workers on the hot path except two flags it reads with relaxed loads once per loop.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <ptsuite/engine/io_queue.hpp>
#include <ptsuite/stats/live_counters.hpp>
#include <ptsuite/workload/data_fill.hpp>
#include <ptsuite/workload/io_generator.hpp>
#include <ptsuite/workload/rate_limiter.hpp>
#include <ptsuite/workload/workload_runner.hpp>

namespace ptsuite::workload::detail {

// Flags every worker reads (relaxed) once per loop iteration.
struct StopFlags {
  const std::atomic<bool>* requested = nullptr;  // SIGINT/SIGTERM; may be null
  std::atomic<bool> abort{false};                // set by every worker that hits an IO error
  std::atomic<int> first_failed_thread{-1};      // index of the first such worker
  // The interval series' boundaries so far: the sampler adds one per interval it records; each
  // worker closes its interval histogram when it sees the count move (interval_buckets()).
  std::atomic<uint64_t> interval_epoch{0};
};

struct WorkerLimits {
  uint64_t deadline_ns = UINT64_MAX;  // absolute CLOCK_MONOTONIC
  uint64_t ios = UINT64_MAX;          // this thread's share
  uint64_t bytes = UINT64_MAX;
};

class Worker {
 public:
  Worker(const ResolvedWorkload& workload, const engine::Target& target, uint32_t index,
         uint64_t sequential_cursor_bytes);

  // Called on the worker thread before run(), outside the measured time: binds the queue's
  // engine to this thread (io_uring's single-issuer ring).
  void bind_to_current_thread() noexcept { m_queue->bind_to_current_thread(); }

  // The thread body. Never throws; always drains, then retires the queue (below).
  void run(uint64_t start_ns, const WorkerLimits& limits, StopFlags& flags) noexcept;

  // Keeps the queue's final statistics and error record and destroys the queue, on the
  // calling (worker) thread. io_destroy blocks for a kernel RCU grace period (~30 ms here);
  // retiring every queue on its own thread makes those waits overlap instead of adding up on
  // the main thread (TC 32 would otherwise cost ~1 s per segment). Idempotent.
  void retire() noexcept;

  [[nodiscard]] const stats::LiveCounters& live() const noexcept { return m_live; }
  // Valid after run() (the queue is retired by then).
  [[nodiscard]] const stats::IoStats& stats() const noexcept { return m_stats; }
  [[nodiscard]] StopReason stop_reason() const noexcept { return m_reason; }
  [[nodiscard]] uint64_t submit_calls() const noexcept { return m_submit_calls; }
  [[nodiscard]] uint64_t end_ns() const noexcept { return m_end_ns; }  // last completion; 0 = none
  [[nodiscard]] uint64_t sequential_cursor_bytes() const noexcept { return m_generator.sequential_cursor_bytes(); }
  // The first error of this thread: the queue's record, or a failure the queue could not
  // attribute to one IO (a failed reap or submit with nothing recorded).
  [[nodiscard]] std::optional<engine::IoErrorRecord> first_error() const noexcept;
  [[nodiscard]] uint64_t error_count() const noexcept;

  // spec.interval_ns > 0: this thread's latency histogram of each interval k of the sampler's
  // series (StopFlags::interval_epoch; the last one from the sampler's last boundary to the
  // thread's last completion), per direction [read, write], as sparse (bucket index, count)
  // pairs: the differences of its cumulative histograms at each boundary it sees, taken off the
  // hot path (after a reap, as the live counters are published). Valid after run().
  // Besides the buckets, each interval's exact latency moments per direction: its largest
  // response time (from the queue's completion observer) and its count, sum and sum of squares
  // (differences of the cumulative moments), for the series' max and stddev.
  struct IntervalBuckets {
    std::vector<std::pair<size_t, uint64_t>> direction[2];
    stats::LatencyMoments moments[2];  // min_ns not kept
  };
  [[nodiscard]] const std::vector<IntervalBuckets>& interval_buckets() const noexcept { return m_intervals; }

 private:
  void publish() noexcept { m_live.publish(m_queue->live_totals()); }
  // Closes the interval that ends now (interval_buckets()).
  void close_interval() noexcept;
  // Closes every interval the sampler has ended (up to `epoch` of them).
  void close_intervals_until(uint64_t epoch) noexcept {
    while (m_interval_ns != 0 && m_intervals.size() < epoch) {
      close_interval();
    }
  }
  void report_failure(StopFlags& flags) noexcept;
  void end_run(engine::IoQueue& q, StopFlags& flags, uint64_t ios_issued) noexcept;

  uint32_t m_index;
  std::unique_ptr<engine::IoQueue> m_queue;  // null once retired
  stats::IoStats m_stats;                    // the queue's statistics, kept by retire()
  std::optional<engine::IoErrorRecord> m_queue_error;
  uint64_t m_queue_error_count = 0;
  uint64_t m_submit_calls = 0;  // kept by retire()
  IoGenerator m_generator;
  DataFiller m_filler;
  RateLimiter m_limiter;
  uint32_t m_submit_batch = 0;  // WorkloadSpec::submit_batch
  stats::LiveCounters m_live;
  StopReason m_reason = StopReason::duration;
  uint64_t m_end_ns = 0;
  int m_unattributed_errno = 0;  // positive errno of a failure without an IoErrorRecord
  uint64_t m_interval_ns = 0;
  std::vector<stats::LatencyHistogram> m_interval_base;  // [read, write] at the last boundary
  stats::LatencyMoments m_moments_base[2];               // [read, write] at the last boundary
  // The largest response time per direction since the last boundary: told of every completion
  // by the queue (set only when spec.interval_ns > 0), on this worker's thread.
  struct OpenIntervalMax final : engine::CompletionObserver {
    uint64_t max_ns[2] = {0, 0};
    void completed(uint32_t, engine::IoOp op, uint32_t, uint64_t latency_ns) noexcept override {
      uint64_t& m = max_ns[op == engine::IoOp::read ? 0 : 1];
      m = latency_ns > m ? latency_ns : m;
    }
  };
  OpenIntervalMax m_open_max;
  std::vector<IntervalBuckets> m_intervals;
};

}  // namespace ptsuite::workload::detail
