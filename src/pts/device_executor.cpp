#include <ptsuite/pts/device_executor.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <chrono>
#include <thread>

#include <ptsuite/device/purge.hpp>
#include <ptsuite/results/purge.hpp>
#include <ptsuite/stats/stats_json.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/workload/workload_json.hpp>

namespace ptsuite::pts {

using nlohmann::json;

uint64_t step_seed(uint64_t run_seed, const StepId& id) noexcept {
  uint64_t h = 1469598103934665603ULL;  // FNV-1a 64 offset basis
  for (const char c : id.text()) {
    h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;  // FNV-1a 64 prime
  }
  // splitmix64 finaliser: spreads the combined bits over the whole word.
  uint64_t z = run_seed ^ h;
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

SegmentResult to_segment_result(const workload::WorkloadResult& w, uint64_t seed, std::string started_utc,
                                std::string finished_utc) {
  SegmentResult r;
  const stats::DirectionStats combined = w.stats.combined();
  r.summary.read = stats::summarize(w.stats.read, w.elapsed_ns);
  r.summary.write = stats::summarize(w.stats.write, w.elapsed_ns);
  r.summary.combined = stats::summarize(combined, w.elapsed_ns);
  r.read_histogram = w.stats.read.histogram;
  r.write_histogram = w.stats.write.histogram;
  r.combined_histogram = combined.histogram;
  r.elapsed_ns = w.elapsed_ns;
  r.run_clock_ns = w.run_clock_ns;
  r.cpu_user_s = w.cpu.user_s;
  r.cpu_system_s = w.cpu.system_s;
  r.stop_reason = workload::to_string(w.stop_reason);
  r.started_utc = std::move(started_utc);
  r.finished_utc = std::move(finished_utc);
  r.seed = seed;
  r.end_cursor_bytes = w.end_state.sequential_cursor_bytes;
  r.intervals = workload::intervals_json(w.intervals);
  r.error = w.first_error ? workload::error_json(w.first_error, w.error_count) : json();
  return r;
}

workload::WorkloadSpec DeviceExecutor::workload_for(const StepId& id, const SegmentSpec& s) const {
  workload::WorkloadSpec ws;
  ws.pattern = s.pattern;
  ws.read_pct = s.mix.read_pct;
  ws.block_sizes = s.block_sizes;
  ws.zones = s.zones;
  ws.threads = s.threads;
  ws.queue_depth = s.queue_depth;
  ws.active_range.pct = m_params.active_range_pct;
  ws.streams = s.streams;
  if (s.pattern == workload::AccessPattern::random && s.zones.empty() && s.streams.empty()) {
    ws.active_range.amount_bytes = m_params.ar_amount_bytes;
    ws.active_range.segments = m_params.ar_segments;
  }
  ws.limits.duration_ns = s.duration_ns;
  ws.limits.bytes = s.bytes_limit;
  ws.seed = step_seed(m_params.seed, id);
  ws.data = m_params.data;
  ws.align_to_logical_block = m_params.align_to_logical_block;
  ws.engine = m_params.engine;
  ws.interval_ns = s.interval_ns;
  return ws;
}

void DeviceExecutor::warm_up(const StepId& id, const SegmentSpec& spec, workload::WorkloadState* state) {
  workload::WorkloadSpec ws = workload_for(StepId{id.test, id.phase, id.name + "-warmup"}, spec);
  ws.limits.duration_ns = spec.warmup_ns;
  ws.limits.bytes = 0;
  ws.interval_ns = 0;
  const workload::ResolvedWorkload resolved = workload::resolve(ws, m_params.target->geometry());
  workload::RunControl control;
  control.stop_requested = m_params.stop;
  const workload::WorkloadResult w = workload::run_workload(resolved, *m_params.target, control, state);
  if (w.stop_reason == workload::StopReason::io_error) {
    throw RunStopped(static_cast<int>(ExitCode::io_error),
                     fmt::format("an IO error stopped the warm-up of step {} ({}): {}", id.text(), spec.label,
                                 workload::describe_io_error(w.first_error, w.error_count)),
                     json(WarmupStopRecord{spec.warmup_ns}));
  }
  if (w.stop_reason == workload::StopReason::interrupted) {
    throw RunStopped(static_cast<int>(ExitCode::interrupted),
                     fmt::format("interrupted during the warm-up of step {} ({}); it will run again from its start "
                                 "on resume",
                                 id.text(), spec.label),
                     json(WarmupStopRecord{spec.warmup_ns}));
  }
}

json DeviceExecutor::run_segment_step(const StepId& id, const SegmentSpec& spec) {
  const workload::WorkloadSpec ws = workload_for(id, spec);
  const workload::ResolvedWorkload resolved = workload::resolve(ws, m_params.target->geometry());
  workload::WorkloadState* state = nullptr;
  if (!spec.sequence_key.empty()) {
    state = &m_cursors[spec.sequence_key];
  }
  if (spec.warmup_ns > 0) {
    warm_up(id, spec, state);
  }
  workload::RunControl control;
  control.stop_requested = m_params.stop;
  if (m_params.on_progress) {
    control.on_progress = [&](const workload::Progress& p) {
      StepProgress sp;
      sp.id = id;
      sp.label = spec.label;
      sp.elapsed_ns = p.elapsed_ns;
      sp.expected_ns = p.expected_ns;
      sp.live_iops = p.live_iops;
      sp.live_mb_per_s = p.live_mb_per_s;
      sp.stalled_ns = p.stalled_ns;
      m_params.on_progress(sp);
    };
  }
  const std::string started = utc_now_iso8601();
  const workload::WorkloadResult w = workload::run_workload(resolved, *m_params.target, control, state);
  const SegmentResult result = to_segment_result(w, ws.seed, started, utc_now_iso8601());
  if (w.stop_reason == workload::StopReason::io_error) {
    throw RunStopped(static_cast<int>(ExitCode::io_error),
                     fmt::format("an IO error stopped step {} ({}): {}", id.text(), spec.label,
                                 workload::describe_io_error(w.first_error, w.error_count)),
                     result);
  }
  if (w.stop_reason == workload::StopReason::interrupted) {
    throw RunStopped(static_cast<int>(ExitCode::interrupted),
                     fmt::format("interrupted during step {} ({}); it will run again from its start on resume",
                                 id.text(), spec.label),
                     result);
  }
  return result;
}

json DeviceExecutor::purge_step(const StepId& id, const std::string& method) {
  if (method == "none") {
    results::PurgeRecord skipped;
    skipped.method = "none";
    skipped.outcome = "skipped";
    skipped.description = "purge skipped by the purge.method=none setting (not a PTS run)";
    skipped.step = id.text();
    return skipped;
  }
  device::PurgeOptions options;
  options.method = device::parse_purge_method(method);
  options.allow_destructive = m_params.allow_destructive;
  options.confirm_serial = m_params.confirm_serial;
  options.on_message = m_params.on_message;
  if (m_params.on_progress) {
    options.on_progress = [&](const device::PurgeProgress& p) {
      StepProgress sp;
      sp.id = id;
      sp.label = "purge";
      sp.elapsed_ns = p.elapsed_ms * 1'000'000;
      m_params.on_progress(sp);
    };
  }
  options.policy = m_params.purge_policy;
  const device::PurgeRecord record = m_params.session->purge(options);
  results::PurgeRecord out = device::record_of(record);
  out.step = id.text();
  if (record.outcome != device::PurgeOutcome::succeeded) {
    throw Error(ExitCode::system,
                fmt::format("purge of {} {}: {}", m_params.target->path(), device::to_string(record.outcome),
                            record.messages.empty() ? record.description : record.messages.back()));
  }
  // PTS step order: purge (step 1), then set WCE/WCD (step 2.1.1); a purge may reset it.
  const std::optional<device::WriteCacheRecord> cache = m_params.session->write_cache_record();
  if (cache) {
    const device::WriteCacheReapply again = m_params.session->reapply_write_cache();
    out.write_cache_after_purge =
        results::Embedded(json(device::WriteCacheAfterPurge{again, cache->requested_enabled}));
    if (again.found && *again.found != cache->requested_enabled && m_params.on_message) {
      m_params.on_message(fmt::format("the purge left the write cache {}; set {} again",
                                      *again.found ? "enabled" : "disabled",
                                      cache->requested_enabled ? "enabled" : "disabled"));
    }
  }
  return out;
}

// Host idle: no IO for idle_ns of wall time. Sleeps in slices of k_idle_slice_ns so that a
// stop request ends the wait within 50 ms; an interrupted idle step is not journaled and runs
// again whole on resume (the spec's idle period is the uninterrupted wait).
json DeviceExecutor::idle_step(const StepId& id, uint64_t idle_ns) {
  constexpr uint64_t k_idle_slice_ns = 50'000'000;
  const std::string started = utc_now_iso8601();
  const uint64_t start_ns = monotonic_ns();
  for (uint64_t done_ns = 0; done_ns < idle_ns; done_ns = monotonic_ns() - start_ns) {
    if (m_params.stop != nullptr && m_params.stop->load(std::memory_order_relaxed)) {
      throw RunStopped(
          static_cast<int>(ExitCode::interrupted),
          fmt::format("interrupted during step {} (host idle); it will run again from its start on resume", id.text()),
          json(IdleStepResult{idle_ns, done_ns, "", "", false}));
    }
    if (m_params.on_progress) {
      m_params.on_progress(StepProgress{id, "host idle", done_ns, idle_ns, 0, 0, 0});
    }
    std::this_thread::sleep_for(std::chrono::nanoseconds(std::min(k_idle_slice_ns, idle_ns - done_ns)));
  }
  const uint64_t elapsed_ns = monotonic_ns() - start_ns;
  return IdleStepResult{idle_ns, elapsed_ns, started, utc_now_iso8601(), false};
}

json DeviceExecutor::health_step() {
  const device::HealthSnapshot snapshot = m_params.session->health();
  const bool throttling = m_throttle.observe(snapshot);
  return HealthStepResult{snapshot, throttling};
}

json DeviceExecutor::execute(const StepId& id, const StepRequest& request) {
  switch (request.kind) {
    case StepKind::segment:
      return run_segment_step(id, request.segment);
    case StepKind::purge:
      return purge_step(id, request.purge_method);
    case StepKind::health:
      return health_step();
    case StepKind::idle:
      return idle_step(id, request.idle_ns);
  }
  throw Error(ExitCode::system, fmt::format("step {} has an unknown kind", id.text()));
}

void DeviceExecutor::replayed(const StepId&, const StepRequest& request, const json& result) {
  if (request.kind == StepKind::segment && !request.segment.sequence_key.empty()) {
    m_cursors[request.segment.sequence_key].sequential_cursor_bytes =
        result.at("end_cursor_bytes").get<std::vector<uint64_t>>();
  }
}

}  // namespace ptsuite::pts
