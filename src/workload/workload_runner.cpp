// run_workload(): builds one Worker per thread (queues and engines are opened here, on the
// calling thread, so setup errors throw before any IO), starts them together, samples their
// live counters for progress and the interval series, joins them, and merges their results.
#include <ptsuite/workload/stall_detector.hpp>
#include <ptsuite/workload/workload_runner.hpp>

#include <fmt/format.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <thread>

#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>

#include "workload/wake_signal.hpp"
#include "workload/worker.hpp"

namespace ptsuite::workload {

namespace {

using detail::StopFlags;
using detail::Worker;
using detail::WorkerLimits;

constexpr uint64_t k_never = std::numeric_limits<uint64_t>::max();

stats::LiveTotals sum_live(const std::vector<std::unique_ptr<Worker>>& workers) {
  stats::LiveTotals sum;
  for (const auto& w : workers) {
    const stats::LiveTotals t = w->live().load();
    for (int d = 0; d < 2; ++d) {
      sum.ios[d] += t.ios[d];
      sum.bytes[d] += t.bytes[d];
      sum.latency_sum_ns[d] += t.latency_sum_ns[d];
    }
  }
  return sum;
}

IntervalSample difference(const stats::LiveTotals& now, const stats::LiveTotals& before, uint64_t end_offset_ns) {
  IntervalSample s;
  s.end_offset_ns = end_offset_ns;
  for (int d = 0; d < 2; ++d) {
    s.ios[d] = now.ios[d] - before.ios[d];
    s.bytes[d] = now.bytes[d] - before.bytes[d];
    s.latency_sum_ns[d] = now.latency_sum_ns[d] - before.latency_sum_ns[d];
  }
  return s;
}

uint64_t total_ios(const stats::LiveTotals& t) { return t.ios[0] + t.ios[1]; }
uint64_t total_bytes(const stats::LiveTotals& t) { return t.bytes[0] + t.bytes[1]; }

// The workers' histograms of intervals [from, to) of direction d, merged.
stats::LatencyHistogram merged_buckets(const std::vector<std::unique_ptr<Worker>>& workers, size_t from, size_t to,
                                       int d) {
  stats::LatencyHistogram merged;
  for (const auto& w : workers) {
    const auto& buckets = w->interval_buckets();
    for (size_t k = from; k < std::min(to, buckets.size()); ++k) {
      for (const auto& [index, n] : buckets[k].direction[d]) {
        merged.record_n(stats::LatencyHistogram::bucket_lower_ns(index), n);
      }
    }
  }
  return merged;
}

// The workers' latency moments of intervals [from, to) of direction d, merged (count, sums, max).
stats::LatencyMoments merged_moments(const std::vector<std::unique_ptr<Worker>>& workers, size_t from, size_t to,
                                     int d) {
  stats::LatencyMoments merged;
  for (const auto& w : workers) {
    const auto& buckets = w->interval_buckets();
    for (size_t k = from; k < std::min(to, buckets.size()); ++k) {
      merged.merge(buckets[k].moments[d]);
    }
  }
  return merged;
}

// The 99 % of each sampled interval per direction, from the workers' histograms of the same
// interval (Worker::interval_buckets(): index i = the sampler's interval i, each worker closing
// its own when it next sees the sampler's boundary). The last sample (the tail, into which
// finish() folded any samples taken after the stop) takes every worker interval from its index
// on. A thread that reaped just across a boundary puts those IOs in its neighbouring interval:
// a sample with IOs whose own histograms are empty takes its neighbours' (never a 99 % of 0).
void attach_p99(std::vector<IntervalSample>& samples, const std::vector<std::unique_ptr<Worker>>& workers) {
  for (size_t i = 0; i < samples.size(); ++i) {
    const size_t end = i + 1 == samples.size() ? SIZE_MAX : i + 1;
    for (int d = 0; d < 2; ++d) {
      stats::LatencyHistogram merged = merged_buckets(workers, i, end, d);
      stats::LatencyMoments moments = merged_moments(workers, i, end, d);
      if (merged.total_count() == 0 && samples[i].ios[d] > 0) {
        merged = merged_buckets(workers, i > 0 ? i - 1 : 0, i + 2, d);
        moments = merged_moments(workers, i > 0 ? i - 1 : 0, i + 2, d);
      }
      samples[i].p99_ns[d] = merged.value_at_percentile_ns(99);
      samples[i].max_ns[d] = moments.count > 0 ? moments.max_ns : 0;
      samples[i].stddev_ns[d] = moments.stddev_ns();
    }
    samples[i].has_p99 = true;
  }
}

// Samples the workers while they run: the interval series and the progress callback. Runs on
// the calling thread and sleeps on `done` between events.
class Sampler {
 public:
  Sampler(const ResolvedWorkload& w, const RunControl& control, const std::vector<std::unique_ptr<Worker>>& workers,
          uint64_t start_ns, StopFlags& flags)
      : m_w(w), m_control(control), m_workers(workers), m_flags(flags), m_start_ns(start_ns), m_stall(start_ns) {
    if (w.spec.interval_ns > 0) {
      m_next_interval = start_ns + w.spec.interval_ns;
    }
    if (control.on_progress && control.progress_interval_ns > 0) {
      m_next_progress = start_ns + control.progress_interval_ns;
    }
    m_last_progress_ns = start_ns;
  }

