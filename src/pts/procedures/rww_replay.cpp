// rww-replay (docs/rww.md; a ptsuite extension modelled on SNIA RWSW's replay of a capture's
// steps, never claimed RWSW-compliant): RWSW re-applies per-step statistics (stream mix and
// demand intensity), not the IOs themselves (rwsw.md §2 note; `ptsuite replay` replays IO by
// IO). Purge, WIPC, the applied test workload at TC 32 / QD 32 to steady state (as
// rww-sweep's preconditioning); then Rounds of every step of the capture in order: step k
// becomes one segment of the step's length running the step's IOs of the capture's top
// read/write streams (weights = their IOs in the step) at TC 1 x QD = ceil(the step's
// time-weighted mean queue depth); a step without such IOs is idle, not replayed. Rounds until
// the IOPS of the step with the most captured IOs attains steady state (pts/common.json rule).
#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include <ptsuite/pts/procedures/shared.hpp>
#include <ptsuite/results/rww_replay.hpp>
#include <ptsuite/util/error.hpp>

#include "pts/procedures/factories.hpp"
#include "pts/procedures/rww_workload.hpp"

namespace ptsuite::pts {

namespace {

// Step k's replayable mix: its IOs of the capture's top read/write streams the device can
// issue (stream_ios[i] counts c.streams[i] for i < c.step_streams).
RwwWorkload step_mix(const results::IoCharacterization& c, const results::CharacterizationStep& step,
                     uint32_t logical_block_bytes) {
  RwwWorkload w;
  const size_t n = std::min<size_t>({c.step_streams, c.streams.size(), step.stream_ios.size()});
  for (size_t i = 0; i < n; ++i) {
    const results::IoStreamStats& s = c.streams[i];
    const bool issuable = s.size_bytes > 0 && s.size_bytes % logical_block_bytes == 0;
    if ((s.op != "read" && s.op != "write") || !issuable || step.stream_ios[i] == 0) continue;
    workload::StreamSpec one;
    one.name = s.name;
    one.weight = static_cast<double>(step.stream_ios[i]);
    one.pattern = s.sequential ? workload::AccessPattern::sequential : workload::AccessPattern::random;
    one.read_pct = s.op == "read" ? 100.0 : 0.0;
    one.block_sizes = {{s.size_bytes, 1.0}};
    w.streams.push_back(std::move(one));
  }
  summarise_streams(w);
  return w;
}

class RwwReplayTest final : public PtsTest {
 public:
  [[nodiscard]] std::string id() const override { return "rww-replay"; }

 protected:
  [[nodiscard]] results::TestRecord procedure(TestContext& ctx) const override;

 private:
  PhaseRecord precondition(TestContext& ctx, TestSpec& spec, const RwwWorkload& atw) const;
};

PhaseRecord RwwReplayTest::precondition(TestContext& ctx, TestSpec& spec, const RwwWorkload& atw) const {
  const nlohmann::json toio = spec.get("precondition/toio").value;
  RoundLoopSpec pre;
  pre.test = id();
  pre.phase = "precondition";
  pre.conditioning = "precondition";
  pre.segments = {rww_segment(atw, "ATW", toio.at("threads").get<uint32_t>(), toio.at("queue_depth").get<uint32_t>(),
                              spec.duration_ns("precondition/round_duration"))};
  pre.tracking = {{"ATW precondition IOPS", 0, Metric::iops}};
  apply_round_rules(spec, pre);
  return run_rounds(ctx.exec, pre);
}

results::TestRecord RwwReplayTest::procedure(TestContext& ctx) const {
  TestSpec spec(ctx, id());
  results::TestRecord rec = begin_record(spec);
  const uint64_t step_ns = spec.duration_ns("step");
  const results::IoCharacterization c = rww_characterize(spec, step_ns);
  const RwwWorkload atw = rww_workload(spec, c);
  rec.applied_workload = atw.applied;
  const nlohmann::json toio = spec.get("precondition/toio").value;
  if (spec.get("purge").value.get<bool>()) rec.purges.push_back(purge_step(spec, "main"));
  if (spec.get("wipc").value.get<bool>()) {
    rec.preconditioning.push_back(wipc_step(spec, "main", wipc_block_bytes(spec), toio.at("threads").get<uint32_t>(),
                                            toio.at("queue_depth").get<uint32_t>()));
  }
  rec.phases.push_back(record_of(precondition(ctx, spec, atw)));

  if (spec.get("demand_intensity").value != "mean-queue-depth") {
    throw Error(ExitCode::system, "built-in PTS data rww-replay/demand_intensity: only mean-queue-depth is supported");
  }
  const Metric metric = parse_metric(spec.get("tracking_metric").value.get<std::string>());
  results::RwwReplayBlock block;
  block.step_ns = step_ns;
  RoundLoopSpec replay;
  replay.test = id();
  replay.phase = "replay";
  replay.conditioning = "";  // a replay of the capture's steps: measured, not a WDPC
  size_t busiest = 0;
  for (size_t k = 0; k < c.steps.size(); ++k) {
    const results::CharacterizationStep& step = c.steps[k];
    const RwwWorkload mix = step_mix(c, step, spec.context().target.logical_block_bytes);
    if (mix.streams.empty() || step.length_ns == 0) {
      ++block.idle_steps;
      continue;
    }
    const auto qd = static_cast<uint32_t>(std::max(1.0, std::ceil(step.qd_mean)));
    replay.segments.push_back(rww_segment(mix, fmt::format("step {}", k + 1), 1, qd, step.length_ns));
    if (block.steps.empty() || step.ios > block.steps[busiest].captured_ios) busiest = block.steps.size();
    block.steps.push_back({static_cast<uint32_t>(k), step.start_ns, step.length_ns, step.ios, step.iops, step.qd_mean,
                           step.latency_mean_ns, static_cast<uint32_t>(mix.streams.size()), qd,
                           replay.segments.size() - 1, 0, 0, 0});
  }
  if (replay.segments.empty()) {
    throw UsageError("rww.capture", "the capture has no step with a read or write this device can issue");
  }
  replay.tracking = {{fmt::format("{} {}", replay.segments[busiest].label, to_string(metric)), busiest, metric}};
  apply_round_rules(spec, replay);
  const PhaseRecord phase = run_rounds(ctx.exec, replay);
  for (results::RwwReplayStep& s : block.steps) {
    const stats::DirectionSummary& d = phase.window[s.segment_index].combined;
    s.iops = d.iops;
    s.mb_per_s = d.mb_per_s;
    s.latency_mean_ns = d.latency_mean_ns;
  }
  rec.phases.push_back(record_of(phase));
  return close_record(spec, std::move(rec), block);
}

}  // namespace

std::unique_ptr<PtsTest> make_rww_replay_test() { return std::make_unique<RwwReplayTest>(); }

}  // namespace ptsuite::pts
