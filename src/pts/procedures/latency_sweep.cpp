// latency-sweep (pts/tests/latency-sweep.json; a ptsuite extension, never a PTS test): the
// Latency procedure (PTS §9: purge, WIPC, Rounds until the mean response time of RND 4 KiB
// 100 % W at TC 1 / QD 1 attains steady state) over a grid of R/W mix x block size x TC x QD
// (default 3 x 1 x 3 x 6 = 54 one-minute cells per Round) instead of TC 1 / QD 1 only. Every
// cell reports the measurement-window IOPS, MB/s, ART, 99, 99.9, 99.99, 99.999 % and MRT
// (record block "sweep").
#include <fmt/format.h>

#include <ptsuite/pts/procedures/shared.hpp>
#include <ptsuite/results/latency_sweep.hpp>
#include <ptsuite/util/error.hpp>

#include "pts/procedures/factories.hpp"

namespace ptsuite::pts {

namespace {

// One cell of the grid: its keys and the window aggregate of reads and writes combined.
results::SweepCell cell_of(const SegmentSpec& s, const stats::IoSummary& window, uint64_t window_max_ns) {
  const stats::DirectionSummary& c = window.combined;
  return {format_rw_mix(s.mix), s.block_sizes.front().bytes, s.threads,    s.queue_depth, s.label, c.iops,
          c.mb_per_s,           response_times(c),           window_max_ns};
}

class LatencySweepTest final : public PtsTest {
 public:
  [[nodiscard]] std::string id() const override { return "latency-sweep"; }

 protected:
  [[nodiscard]] results::TestRecord procedure(TestContext& ctx) const override;
};

results::TestRecord LatencySweepTest::procedure(TestContext& ctx) const {
  TestSpec spec(ctx, id());
  results::TestRecord rec = begin_record(spec);
  const nlohmann::json wipc_toio = spec.get("wipc_toio").value;
  purge_and_wipc(spec, rec, wipc_toio.at("threads").get<uint32_t>(), wipc_toio.at("queue_depth").get<uint32_t>());
  const SpecValue pattern_value = spec.get("pattern");
  const workload::AccessPattern pattern =
      parse_access_pattern(pattern_value.value.get<std::string>(), pattern_value.path);
  if (spec.get("reported_value").value != "measurement-window-average") {
    throw Error(ExitCode::system, "built-in PTS data latency-sweep/reported_value: only measurement-window-average");
  }
  const std::vector<RwMix> mixes = spec.rw_mixes("rw_mixes");
  const std::vector<uint64_t> sizes = spec.block_sizes("block_sizes");
  const std::vector<uint32_t> tcs = spec.counts("thread_counts");
  const std::vector<uint32_t> qds = spec.counts("queue_depths");
  const uint64_t duration_ns = spec.duration_ns("segment_duration");

  RoundLoopSpec loop;
  loop.test = id();
  loop.phase = "main";
  for (const RwMix& mix : mixes) {
    for (const uint64_t bs : sizes) {
      for (const uint32_t tc : tcs) {
        for (const uint32_t qd : qds) {
          SegmentSpec s = make_segment(pattern, mix, bs, tc, qd, duration_ns);
          s.label = fmt::format("{} TC{} QD{}", s.label, tc, qd);
          loop.segments.push_back(std::move(s));
        }
      }
    }
  }
  for (const nlohmann::json& t : spec.get("tracking").value) {
    loop.tracking.push_back(resolve_tracking(t, loop.segments));
  }
  apply_round_rules(spec, loop);
  const PhaseRecord phase = run_rounds(ctx.exec, loop);
  rec.phases.push_back(record_of(phase));

  results::LatencySweepBlock sweep;
  for (size_t i = 0; i < loop.segments.size(); ++i) {
    sweep.cells.push_back(cell_of(loop.segments[i], phase.window[i], phase.window_max_ns.at(i).combined));
  }
  for (const RwMix& m : mixes) sweep.rw_mixes.push_back(format_rw_mix(m));
  sweep.block_sizes_bytes = sizes;
  sweep.thread_counts = tcs;
  sweep.queue_depths = qds;
  sweep.source = "measurement-window-average";
  return close_record(spec, std::move(rec), sweep);
}

}  // namespace

std::unique_ptr<PtsTest> make_latency_sweep_test() { return std::make_unique<LatencySweepTest>(); }

}  // namespace ptsuite::pts