  [[nodiscard]] uint64_t next_event_ns() const { return std::min(m_next_interval, m_next_progress); }

  void sample(uint64_t now) {
    const stats::LiveTotals totals = sum_live(m_workers);
    m_stall.observe(total_ios(totals), now);
    if (now >= m_next_interval) {
      m_intervals.push_back(difference(totals, m_interval_base, now - m_start_ns));
      m_flags.interval_epoch.fetch_add(1, std::memory_order_relaxed);  // workers close theirs
      m_interval_base = totals;
      while (m_next_interval <= now) {
        m_next_interval += m_w.spec.interval_ns;
      }
    }
    if (now >= m_next_progress) {
      report_progress(totals, now);
      while (m_next_progress <= now) {
        m_next_progress += m_control.progress_interval_ns;
      }
    }
  }

  // The last, partial interval, from the exact final totals, ending at the run's measured end
  // (`elapsed_ns`, when the last worker reaped its last IO). Samples taken after that, while
  // the workers retire their IO contexts (io_destroy waits tens of ms), are folded into it:
  // they would otherwise show as intervals of ~0 IOPS past the end of the run. The series
  // therefore ends at elapsed_ns and sums to the totals exactly.
  std::vector<IntervalSample> finish(const stats::LiveTotals& final_totals, uint64_t elapsed_ns) {
    if (m_w.spec.interval_ns == 0) {
      return {};
    }
    IntervalSample tail = difference(final_totals, m_interval_base, elapsed_ns);
    while (!m_intervals.empty() && m_intervals.back().end_offset_ns > elapsed_ns) {
      const IntervalSample& late = m_intervals.back();
      for (int d = 0; d < 2; ++d) {
        tail.ios[d] += late.ios[d];
        tail.bytes[d] += late.bytes[d];
        tail.latency_sum_ns[d] += late.latency_sum_ns[d];
      }
      m_intervals.pop_back();
    }
    if (tail.ios[0] + tail.ios[1] > 0) {
      m_intervals.push_back(tail);
    }
    return std::move(m_intervals);
  }

 private:
  void report_progress(const stats::LiveTotals& totals, uint64_t now) {
    Progress p;
    p.elapsed_ns = now - m_start_ns;
    p.bytes_done = total_bytes(totals);
    const double dt_s = static_cast<double>(now - m_last_progress_ns) / 1e9;
    if (dt_s > 0) {
      p.live_iops = static_cast<double>(total_ios(totals) - total_ios(m_progress_base)) / dt_s;
      p.live_mb_per_s = static_cast<double>(total_bytes(totals) - total_bytes(m_progress_base)) / dt_s / 1e6;
    }
    p.expected_ns = expected_ns(totals, p.elapsed_ns);
    p.stalled_ns = m_stall.stalled_ns(now);
    m_progress_base = totals;
    m_last_progress_ns = now;
    m_control.on_progress(p);
  }

