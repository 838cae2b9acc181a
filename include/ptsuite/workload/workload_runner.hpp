// Contract: runs one resolved workload on an open target with TC threads x QD IOs in flight
// and returns exact measurements. This is the primitive every PTS segment stands on.
//
//   * Threads: spec.threads workers, each with its own IoQueue/engine and per-thread RNG
//     streams derived from spec.seed and the thread index (same seed => same offsets, sizes,
//     directions and data per thread). Optional CPU pinning.
//   * Limits: duration, bytes and IO count are split evenly across threads (no shared counter
//     on the hot path); rate limits likewise.
//   * Sequential pattern: thread i owns the i-th contiguous slice of the active range and
//     wraps inside it. Its position lives in WorkloadState, so a caller that passes the same
//     state to consecutive runs of the same workload resumes where the previous run stopped.
//   * Stop: at a limit, on the first IO error (recorded: errno, op, offset, length), or when
//     control.stop_requested becomes true (SIGINT/SIGTERM handlers set it). In-flight IO is
//     always drained; what was measured is returned, never dropped.
//   * Safety is NOT checked here: callers gate writes through device::require_destructive_allowed.
// run_workload() itself blocks until the run ends; it calls control.on_progress from the
// calling thread about every control.progress_interval_ns.
//   * Setup (engines, queues, pinning) happens before the first IO and throws (UsageError,
//     SystemError); a WorkloadState whose cursor count differs from spec.threads is refused
//     with exit code 5. During the run nothing throws: outcomes are in WorkloadResult.
//   * CPU: getrusage(RUSAGE_SELF) over the run (all threads of the process).
//   * Intervals (spec.interval_ns > 0): sampled by the calling thread from the workers'
//     LiveCounters (published at most every 1 ms); the last partial interval comes from the
//     exact totals, so the series sums to `stats`.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <ptsuite/engine/io_queue.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/stats/latency_stats.hpp>
#include <ptsuite/workload/workload_spec.hpp>

namespace ptsuite::workload {

struct WorkloadState {
  std::vector<uint64_t> sequential_cursor_bytes;  // per thread, relative to its slice start
};

struct CpuUsage {
  double user_s = 0;
  double system_s = 0;
};

// The process's CPU time so far (getrusage(RUSAGE_SELF): every thread), user and system.
// A run's CPU cost is process_cpu() after minus before (the real and the simulated runners).
CpuUsage process_cpu();

// One per-interval sample (spec.interval_ns > 0): totals over all threads for that interval.
struct IntervalSample {
  uint64_t end_offset_ns = 0;  // from the start of the run
  uint64_t ios[2] = {0, 0};    // [0] read, [1] write
  uint64_t bytes[2] = {0, 0};
  uint64_t latency_sum_ns[2] = {0, 0};
  // The interval's 99th-percentile response time per direction (0: no IO in that direction),
  // from the workers' per-interval histograms; has_p99 false when not computed.
  uint64_t p99_ns[2] = {0, 0};
  // The interval's largest response time and its standard deviation (sample, n - 1) per
  // direction, exact (the workers' completion maxima and latency moments of the same interval
  // as the 99 %); 0 with no IO (stddev 0 below 2 IOs). Set with the 99 % (has_p99).
  uint64_t max_ns[2] = {0, 0};
  double stddev_ns[2] = {0, 0};
  bool has_p99 = false;
};

enum class StopReason { duration, bytes, ios, io_error, interrupted };
const char* to_string(StopReason reason) noexcept;

struct Progress {
  uint64_t elapsed_ns = 0;
  uint64_t expected_ns = 0;  // run length: the duration, or extrapolated from the byte/IO limit
                             // at the average rate so far (whichever is sooner); 0 = unknown
  double live_iops = 0;      // over the last progress interval
  double live_mb_per_s = 0;
  uint64_t bytes_done = 0;
  uint64_t stalled_ns = 0;  // time since the last IO completed (stall_detector.hpp)
};

struct RunControl {
  const std::atomic<bool>* stop_requested = nullptr;  // may be null
  std::function<void(const Progress&)> on_progress;   // may be empty
  uint64_t progress_interval_ns = 1'000'000'000;
};

struct WorkloadResult {
  stats::IoStats stats;     // merged over threads
  uint64_t elapsed_ns = 0;  // common start of the workers to the last completion
  CpuUsage cpu;             // process CPU time over the run
  std::vector<IntervalSample> intervals;
  StopReason stop_reason = StopReason::duration;
  std::optional<engine::IoErrorRecord> first_error;
  uint64_t error_count = 0;
  uint64_t submit_calls = 0;  // engine submit() calls over all threads
  WorkloadState end_state;
  // A simulated run only: how far the run's clock advanced (the drain counted at the modelled
  // drive's speed, workload/sim_runner.hpp); unset for a real run, whose clock is elapsed_ns.
  std::optional<uint64_t> run_clock_ns;
};

WorkloadResult run_workload(const ResolvedWorkload& workload, const engine::Target& target, const RunControl& control,
                            WorkloadState* state = nullptr);

}  // namespace ptsuite::workload
