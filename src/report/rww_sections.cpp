// Text and CSV sections of the real-world-workload tests (docs/rww.md): the applied test
// workload's stream table, then rww-sweep's demand sweep (the DIRTH text) or rww-streams'
// per-stream figures. Read from the record only.
#include <fmt/format.h>

#include <ptsuite/results/applied_workload.hpp>
#include <ptsuite/results/json_read.hpp>
#include <ptsuite/results/rww_replay.hpp>
#include <ptsuite/results/rww_streams.hpp>

#include "report/sections.hpp"

namespace ptsuite::report {

using nlohmann::json;
using results::at;
using results::member;

namespace {

std::string applied_workload_text(const results::TestRecord& test) {
  if (!test.applied_workload) return {};
  const results::AppliedWorkload& w = *test.applied_workload;
  std::string out = fmt::format(
      "  Applied test workload of {} ({} IOs): {} of {} streams covering {:.1f} % of the IOs (rww.coverage {:.0f} %)\n"
      "  (a ptsuite extension modelled on SNIA RWSW; not RWSW-compliant)\n",
      w.capture, w.capture_ios, w.streams.size(), w.capture_streams, w.covered * 100, w.coverage_goal * 100);
  for (const results::AppliedStream& s : w.streams) {
    out += fmt::format("    {:<18} {:>7.2f} % captured {:>7.2f} % applied\n", s.name, s.captured_share * 100,
                       s.weight * 100);
  }
  return out;
}

}  // namespace

std::string rww_sweep_text(const results::TestRecord& test) {
  return applied_workload_text(test) + rww_sweep_demand_text(test);
}

std::string rww_streams_text(const results::TestRecord& test) {
  std::string out = applied_workload_text(test);
  const auto* block = test.block_as<results::RwwStreamsBlock>();
  if (block == nullptr) return out;
  const results::RwwStreamsBlock& b = *block;
  out += fmt::format("  Each stream alone at TC {} / QD {}:\n", b.threads, b.queue_depth);
  for (const results::RwwStream& s : b.streams) {
    out += fmt::format("    {:<18} weight {:>6.2f} %  {:>12.1f} IOPS {:>9.2f} MB/s  ART {:.3f} ms  SS {}\n", s.name,
                       s.weight * 100, s.iops, s.mb_per_s, s.latency_mean_ns / 1e6,
                       s.steady_state ? "attained" : "NOT ACHIEVED");
  }
  out += fmt::format("  Stream-weighted IOPS 1 / sum(w / IOPS): {:.1f}\n", b.weighted_iops);
  return out;
}

std::string rww_replay_text(const results::TestRecord& test) {
  std::string out = applied_workload_text(test);
  const auto* block = test.block_as<results::RwwReplayBlock>();
  if (block == nullptr) return out;
  const results::RwwReplayBlock& b = *block;
  out += fmt::format("  Capture steps of {:.3f} s replayed ({} idle not replayed): captured vs device\n",
                     static_cast<double>(b.step_ns) / 1e9, b.idle_steps);
  for (const results::RwwReplayStep& s : b.steps) {
    out += fmt::format(
        "    step {:>4}  captured {:>10.1f} IOPS QD {:>6.2f} ART {:.3f} ms  ->  QD {:>3} {:>10.1f} IOPS "
        "ART {:.3f} ms\n",
        s.step + 1, s.captured_iops, s.captured_qd_mean, s.captured_latency_mean_ns / 1e6, s.queue_depth, s.iops,
        s.latency_mean_ns / 1e6);
  }
  return out;
}

namespace csv {

void rww_replay_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test) {
  const results::RwwReplayBlock* block = test.block_as<results::RwwReplayBlock>();
  if (block == nullptr) return;
  const results::RwwReplayBlock& b = *block;
  for (const results::RwwReplayStep& s : b.steps) {
    Keys k = base;
    k.phase = "replay";
    k.record = "rww_replay_step";
    k.segment = std::to_string(s.step + 1);
    k.threads = "1";
    k.queue_depth = std::to_string(s.queue_depth);
    k.direction = "combined";
    w.row(k, "captured_iops", s.captured_iops, "IOPS");
    w.row(k, "captured_qd_mean", s.captured_qd_mean, "IOs");
    w.row(k, "captured_latency_mean", s.captured_latency_mean_ns, "ns");
    w.row(k, "iops", s.iops, "IOPS");
    w.row(k, "mb_per_s", s.mb_per_s, "MB/s");
    w.row(k, "latency_mean", s.latency_mean_ns, "ns");
  }
}

void rww_streams_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test) {
  const results::RwwStreamsBlock* block = test.block_as<results::RwwStreamsBlock>();
  if (block == nullptr) return;
  const results::RwwStreamsBlock& b = *block;
  for (const results::RwwStream& s : b.streams) {
    Keys k = base;
    k.phase = s.phase;
    k.record = "rww_stream";
    k.segment = s.name;
    k.threads = std::to_string(b.threads);
    k.queue_depth = std::to_string(b.queue_depth);
    k.direction = "combined";
    w.row(k, "weight", s.weight, "fraction");
    w.row(k, "iops", s.iops, "IOPS");
    w.row(k, "mb_per_s", s.mb_per_s, "MB/s");
    w.row(k, "latency_mean", s.latency_mean_ns, "ns");
    w.row(k, "latency_max", s.latency_max_ns, "ns");
  }
  Keys k = base;
  k.record = "rww_streams";
  w.row(k, "weighted_iops", b.weighted_iops, "IOPS");
}

}  // namespace csv

}  // namespace ptsuite::report
