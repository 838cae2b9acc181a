#include <ptsuite/workload/sim_runner.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <vector>

#include <ptsuite/util/error.hpp>
#include <ptsuite/workload/in_flight_heap.hpp>
#include <ptsuite/workload/io_generator.hpp>

namespace ptsuite::workload {

namespace {

struct SimThread {
  IoGenerator generator;
  uint64_t ios_left;
  uint64_t bytes_left;
  IoDecision ahead[2]{};         // random pattern: the next two IOs, drawn ahead (their mapping prefetched)
  uint64_t next_allowed_ns = 0;  // rate limit
  uint64_t spacing_ns = 0;       // rate limit: per IO
  double ns_per_byte = 0;        // rate limit: per byte
};

// The interval series (spec.interval_ns > 0): one open interval, closed at each boundary up to
// the deadline. The drain after it (IOs in flight once the time is up) is one tail sample, not an
// interval per boundary it crosses on the dilated drive's timeline, and finish() puts the sample
// ends on the run's clock: an end t past the drain's start d at d + (t - d) / k, as
// advance_clock() counts the drain. So a drain tail is as short on the run's clock as on the
// modelled drive (interval_iops_series leaves a short one out) and the IOPS-vs-time axes (HIR's
// baseline, CBW's series) read the same clock as the segments' (SegmentResult::clock_ns()).
class SimIntervals {
 public:
  SimIntervals(uint64_t start_ns, uint64_t interval_ns, uint64_t deadline_ns)
      : m_start(start_ns), m_interval(interval_ns), m_deadline(deadline_ns) {
    m_next = interval_ns == 0 ? UINT64_MAX : start_ns + interval_ns;
  }
  void record(uint64_t done_ns, engine::IoOp op, uint32_t bytes, uint64_t latency_ns) {
    while (done_ns > m_next && m_next <= m_deadline) {
      close(m_next);
      m_next += m_interval;
    }
    if (m_interval != 0) {
      (op == engine::IoOp::read ? m_open.read : m_open.write).record(bytes, latency_ns);
    }
  }
  void finish(uint64_t end_ns, uint64_t drain_start_ns, double dilation, std::vector<IntervalSample>& out) {
    if (m_interval == 0) {
      return;
    }
    close(std::max(end_ns, m_start));
    for (IntervalSample& s : m_samples) {
      const uint64_t at_ns = m_start + s.end_offset_ns;
      if (at_ns > drain_start_ns) {
        const double drain_ns = static_cast<double>(at_ns - drain_start_ns);
        s.end_offset_ns = drain_start_ns - m_start + static_cast<uint64_t>(std::llround(drain_ns / dilation));
      }
    }
    out = std::move(m_samples);
  }

