// rww-streams (docs/rww.md; a ptsuite extension modelled on SNIA RWSW's individual-stream tests,
// never claimed RWSW-compliant): purge and WIPC once, then each stream of the capture's applied
// test workload alone, in the workload's order (most IOs first), in Rounds of one segment at
// the test's TOIO until its IOPS attains steady state (pts/common.json rule) or the Round cap.
// The block lists each stream's measurement-window IOPS, MB/s and response times, and the
// stream-weighted IOPS 1 / sum(w_i / IOPS_i) they imply for the whole mix.
#include <fmt/format.h>

#include <ptsuite/pts/procedures/shared.hpp>
#include <ptsuite/results/rww_streams.hpp>

#include "pts/procedures/factories.hpp"
#include "pts/procedures/rww_workload.hpp"

namespace ptsuite::pts {

namespace {

// The workload with only stream `i` (weight 1, its own mix and size).
RwwWorkload one_stream(const RwwWorkload& w, size_t i) {
  RwwWorkload one;
  one.streams = {w.streams[i]};
  one.streams.front().weight = 1.0;
  one.read_pct = w.streams[i].read_pct;
  one.block_sizes = {{w.streams[i].block_sizes.front().bytes, 100.0}};
  return one;
}

// 1 / sum(w_i / IOPS_i): with each stream's share w_i of the IOs served at its own alone rate,
// an IO of stream i costs 1 / IOPS_i seconds of the device, so N IOs take N * sum(w_i / IOPS_i).
double weighted_iops(const std::vector<results::RwwStream>& streams) {
  double seconds_per_io = 0;
  double weights = 0;
  for (const results::RwwStream& s : streams) {
    if (!(s.iops > 0)) return 0;
    seconds_per_io += s.weight / s.iops;
    weights += s.weight;
  }
  return seconds_per_io > 0 ? weights / seconds_per_io : 0;
}

class RwwStreamsTest final : public PtsTest {
 public:
  [[nodiscard]] std::string id() const override { return "rww-streams"; }

 protected:
  [[nodiscard]] results::TestRecord procedure(TestContext& ctx) const override;
};

results::TestRecord RwwStreamsTest::procedure(TestContext& ctx) const {
  TestSpec spec(ctx, id());
  results::TestRecord rec = begin_record(spec);
  const RwwWorkload w = rww_workload(spec);
  rec.applied_workload = w.applied;
  const uint32_t tc = spec.threads();
  const uint32_t qd = spec.queue_depth();
  if (spec.get("purge").value.get<bool>()) {
    rec.purges.push_back(purge_step(spec, "main"));
  }
  if (spec.get("wipc").value.get<bool>()) {
    rec.preconditioning.push_back(wipc_step(spec, "main", wipc_block_bytes(spec), tc, qd));
  }
  const uint64_t round_ns = spec.duration_ns("round_duration");
  const Metric metric = parse_metric(spec.get("tracking_metric").value.get<std::string>());
  results::RwwStreamsBlock block;
  block.threads = tc;
  block.queue_depth = qd;
  for (size_t i = 0; i < w.streams.size(); ++i) {
    const workload::StreamSpec& stream = w.streams[i];
    RoundLoopSpec loop;
    loop.test = id();
    loop.phase = fmt::format("stream-{:02}", i + 1);
    loop.segments = {rww_segment(one_stream(w, i), stream.name, tc, qd, round_ns)};
    loop.tracking = {{fmt::format("{} {}", stream.name, to_string(metric)), 0, metric}};
    apply_round_rules(spec, loop);
    const PhaseRecord phase = run_rounds(ctx.exec, loop);
    const stats::DirectionSummary& c = phase.window.front().combined;
    double weights = 0;
    for (const workload::StreamSpec& s : w.streams) weights += s.weight;
    block.streams.push_back({stream.name, stream.weight / weights, loop.phase, phase.attained(), phase.rounds_run(),
                             c.iops, c.mb_per_s, c.latency_mean_ns, c.latency_max_ns});
    rec.phases.push_back(record_of(phase));
  }
  block.weighted_iops = weighted_iops(block.streams);
  return close_record(spec, std::move(rec), block);
}

}  // namespace

std::unique_ptr<PtsTest> make_rww_streams_test() { return std::make_unique<RwwStreamsTest>(); }

}  // namespace ptsuite::pts
