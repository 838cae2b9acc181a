// Replay records of a made-up drive (replay_fixture.hpp).
#include "support/replay_fixture.hpp"

#include <fmt/format.h>

namespace ptsuite::test_support {

namespace {

constexpr uint64_t k_step_ns = 200'000'000;

// One direction's figures around `mean_ns`: the percentiles spread above it, the maximum last.
results::ReplayDirectionLatency direction(uint64_t ios, double mean_ns, double iops) {
  const auto at = [mean_ns](double f) { return static_cast<uint64_t>(mean_ns * f); };
  return {ios,     ios * 4096, iops,    iops * 4096 / 1e6, mean_ns, mean_ns / 4,
          at(0.4), at(8),      at(0.9), at(2.5),           at(4),   at(6)};
}

results::ReplayLatency latency(uint64_t ios, double mean_ns, double iops) {
  results::ReplayLatency l;
  l.read = direction(ios * 7 / 10, mean_ns * 0.9, iops * 0.7);
  l.write = direction(ios - ios * 7 / 10, mean_ns * 1.2, iops * 0.3);
  l.combined = direction(ios, mean_ns, iops);
  return l;
}

}  // namespace

results::ReplayRecord replay_record(const ReplayFixture& f) {
  results::ReplayRecord r;
  r.capture_file = "db.ptcap";
  r.capture_id = f.capture_id;
  r.capture_source = "perf tracepoints";
  r.capture_device = "/dev/nvme0n1";
  r.capture_capacity_bytes = 1ULL << 30;
  r.target = "/dev/nvme1n1";
  r.target_capacity_bytes = 1ULL << 30;
  r.target_identity.vendor = "FX";
  r.target_identity.model = f.model;
  r.target_identity.serial = "FX0000000001";
  r.engine = "libaio";
  r.mode = f.mode;
  r.queue_slots = 32;
  r.step_ns = k_step_ns;
  r.seed = 7;
  r.started_utc = "2026-11-28T10:00:00Z";
  r.stop_reason = "complete";
  r.settings = {{"replay.lba_remap", "modulo", "[U] offset modulo the target's capacity"}};
  uint64_t ios = 0;
  for (size_t k = 0; k < f.steps; ++k) {
    results::ReplayStep s;
    s.start_ns = k * k_step_ns;
    s.length_ns = k_step_ns;
    const double iops = f.iops * (1 + 0.05 * static_cast<double>(k % 7));
    const auto n = static_cast<uint64_t>(iops * 0.2);
    for (results::ReplayFigures* fig : {&s.captured, &s.replayed}) {
      fig->ios = n;
      fig->read_ios = n * 7 / 10;
      fig->write_ios = n - n * 7 / 10;
      fig->bytes = n * 4096;
      fig->length_ns = k_step_ns;
      fig->iops = iops;
      fig->mb_per_s = iops * 4096 / 1e6;
      fig->read_pct = 70;
      fig->outstanding_mean = 2.5;
      fig->outstanding_max = 4;
      fig->sizes = {{4096, n}};
    }
    s.latency = latency(n, f.mean_ns * (1 + 0.02 * static_cast<double>(k)), iops);
    ios += n;
    r.steps.push_back(std::move(s));
  }
  r.capture_ios = ios;
  r.replayed_ios = ios;
  r.duration_ns = f.steps * k_step_ns;
  r.latency = latency(ios, f.mean_ns, f.iops);
  if (f.ramp_points > 0) {
    r.ramp = results::ReplayRamp{f.iops / 10, f.iops, "closed-loop replay", {}};
    for (size_t i = 0; i < f.ramp_points; ++i) {
      const double pct = 10.0 * static_cast<double>(i + 1);
      const double load = pct / 100;
      results::RampPoint p;
      p.percent = pct;
      p.speed = load * 10;
      p.target_iops = load * f.iops;
      p.replayed_ios = ios;
      p.duration_ns = static_cast<uint64_t>(static_cast<double>(ios) / p.target_iops * 1e9);
      p.latency = latency(ios, f.mean_ns * 0.5 / (1.05 - load * 0.95), p.target_iops * 0.99);
      p.steps = f.steps;
      p.steps_fell_behind = load > 0.95 ? 1 : 0;
      p.stop_reason = "complete";
      r.ramp->points.push_back(std::move(p));
    }
  }
  return r;
}

}  // namespace ptsuite::test_support
