#include <ptsuite/pts/sim_executor.hpp>

#include <fmt/format.h>

#include <ptsuite/device/health.hpp>
#include <ptsuite/device/write_cache.hpp>
#include <ptsuite/results/purge.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::pts {

using nlohmann::json;

namespace {

DeviceRunParams workload_params(const SimRunParams& p) {
  DeviceRunParams d;
  d.active_range_pct = p.active_range_pct;
  d.ar_amount_bytes = p.ar_amount_bytes;
  d.ar_segments = p.ar_segments;
  d.align_to_logical_block = p.align_to_logical_block;
  d.seed = p.seed;
  d.engine = "sim";
  return d;
}

}  // namespace

SimExecutor::SimExecutor(engine::SimModel model, SimRunParams params)
    : m_device(std::move(model)), m_params(std::move(params)), m_workloads(workload_params(m_params)) {}

engine::TargetGeometry SimExecutor::geometry() const noexcept {
  engine::TargetGeometry g;
  g.capacity_bytes = m_device.capacity_bytes();
  g.logical_block_bytes = 512;
  g.physical_block_bytes = m_device.model().unit_bytes;
  g.memory_alignment_bytes = 512;
  return g;
}

std::string SimExecutor::virtual_utc() const {
  return utc_iso8601(m_params.epoch_unix_s + static_cast<int64_t>(m_clock.now_ns / 1'000'000'000ULL));
}

workload::WorkloadResult SimExecutor::run(const workload::WorkloadSpec& ws, workload::WorkloadState* state,
                                          const workload::RunControl& control) {
  const workload::ResolvedWorkload resolved = workload::resolve_simulated(ws, geometry());
  workload::WorkloadResult w = workload::run_simulated_workload(resolved, m_device, m_clock, control, state);
  m_ios += w.stats.read.ios + w.stats.write.ios;
  if (state != nullptr) {
    *state = w.end_state;
  }
  return w;
}

json SimExecutor::run_segment_step(const StepId& id, const SegmentSpec& spec) {
  const workload::WorkloadSpec ws = m_workloads.workload_for(id, spec);
  workload::WorkloadState* state = spec.sequence_key.empty() ? nullptr : &m_cursors[spec.sequence_key];
  workload::RunControl control;
  control.stop_requested = m_params.stop;
  if (spec.warmup_ns > 0) {
    workload::WorkloadSpec warm = m_workloads.workload_for(StepId{id.test, id.phase, id.name + "-warmup"}, spec);
    warm.limits.duration_ns = spec.warmup_ns;
    warm.limits.bytes = 0;
    warm.interval_ns = 0;
    (void)run(warm, state, control);
  }
  if (m_params.on_progress && !m_replaying) {
    control.on_progress = [&](const workload::Progress& p) {
      m_params.on_progress(StepProgress{id, spec.label, p.elapsed_ns, p.expected_ns, p.live_iops, p.live_mb_per_s, 0});
    };
  }
  const std::string started = virtual_utc();
  const workload::WorkloadResult w = run(ws, state, control);
  const SegmentResult result = to_segment_result(w, ws.seed, started, virtual_utc());
  if (w.stop_reason == workload::StopReason::interrupted) {
    throw RunStopped(static_cast<int>(ExitCode::interrupted),
                     fmt::format("interrupted during step {} ({}) of a simulated run; it will run again from its "
                                 "start on resume",
                                 id.text(), spec.label),
                     result);
  }
  return result;
}

json SimExecutor::execute(const StepId& id, const StepRequest& request) {
  switch (request.kind) {
    case StepKind::segment:
      return run_segment_step(id, request.segment);
    case StepKind::purge: {
      results::PurgeRecord out;
      out.requested_method = request.purge_method;
      out.method = request.purge_method == "none" ? "none" : k_simulated_purge_method;
      out.target = "sim:" + m_device.model().name;
      out.device_model = "SIMULATED " + m_device.model().name;
      out.device_serial = fmt::format("SIM-{}-{}", m_device.model().name, m_params.seed);
      out.outcome = request.purge_method == "none" ? "skipped" : "succeeded";
      out.description = request.purge_method == "none"
                            ? "purge skipped by the purge.method=none setting (not a PTS run)"
                            : "SIMULATED drive formatted: every unit unmapped, every block erased (FOB)";
      out.pts_compliant = request.purge_method != "none";
      out.started_utc = virtual_utc();
      out.ended_utc = out.started_utc;
      out.step = id.text();
      if (request.purge_method != "none") {
        m_device.format(m_clock.device_ns());  // keeps the write-cache setting
      }
      if (m_cache_requested) {  // PTS order: purge, then WCE/WCD, read back (a format keeps it)
        const device::WriteCacheState state = write_cache_state();
        out.write_cache_after_purge =
            results::Embedded(json(device::WriteCacheAfterPurge{{state.enabled, state}, *m_cache_requested}));
      }
      return out;
    }
    case StepKind::health: {
      HealthStepResult health;
      health.snapshot.taken_utc = virtual_utc();
      health.snapshot.source = "none";
      return health;
    }
    case StepKind::idle: {
      const std::string started = virtual_utc();
      m_clock.now_ns += request.idle_ns;
      return IdleStepResult{request.idle_ns, request.idle_ns, started, virtual_utc(), false};
    }
  }
  throw Error(ExitCode::system, fmt::format("step {} has an unknown kind", id.text()));
}

void SimExecutor::set_write_cache(bool enabled) {
  m_device.set_write_cache(enabled);
  m_cache_requested = enabled;
}

device::WriteCacheState SimExecutor::write_cache_state() const {
  const bool enabled = m_device.write_cache_enabled();
  std::string note =
      "SIMULATED drive: the model's write buffer is its volatile write cache; writes are acknowledged "
      "from it";
  if (!enabled) {
    note = m_device.model().power_loss_protection
               ? "SIMULATED drive with power-loss protection: its write buffer is non-volatile and keeps "
                 "acknowledging writes with the write cache disabled (as enterprise drives with PLP do)"
               : "SIMULATED drive: write cache disabled; a write completes when its units are programmed";
  }
  return {true, enabled, k_simulated_write_cache_mechanism, note};
}

void SimExecutor::replayed(const StepId& id, const StepRequest& request, const json& result) {
  const uint64_t before = m_ios;
  m_replaying = true;
  try {
    (void)execute(id, request);
  } catch (...) {
    m_replaying = false;
    throw;
  }
  m_replaying = false;
  m_replayed_ios += m_ios - before;
  if (request.kind == StepKind::segment && !request.segment.sequence_key.empty()) {
    m_cursors[request.segment.sequence_key].sequential_cursor_bytes =
        result.at("end_cursor_bytes").get<std::vector<uint64_t>>();
  }
}

}  // namespace ptsuite::pts