 private:
  void close(uint64_t end_ns) {
    IntervalSample s;
    s.end_offset_ns = end_ns - m_start;
    const stats::DirectionStats* d[2] = {&m_open.read, &m_open.write};
    for (int i = 0; i < 2; ++i) {
      s.ios[i] = d[i]->ios;
      s.bytes[i] = d[i]->bytes;
      s.latency_sum_ns[i] = static_cast<uint64_t>(d[i]->latency.sum_ns);
      s.p99_ns[i] = d[i]->ios == 0 ? 0 : d[i]->histogram.value_at_percentile_ns(99.0);
      s.max_ns[i] = d[i]->latency.max_ns;
      s.stddev_ns[i] = d[i]->latency.stddev_ns();
    }
    s.has_p99 = true;
    m_samples.push_back(s);
    m_open = stats::IoStats{};
  }
  uint64_t m_start;
  uint64_t m_interval;
  uint64_t m_deadline;
  uint64_t m_next;
  stats::IoStats m_open;
  std::vector<IntervalSample> m_samples;
};

std::vector<SimThread> make_threads(const ResolvedWorkload& w, const WorkloadState* state) {
  const WorkloadSpec& spec = w.spec;
  const bool resume = state != nullptr && !state->sequential_cursor_bytes.empty();
  if (resume && state->sequential_cursor_bytes.size() != spec.threads) {
    throw Error(ExitCode::system, fmt::format("cannot resume: the saved state has {} thread cursors, the workload "
                                              "has {} threads",
                                              state->sequential_cursor_bytes.size(), spec.threads));
  }
  std::vector<SimThread> threads;
  threads.reserve(spec.threads);
  for (uint32_t t = 0; t < spec.threads; ++t) {
    const uint64_t ios = spec.limits.ios == 0 ? UINT64_MAX : thread_share(spec.limits.ios, spec.threads, t);
    const uint64_t bytes = w.byte_limit == 0 ? UINT64_MAX : thread_share(w.byte_limit, spec.threads, t);
    SimThread th{IoGenerator(w, t, resume ? state->sequential_cursor_bytes[t] : 0), ios, bytes};
    if (spec.rate.iops > 0) {
      th.spacing_ns = static_cast<uint64_t>(1e9 * spec.threads / spec.rate.iops);
    }
    if (spec.rate.mb_per_s > 0) {
      th.ns_per_byte = 1e3 * spec.threads / spec.rate.mb_per_s;
    }
    threads.push_back(std::move(th));
  }
  return threads;
}

// Random offsets miss the cache in the model's mapping tables: each thread's next two IOs are
// drawn ahead (the same sequence), the mapping entry of the one after next is prefetched and,
// once that is in, the entries a write of the next one changes, while other IOs are simulated.
// Not for sequential runs, whose end state records the generators' cursors (and which hit the
// cache). Returns whether the IOs are drawn ahead.
bool start_lookahead(const WorkloadSpec& spec, std::vector<SimThread>& threads, const engine::SimDevice& device) {
  if (spec.pattern == AccessPattern::sequential) {
    return false;
  }
  for (SimThread& th : threads) {
    th.ahead[0] = th.generator.next();
    th.ahead[1] = th.generator.next();
    device.prefetch(th.ahead[0].offset_bytes);
    device.prefetch(th.ahead[1].offset_bytes);
  }
  return true;
}

// The thread's next IO (drawn ahead when `lookahead`: see start_lookahead()).
IoDecision next_io(SimThread& th, const engine::SimDevice& device, bool lookahead) noexcept {
  if (!lookahead) {
    return th.generator.next();
  }
  const IoDecision io = th.ahead[0];
  th.ahead[0] = th.ahead[1];
  th.ahead[1] = th.generator.next();
  device.prefetch(th.ahead[1].offset_bytes);          // the IO after next: its L2P entry
  device.prefetch_mapping(th.ahead[0].offset_bytes);  // the next: its L2P entry is in by now
  return io;
}

// Where the drain began: no IO was issued after it. A run whose deadline passed with IOs in
// flight kept its queue full up to the deadline (a completion before it would have issued
// another IO); a byte-, IO-limited or interrupted run's drain begins at its last submission.
uint64_t drain_start_ns(uint64_t last_submit_ns, uint64_t deadline_ns, uint64_t end_ns) noexcept {
  const uint64_t queue_full_until_ns = deadline_ns < end_ns ? deadline_ns : last_submit_ns;
  return std::min(end_ns, std::max(last_submit_ns, queue_full_until_ns));
}

// The run's clock advances by the time up to the drain plus the drain / dilation (the modelled
// drive's drain); the device's timeline keeps the rest of it (sim_runner.hpp).
void advance_clock(VirtualClock& clock, uint64_t start_ns, uint64_t end_ns, uint64_t drain_start_ns, double dilation,
                   WorkloadResult& result) noexcept {
  const uint64_t drain_ns = end_ns - drain_start_ns;
  const auto run_drain_ns = static_cast<uint64_t>(std::llround(static_cast<double>(drain_ns) / dilation));
  const uint64_t run_ns = drain_start_ns - start_ns + run_drain_ns;
  clock.now_ns += run_ns;
  clock.device_ahead_ns += drain_ns - run_drain_ns;
  result.run_clock_ns = run_ns;
}

}  // namespace

ResolvedWorkload resolve_simulated(WorkloadSpec spec, const engine::TargetGeometry& geometry) {
  spec.engine = "null";  // a registered name for resolve()'s look-up; the run is the model's
  ResolvedWorkload resolved = resolve(spec, geometry);
  resolved.spec.engine = "sim";
  return resolved;
}

WorkloadResult run_simulated_workload(const ResolvedWorkload& workload, engine::SimDevice& device, VirtualClock& clock,
                                      const RunControl& control, WorkloadState* state) {
  const WorkloadSpec& spec = workload.spec;
  std::vector<SimThread> threads = make_threads(workload, state);
  const CpuUsage cpu_before = process_cpu();
  const uint64_t start_ns = clock.device_ns();
  const uint64_t deadline_ns = spec.limits.duration_ns == 0 ? UINT64_MAX : start_ns + spec.limits.duration_ns;
  InFlightHeap in_flight(static_cast<size_t>(spec.threads) * spec.queue_depth);
  WorkloadResult result;
  stats::IoStats io_stats;  // a local (moved into the result at the end): not reached through a pointer
  SimIntervals intervals(start_ns, spec.interval_ns, deadline_ns);
  uint64_t submits = 0;
  uint64_t last_submit_ns = start_ns;
  const bool lookahead = start_lookahead(spec, threads, device);
  auto issue = [&](uint32_t t, uint64_t now_ns) {
    SimThread& th = threads[t];
    const uint64_t at = std::max(now_ns, th.next_allowed_ns);
    if (th.ios_left == 0 || th.bytes_left == 0 || at >= deadline_ns) {
      return;
    }
    const IoDecision io = next_io(th, device, lookahead);
    const uint64_t done = io.op == engine::IoOp::read ? device.read(io.offset_bytes, io.length_bytes, at)
                                                      : device.write(io.offset_bytes, io.length_bytes, at);
    th.next_allowed_ns = at + th.spacing_ns + static_cast<uint64_t>(th.ns_per_byte * io.length_bytes);
    --th.ios_left;
    th.bytes_left -= std::min<uint64_t>(th.bytes_left, io.length_bytes);
    in_flight.push(InFlight{done, at, t, io.length_bytes, io.op});
    ++submits;
    last_submit_ns = std::max(last_submit_ns, at);  // a rate-limited thread's may lie ahead of another's
  };
  for (uint32_t q = 0; q < spec.queue_depth; ++q) {
    for (uint32_t t = 0; t < spec.threads; ++t) {
      issue(t, start_ns);
    }
  }
  uint64_t end_ns = start_ns;
  uint64_t next_progress_ns = control.on_progress ? start_ns + control.progress_interval_ns : UINT64_MAX;
  uint64_t last_progress_ios = 0;
  uint64_t last_progress_bytes = 0;
  while (!in_flight.empty()) {
    const InFlight io = in_flight.pop();
    const uint64_t latency_ns = io.done_ns - io.submit_ns;
    (io.op == engine::IoOp::read ? io_stats.read : io_stats.write).record(io.length_bytes, latency_ns);
    intervals.record(io.done_ns, io.op, io.length_bytes, latency_ns);
    end_ns = std::max(end_ns, io.done_ns);
    if ((submits & 0xFFFF) == 0 && control.stop_requested != nullptr &&
        control.stop_requested->load(std::memory_order_relaxed)) {
      result.stop_reason = StopReason::interrupted;
    }
    if (io.done_ns >= next_progress_ns) {
      const uint64_t ios = io_stats.read.ios + io_stats.write.ios;
      const uint64_t bytes = io_stats.read.bytes + io_stats.write.bytes;
      Progress p;
      p.elapsed_ns = io.done_ns - start_ns;
      p.expected_ns = spec.limits.duration_ns;
      p.live_iops =
          static_cast<double>(ios - last_progress_ios) * 1e9 / static_cast<double>(control.progress_interval_ns);
      p.live_mb_per_s =
          static_cast<double>(bytes - last_progress_bytes) * 1e3 / static_cast<double>(control.progress_interval_ns);
      p.bytes_done = bytes;
      control.on_progress(p);
      last_progress_ios = ios;
      last_progress_bytes = bytes;
      while (next_progress_ns <= io.done_ns) {
        next_progress_ns += control.progress_interval_ns;
      }
    }
    if (result.stop_reason != StopReason::interrupted) {
      issue(io.thread, io.done_ns);
    }
  }
  result.stats = std::move(io_stats);
  result.cpu = process_cpu();
  result.cpu.user_s -= cpu_before.user_s;
  result.cpu.system_s -= cpu_before.system_s;
  const uint64_t drain_at_ns = drain_start_ns(last_submit_ns, deadline_ns, end_ns);
  intervals.finish(end_ns, drain_at_ns, device.model().dilation, result.intervals);
  result.elapsed_ns = end_ns - start_ns;
  result.submit_calls = submits;
  if (result.stop_reason != StopReason::interrupted) {
    const SimThread& t0 = threads.front();
    result.stop_reason = t0.ios_left == 0     ? StopReason::ios
                         : t0.bytes_left == 0 ? StopReason::bytes
                                              : StopReason::duration;
  }
  for (const SimThread& th : threads) {
    result.end_state.sequential_cursor_bytes.push_back(
        spec.pattern == AccessPattern::sequential ? th.generator.sequential_cursor_bytes() : 0);
  }
  advance_clock(clock, start_ns, end_ns, drain_at_ns, device.model().dilation, result);
  return result;
}

}  // namespace ptsuite::workload
