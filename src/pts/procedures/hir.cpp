// Host Idle Recovery, PTS 2.0.2 §11 (pts-spec.md §3.5): purge, then RND 4 KiB 100 % W at the
// test TOIO in Rounds of `precondition/segments` segments until the IOPS of each Round's last
// segment attains steady state (the Round is [U]: CH/ADATA 30 x 1 min); then for every wait
// state WS in `wait_states` (1, 2, 3, 5, 10):
//   A+B  `repetitions` x (one `write_period` of RND 4 KiB W, then WS x `wait_unit` of host idle)
//   C    return to baseline: `baseline_periods` x `write_period` of continuous RND 4 KiB W,
//        run as one segment logged every write period (no idle between periods, so no step).
// A host idle is a journaled step of its own (StepKind::idle): a resume repeats an interrupted
// idle whole. The record carries, per wait state, every write period's IOPS, their average and
// the baseline's, plus one IOPS-vs-time series with the write periods plotted back to back.
#include <fmt/format.h>

#include <ptsuite/pts/procedures/shared.hpp>
#include <ptsuite/results/hir.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

#include "pts/procedures/factories.hpp"

namespace ptsuite::pts {

namespace {

struct HirTiming {
  uint64_t write_period_ns = 0;
  uint64_t wait_unit_ns = 0;
  uint32_t repetitions = 0;
  uint32_t baseline_periods = 0;
};

// The back-to-back IOPS-vs-time series: each write period (or baseline interval) appended at
// the running sum of write time, so idle time does not stretch the plot (pts-spec.md §3.5).
struct BackToBack {
  double write_time_s = 0;
  results::HirSeries series;
  void add(double seconds, double value, uint32_t ws) {
    write_time_s += seconds;
    series.end_s.push_back(write_time_s);
    series.iops.push_back(value);
    series.wait_state.push_back(ws);
  }
};

class HostIdleRecoveryTest final : public PtsTest {
 public:
  [[nodiscard]] std::string id() const override { return "hir"; }

 protected:
  [[nodiscard]] results::TestRecord procedure(TestContext& ctx) const override;

 private:
  PhaseRecord precondition(TestContext& ctx, TestSpec& spec, const SegmentSpec& stimulus) const;
  results::HirWaitState wait_state(TestContext& ctx, uint32_t ws, const SegmentSpec& stimulus, const HirTiming& t,
                                   BackToBack& series) const;
};

PhaseRecord HostIdleRecoveryTest::precondition(TestContext& ctx, TestSpec& spec, const SegmentSpec& stimulus) const {
  RoundLoopSpec pre;
  pre.test = id();
  pre.phase = "precondition";
  pre.conditioning = "precondition";
  const uint32_t segments = spec.get("precondition/segments").value.get<uint32_t>();
  if (segments == 0) {
    throw UsageError("hir.precondition_segments", "a preconditioning Round needs at least one segment");
  }
  SegmentSpec s = stimulus;
  s.duration_ns = spec.duration_ns("precondition/segment_duration");
  pre.segments.assign(segments, s);
  // CH/ADATA track the IOPS of each Round's last segment.
  pre.tracking = {{fmt::format("{} IOPS (segment {} of the Round)", s.label, segments), segments - 1, Metric::iops}};
  apply_round_rules(spec, pre);
  return run_rounds(ctx.exec, pre);
}

results::HirWaitState HostIdleRecoveryTest::wait_state(TestContext& ctx, uint32_t ws, const SegmentSpec& stimulus,
                                                       const HirTiming& t, BackToBack& series) const {
  const std::string phase = fmt::format("wait-{}", ws);
  const uint64_t idle_ns = ws * t.wait_unit_ns;
  SegmentSpec write = stimulus;
  write.duration_ns = t.write_period_ns;
  results::HirWaitState state;
  state.wait_state = ws;
  state.idle_ns = idle_ns;
  state.repetitions = t.repetitions;
  double iops_sum = 0;
  for (uint32_t n = 1; n <= t.repetitions; ++n) {
    const SegmentResult r = run_segment(ctx.exec, StepId{id(), phase, fmt::format("write-{:04}", n)}, write);
    StepRequest idle;
    idle.kind = StepKind::idle;
    idle.idle_ns = idle_ns;
    const nlohmann::json idled = ctx.exec.execute(StepId{id(), phase, fmt::format("idle-{:04}", n)}, idle);
    const stats::DirectionSummary& c = r.summary.combined;
    iops_sum += c.iops;
    series.add(static_cast<double>(r.clock_ns()) / 1e9, c.iops, ws);  // the run's clock (the time axis)
    state.periods.push_back(
        {n, c.iops, c.mb_per_s, c.latency_mean_ns, c.latency_max_ns, r.elapsed_ns, idled.value("elapsed_ns", idle_ns)});
  }
  SegmentSpec baseline = stimulus;
  baseline.duration_ns = uint64_t{t.baseline_periods} * t.write_period_ns;
  baseline.interval_ns = t.write_period_ns;
  const SegmentResult b = run_segment(ctx.exec, StepId{id(), phase, "baseline"}, baseline);
  results::IntervalSeries b_series = interval_iops_series(b, baseline.interval_ns);
  for (size_t i = 0; i < b_series.iops.size(); ++i) {
    const double start_s = i == 0 ? 0.0 : b_series.end_s[i - 1];
    series.add(b_series.end_s[i] - start_s, b_series.iops[i], 0);
  }
  state.average_iops = t.repetitions > 0 ? iops_sum / t.repetitions : 0.0;
  state.baseline = {results::Embedded(baseline), b.summary.combined.iops, std::move(b_series), results::Embedded(b)};
  return state;
}

results::TestRecord HostIdleRecoveryTest::procedure(TestContext& ctx) const {
  TestSpec spec(ctx, id());
  results::TestRecord rec = begin_record(spec);
  const uint32_t tc = spec.threads();
  const uint32_t qd = spec.queue_depth();
  purge_and_wipc(spec, rec, tc, qd);
  const nlohmann::json stim = spec.get("stimulus").value;
  const SegmentSpec stimulus =
      make_segment(parse_access_pattern(stim.at("pattern").get<std::string>(), "hir/stimulus"),
                   parse_rw_mix(stim.at("rw_mix").get<std::string>(), "hir/stimulus"),
                   units::parse_size_bytes(stim.at("block_size").get<std::string>(), "hir/stimulus"), tc, qd, 0);
  rec.header.subtitle = subtitle_for(spec, stimulus);

  const PhaseRecord pre = precondition(ctx, spec, stimulus);
  const double steady_iops = pre.window.empty() ? 0.0 : pre.window.back().combined.iops;
  rec.phases.push_back(record_of(pre));

  const HirTiming t{spec.duration_ns("write_period"), spec.duration_ns("wait_unit"),
                    spec.get("repetitions").value.get<uint32_t>(), spec.get("baseline_periods").value.get<uint32_t>()};
  BackToBack series;
  results::HirBlock hir{stimulus_text(stimulus),
                        steady_iops,
                        pre.steady_state.attained,
                        t.write_period_ns,
                        t.wait_unit_ns,
                        t.repetitions,
                        t.baseline_periods,
                        {},
                        {}};
  for (uint32_t ws : spec.counts("wait_states")) {
    hir.wait_states.push_back(wait_state(ctx, ws, stimulus, t, series));
  }
  hir.series = std::move(series.series);
  return close_record(spec, std::move(rec), std::move(hir));
}

}  // namespace

std::unique_ptr<PtsTest> make_hir_test() { return std::make_unique<HostIdleRecoveryTest>(); }

}  // namespace ptsuite::pts
