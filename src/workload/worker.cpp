#include "workload/worker.hpp"

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <optional>

#include <ptsuite/engine/engine_registry.hpp>
#include <ptsuite/util/clock.hpp>

namespace ptsuite::workload::detail {

namespace {

// Longest timed wait (a pacing wait for the next due IO, or a sleep with nothing in flight),
// so a stop request or another thread's IO error is noticed within this time when the rate is
// low. Waits for completions have no timer at all (engine::k_no_timeout); run_workload()
// interrupts them when the run must end (wake_signal.hpp).
constexpr uint64_t k_max_wait_ns = 50'000'000;
// Live counters are published when at least this much time passed since the last publish
// (judged by the reap timestamps, no extra clock call): the sampling thread sees totals at
// most this stale, and a fast thread pays for a publish about once per millisecond.
constexpr uint64_t k_publish_interval_ns = 1'000'000;

// Submits the staged IOs when there are at least `at_least` (>= 1); 0 or a negative errno.
int flush_if(engine::IoQueue& q, uint32_t at_least) noexcept {
  return q.staged() >= at_least ? std::min(q.flush(), 0) : 0;
}

void sleep_until_ns(uint64_t deadline_ns) noexcept {
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(deadline_ns / 1'000'000'000ULL);
  ts.tv_nsec = static_cast<long>(deadline_ns % 1'000'000'000ULL);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
}

}  // namespace

Worker::Worker(const ResolvedWorkload& workload, const engine::Target& target, uint32_t index,
               uint64_t sequential_cursor_bytes)
    : m_index(index),
      m_queue(std::make_unique<engine::IoQueue>(engine::create_engine(workload.spec.engine), target,
                                                workload.spec.queue_depth,
                                                static_cast<uint32_t>(workload.max_block_bytes))),
      m_generator(workload, index, sequential_cursor_bytes),
      m_filler(workload.spec.data, workload.spec.seed, index, workload.max_block_bytes, workload.spec.queue_depth),
      m_limiter(RateLimiter::for_thread(workload.spec.rate, workload.spec.threads)),
      m_submit_batch(workload.spec.submit_batch),
      m_interval_ns(workload.spec.interval_ns) {
  if (m_interval_ns != 0) {
    m_interval_base.resize(2);
    m_queue->set_completion_observer(&m_open_max);
  }
}

void Worker::close_interval() noexcept {
  const stats::IoStats& now = m_queue->stats();
  const stats::LatencyHistogram* cumulative[2] = {&now.read.histogram, &now.write.histogram};
  IntervalBuckets out;
  for (int d = 0; d < 2; ++d) {
    for (const auto& [index, count] : cumulative[d]->nonzero_buckets()) {
      const uint64_t before = m_interval_base[d].count_at(index);
      if (count > before) out.direction[d].emplace_back(index, count - before);
    }
    m_interval_base[d] = *cumulative[d];
    const stats::LatencyMoments& total = d == 0 ? now.read.latency : now.write.latency;
    stats::LatencyMoments& m = out.moments[d];
    m.count = total.count - m_moments_base[d].count;
    m.sum_ns = total.sum_ns - m_moments_base[d].sum_ns;
    m.sum_sq_ns2 = total.sum_sq_ns2 - m_moments_base[d].sum_sq_ns2;
    m.max_ns = m_open_max.max_ns[d];
    m_moments_base[d] = total;
    m_open_max.max_ns[d] = 0;
  }
  m_intervals.push_back(std::move(out));
}

namespace {

// Why the loop stops before staging more IO (another worker's IO error, a stop request, the
// deadline), or nullopt to go on.
std::optional<StopReason> stop_before_staging(uint64_t now_ns, const WorkerLimits& limits,
                                              const StopFlags& flags) noexcept {
  if (flags.abort.load(std::memory_order_relaxed)) {
    return StopReason::io_error;
  }
  if (flags.requested != nullptr && flags.requested->load(std::memory_order_relaxed)) {
    return StopReason::interrupted;
  }
  if (now_ns >= limits.deadline_ns) {
    return StopReason::duration;
  }
  return std::nullopt;
}

}  // namespace

void Worker::run(uint64_t start_ns, const WorkerLimits& limits, StopFlags& flags) noexcept {
  engine::IoQueue& q = *m_queue;
  uint64_t now = start_ns;
  uint64_t last_publish = start_ns;
  uint64_t ios_issued = 0;
  uint64_t bytes_issued = 0;
  for (;;) {
    if (const std::optional<StopReason> stop = stop_before_staging(now, limits, flags)) {
      m_reason = *stop;
      break;
    }
    // Stage as many IOs as there are free slots, limits and the pacing schedule allow,
    // submitting every m_submit_batch of them (0: all at once, after the loop).
    bool limit_reached = false;
    int submit_failure = 0;
    uint64_t due_ns = 0;  // pacing: when the next IO may be issued (0 = not waiting)
    while (q.free_slots() > 0) {
      if (ios_issued >= limits.ios) {
        m_reason = StopReason::ios;
        limit_reached = true;
        break;
      }
      if (bytes_issued >= limits.bytes) {
        m_reason = StopReason::bytes;
        limit_reached = true;
        break;
      }
      if (m_limiter.enabled()) {
        const uint64_t at = start_ns + m_limiter.earliest_offset_ns(ios_issued, bytes_issued);
        if (at > now) {
          due_ns = at;
          break;
        }
      }
      const uint64_t sequence = m_generator.sequence();
      const IoDecision io = m_generator.next();
      const std::span<std::byte> buffer = q.stage(io.op, io.offset_bytes, io.length_bytes);
      if (io.op == engine::IoOp::write) {
        m_filler.fill(buffer, sequence, q.last_staged_slot());
      } else {
        m_filler.invalidate(q.last_staged_slot());
      }
      ++ios_issued;
      bytes_issued += io.length_bytes;
      submit_failure = m_submit_batch != 0 ? flush_if(q, m_submit_batch) : 0;
      if (submit_failure < 0) {
        break;
      }
    }
    if (submit_failure == 0) {
      submit_failure = flush_if(q, 1);
    }
    if (submit_failure < 0) {
      m_unattributed_errno = -submit_failure;
      m_reason = StopReason::io_error;
      break;
    }
    if (limit_reached) {
      break;  // drain() below collects what is in flight
    }
    const uint64_t wait_until = due_ns != 0 ? std::min(due_ns, limits.deadline_ns) : limits.deadline_ns;
    const uint64_t timed_wait_ns = std::min(wait_until > now ? wait_until - now : 0, k_max_wait_ns);
    if (q.in_flight() == 0) {
      // Only pacing can leave nothing in flight here: sleep instead of polling.
      sleep_until_ns(now + timed_wait_ns);
      now = monotonic_ns();
      continue;
    }
    // Untimed unless pacing: the next completion (or the runner's wake signal) ends the wait.
    const int reaped = q.reap(1, due_ns != 0 ? timed_wait_ns : engine::k_no_timeout);
    now = q.last_reap_ns();
    if (reaped < 0 && reaped != -EINTR) {
      m_unattributed_errno = -reaped;
      m_reason = StopReason::io_error;
      break;
    }
    if (q.has_error()) {
      m_reason = StopReason::io_error;
      break;
    }
    if (now - last_publish >= k_publish_interval_ns) {
      publish();
      last_publish = now;
    }
    close_intervals_until(flags.interval_epoch.load(std::memory_order_relaxed));
  }
  end_run(q, flags, ios_issued);
}

// After the loop: errors reported, everything in flight drained, the last interval closed, the
// queue retired.
void Worker::end_run(engine::IoQueue& q, StopFlags& flags, uint64_t ios_issued) noexcept {
  if (m_reason == StopReason::io_error && (q.has_error() || m_unattributed_errno != 0)) {
    report_failure(flags);
  }
  q.drain();
  if (q.has_error() && m_reason != StopReason::io_error) {
    // An IO that was in flight at the stop failed: the run did not end cleanly.
    m_reason = StopReason::io_error;
    report_failure(flags);
  }
  const stats::LiveTotals totals = q.live_totals();
  if (totals.ios[0] + totals.ios[1] > 0 || ios_issued > 0) {
    m_end_ns = q.last_reap_ns();
  }
  if (m_interval_ns != 0) {
    close_intervals_until(flags.interval_epoch.load(std::memory_order_relaxed));
    close_interval();  // the last, partial interval (up to the last completion)
  }
  publish();
  retire();
}

void Worker::retire() noexcept {
  if (!m_queue) {
    return;
  }
  m_stats = m_queue->stats();
  m_queue_error = m_queue->first_error();
  m_queue_error_count = m_queue->error_count();
  m_submit_calls = m_queue->submit_calls();
  m_queue.reset();
}

void Worker::report_failure(StopFlags& flags) noexcept {
  int none = -1;
  flags.first_failed_thread.compare_exchange_strong(none, static_cast<int>(m_index), std::memory_order_relaxed);
  flags.abort.store(true, std::memory_order_relaxed);
}

std::optional<engine::IoErrorRecord> Worker::first_error() const noexcept {
  if (m_queue_error) {
    return m_queue_error;
  }
  if (m_unattributed_errno != 0) {
    engine::IoErrorRecord record;
    record.errnum = m_unattributed_errno;
    record.result = -m_unattributed_errno;
    return record;
  }
  return std::nullopt;
}

uint64_t Worker::error_count() const noexcept {
  return m_queue_error_count + (m_queue_error || m_unattributed_errno == 0 ? 0 : 1);
}

}  // namespace ptsuite::workload::detail