  // The run's expected length: the duration limit, or the time at which the IO or byte limit
  // is reached at the average rate so far, whichever comes first; 0 when unknown.
  [[nodiscard]] uint64_t expected_ns(const stats::LiveTotals& totals, uint64_t elapsed_ns) const {
    uint64_t expected = m_w.spec.limits.duration_ns != 0 ? m_w.spec.limits.duration_ns : k_never;
    auto extrapolate = [&](uint64_t done, uint64_t limit) {
      if (limit != 0 && done > 0) {
        const double total = static_cast<double>(elapsed_ns) * static_cast<double>(limit) / static_cast<double>(done);
        expected = std::min(expected, static_cast<uint64_t>(std::min(total, 1.8e19)));
      }
    };
    extrapolate(total_ios(totals), m_w.spec.limits.ios);
    extrapolate(total_bytes(totals), m_w.byte_limit);
    return expected == k_never ? 0 : expected;
  }

  const ResolvedWorkload& m_w;
  const RunControl& m_control;
  const std::vector<std::unique_ptr<Worker>>& m_workers;
  StopFlags& m_flags;
  uint64_t m_start_ns;
  uint64_t m_next_interval = k_never;
  uint64_t m_next_progress = k_never;
  uint64_t m_last_progress_ns;
  stats::LiveTotals m_interval_base;
  stats::LiveTotals m_progress_base;
  std::vector<IntervalSample> m_intervals;
  StallDetector m_stall;
};

void pin(std::thread& thread, int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  const int rc = pthread_setaffinity_np(thread.native_handle(), sizeof(set), &set);
  if (rc != 0) {
    throw SystemError(fmt::format("pthread_setaffinity_np to CPU {}", cpu), rc);
  }
}

// Among the workers' reasons: an IO error wins, then an interruption, else the reason of the
// thread that finished last (the run ended when it did).
StopReason overall_reason(const std::vector<std::unique_ptr<Worker>>& workers) {
  StopReason reason = StopReason::duration;
  uint64_t last_end = 0;
  bool interrupted = false;
  for (const auto& w : workers) {
    if (w->stop_reason() == StopReason::io_error) {
      return StopReason::io_error;
    }
    interrupted = interrupted || w->stop_reason() == StopReason::interrupted;
    if (w->end_ns() >= last_end) {
      last_end = w->end_ns();
      reason = w->stop_reason();
    }
  }
  return interrupted ? StopReason::interrupted : reason;
}

}  // namespace

CpuUsage process_cpu() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  auto seconds = [](const timeval& tv) {
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
  };
  return {seconds(ru.ru_utime), seconds(ru.ru_stime)};
}

const char* to_string(StopReason reason) noexcept {
  switch (reason) {
    case StopReason::duration:
      return "duration";
    case StopReason::bytes:
      return "bytes";
    case StopReason::ios:
      return "ios";
    case StopReason::io_error:
      return "io_error";
    case StopReason::interrupted:
      return "interrupted";
  }
  return "duration";
}

WorkloadResult run_workload(const ResolvedWorkload& workload, const engine::Target& target, const RunControl& control,
                            WorkloadState* state) {
  const WorkloadSpec& spec = workload.spec;
  if (workload.writes && target.access() != engine::Target::Access::read_write) {
    throw SystemError(fmt::format("{} was opened read-only but the workload writes", target.path()));
  }
  const bool resume = state != nullptr && !state->sequential_cursor_bytes.empty();
  if (resume && state->sequential_cursor_bytes.size() != spec.threads) {
    throw Error(ExitCode::system, fmt::format("cannot resume: the saved state has {} thread cursors, the workload "
                                              "has {} threads",
                                              state->sequential_cursor_bytes.size(), spec.threads));
  }

  detail::install_wake_handler();
  std::vector<std::unique_ptr<Worker>> workers;
  workers.reserve(spec.threads);
  for (uint32_t t = 0; t < spec.threads; ++t) {
    workers.push_back(std::make_unique<Worker>(workload, target, t, resume ? state->sequential_cursor_bytes[t] : 0));
  }

  StopFlags flags;
  flags.requested = control.stop_requested;
  std::mutex mutex;
  std::condition_variable cv;
  uint32_t running = spec.threads;
  bool go = false;
  bool cancelled = false;
  uint64_t start_ns = 0;

  std::vector<std::thread> threads;
  threads.reserve(spec.threads);
  auto join_all = [&] {
    for (std::thread& th : threads) {
      th.join();
    }
  };
  auto release = [&](bool cancel) {
    const std::lock_guard lock(mutex);
    cancelled = cancel;
    go = true;
    start_ns = monotonic_ns();
    cv.notify_all();
  };
  for (uint32_t t = 0; t < spec.threads; ++t) {
    WorkerLimits limits;
    if (spec.limits.ios != 0) {
      limits.ios = thread_share(spec.limits.ios, spec.threads, t);
    }
    if (workload.byte_limit != 0) {
      limits.bytes = thread_share(workload.byte_limit, spec.threads, t);
    }
    Worker* worker = workers[t].get();
    threads.emplace_back([&, worker, limits]() mutable {
      worker->bind_to_current_thread();
      uint64_t start = 0;
      {
        std::unique_lock lock(mutex);
        cv.wait(lock, [&] { return go; });
        start = start_ns;
        if (cancelled) {
          --running;
          cv.notify_all();
          return;
        }
      }
      if (spec.limits.duration_ns != 0) {
        limits.deadline_ns = start + spec.limits.duration_ns;
      }
      worker->run(start, limits, flags);
      const std::lock_guard lock(mutex);
      --running;
      cv.notify_all();
    });
  }
  try {
    for (uint32_t t = 0; t < spec.threads && !spec.cpus.empty(); ++t) {
      pin(threads[t], spec.cpus[t % spec.cpus.size()]);
    }
  } catch (...) {
    release(true);
    join_all();
    throw;
  }

  const CpuUsage cpu_before = process_cpu();
  release(false);
  Sampler sampler(workload, control, workers, start_ns, flags);
  detail::WaitInterrupter interrupter(start_ns, spec.limits.duration_ns, flags, threads);
  try {
    std::unique_lock lock(mutex);
    while (running > 0) {
      const uint64_t wake = std::min(sampler.next_event_ns(), interrupter.next_check_ns());
      const auto deadline = std::chrono::steady_clock::time_point(std::chrono::nanoseconds(wake));
      if (cv.wait_until(lock, deadline, [&] { return running == 0; })) {
        break;
      }
      lock.unlock();
      const uint64_t now = monotonic_ns();
      if (now >= sampler.next_event_ns()) {
        sampler.sample(now);
      }
      interrupter.check(now);
      lock.lock();
    }
  } catch (...) {
    // A throwing progress callback: stop the workers, then let the exception through.
    flags.abort.store(true, std::memory_order_relaxed);
    join_all();
    throw;
  }
  join_all();
  const CpuUsage cpu_after = process_cpu();

  WorkloadResult result;
  result.cpu = {cpu_after.user_s - cpu_before.user_s, cpu_after.system_s - cpu_before.system_s};
  uint64_t end_ns = 0;
  for (const auto& w : workers) {
    result.stats.merge(w->stats());
    end_ns = std::max(end_ns, w->end_ns());
    result.error_count += w->error_count();
    result.submit_calls += w->submit_calls();
    result.end_state.sequential_cursor_bytes.push_back(
        spec.pattern == AccessPattern::sequential ? w->sequential_cursor_bytes() : 0);
  }
  const int first_failed = flags.first_failed_thread.load();
  if (first_failed >= 0) {
    result.first_error = workers[static_cast<size_t>(first_failed)]->first_error();
  }
  result.elapsed_ns = end_ns > start_ns ? end_ns - start_ns : 0;
  result.stop_reason = overall_reason(workers);
  result.intervals = sampler.finish(sum_live(workers), result.elapsed_ns);
  attach_p99(result.intervals, workers);
  if (state != nullptr) {
    *state = result.end_state;
  }
  return result;
}

}  // namespace ptsuite::workload
