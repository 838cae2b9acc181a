// Composite Block Size Workload, PTS 2.0.2 §13 (test 13; PTS-E 1.1 ECW): purge; precondition
// with the CBW mix at 100 % W, TC 32 / QD 32, in Rounds until steady state; then
// demand-variation Rounds (an inter-round pre-write, then the TC x QD grid from high to low
// TOIO at the CBW R/W mix) until the IOPS at TC 32 / QD 32 attains steady state; then the
// MaxIOPS / MidIOPS / MinIOPS operating points, each with a pre-write and a response-time
// histogram capture.
// DIRTH (PTS 2.0.2 §14, pts-spec.md §3.8) is the same procedure over one fixed access pattern
// (pts/tests/dirth.json "access_pattern": RND, one block size; default OLTP 8 KiB 65/35)
// instead of the composite mix; PTS-E 1.1 ECW (pts-spec.md §3.9, pts/tests/ecw.json) is the
// CBW procedure with 1-minute preconditioning Rounds and no operating-point histograms
// ("histograms": false). rww-sweep (docs/rww.md, an extension modelled on RWSW) is the DIRTH
// procedure over a capture's applied test workload (every stream together, its own R/W mix,
// also in the preconditioning and pre-writes), after purge and WIPC. One class, four registry
// entries, record keys "cbw" / "dirth" / "ecw" / "rww_sweep" (with "applied_workload").
#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <optional>

#include <ptsuite/pts/procedures/shared.hpp>
#include <ptsuite/results/demand_sweep.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

#include "pts/procedures/factories.hpp"
#include "pts/procedures/rww_workload.hpp"

namespace ptsuite::pts {

namespace {

results::OperatingPoint point_record(const std::string& name, const GridPoint& p, const std::string& rule) {
  return {name, p.threads, p.queue_depth, p.threads * p.queue_depth, p.index, p.iops, p.latency_mean_ns, rule};
}

// Pre-writes are plotted as IOPS over time (report pages P3, P9, P11, P13): 60 points per
// pre-write, but no interval shorter than the workload runner's 10 ms minimum.
uint64_t prewrite_interval_ns(uint64_t duration_ns) { return std::max<uint64_t>(duration_ns / 60, 10'000'000); }

// The stimulus at one TOIO: CBW's composite block sizes and zones, or DIRTH's one block size,
// at `mix`. `name` starts the segment labels ("CBW 40/60 TC32 QD32", "RND 8KiB 65/35 TC32 QD32").
// rww-sweep: the applied test workload (`rww`), whose streams carry their own R/W mix (`m`
// is not used).
struct CbwStimulus {
  CompositeMix mix_of_sizes;
  std::string name = "CBW";
  std::optional<RwwWorkload> rww;
  SegmentSpec at(RwMix m, uint32_t tc, uint32_t qd, uint64_t duration_ns) const {
    if (rww) {
      return rww_segment(*rww, name, tc, qd, duration_ns);
    }
    SegmentSpec s = make_segment(workload::AccessPattern::random, m, 4096, tc, qd, duration_ns);
    s.block_sizes = mix_of_sizes.block_sizes;
    s.zones = mix_of_sizes.zones;
    s.label = fmt::format("{} {} TC{} QD{}", name, format_rw_mix(m), tc, qd);
    return s;
  }
};

struct Prewrite {
  RwMix mix;
  uint32_t threads = 0;
  uint32_t queue_depth = 0;
};

// The TC x QD grid of the demand-variation phase, and the host CPU use of its final Round.
struct Grid {
  std::vector<GridPoint> points;
  results::DemandGrid values;
};

Grid read_grid(const PhaseRecord& phase, const std::vector<uint32_t>& tcs, const std::vector<uint32_t>& qds,
               const std::string& source) {
  Grid g;
  for (size_t t = 0; t < tcs.size(); ++t) {
    std::vector<double> row_iops, row_art, row_cpu;
    for (size_t q = 0; q < qds.size(); ++q) {
      const size_t i = t * qds.size() + q;
      const SegmentResult& last = phase.rounds.back().segments[i];
      const stats::DirectionSummary& c = source == "final-round" ? last.summary.combined : phase.window[i].combined;
      g.points.push_back({i, tcs[t], qds[q], c.iops, c.latency_mean_ns});
      row_iops.push_back(c.iops);
      row_art.push_back(c.latency_mean_ns);
      // Host CPU use of the final Round's segment: process CPU time over wall time, in % of one core.
      row_cpu.push_back(last.elapsed_ns == 0 ? 0.0
                                             : 100.0 * (last.cpu_user_s + last.cpu_system_s) /
                                                   (static_cast<double>(last.elapsed_ns) / 1e9));
    }
    g.values.iops.push_back(std::move(row_iops));
    g.values.latency_mean_ns.push_back(std::move(row_art));
    g.values.host_cpu_pct_final_round.push_back(std::move(row_cpu));
  }
  return g;
}

struct OperatingPoints {
  std::vector<std::pair<std::string, GridPoint>> points;  // max, mid, min
  std::vector<results::OperatingPoint> records;
};

// MidIOPS (cbw.mid_iops_rule, [U]): "max-min-midpoint" (the default) takes the TOIO of the whole
// grid whose IOPS is closest to (MaxIOPS + MinIOPS) / 2, MinIOPS the IOPS at TC 1 / QD 1 (the
// first such TOIO in grid order, high to low TOIO); "eligible-range-midpoint" is ADATA's
// BlockStorageTestCbw.php: only the TOIOs whose ART is below the ceiling, the one closest to
// (their highest + their lowest IOPS) / 2, starting from the lowest and replacing it only by a
// strictly closer one in grid order. With no TOIO below the ceiling every TOIO is eligible.
std::pair<const GridPoint*, std::string> mid_point_of(const std::vector<GridPoint>& grid, const GridPoint& max_point,
                                                      const GridPoint& min_point, uint64_t ceiling_ns,
                                                      const std::string& rule) {
  if (rule == "eligible-range-midpoint") {
    std::vector<const GridPoint*> eligible;
    for (const GridPoint& p : grid) {
      if (p.latency_mean_ns < static_cast<double>(ceiling_ns)) eligible.push_back(&p);
    }
    const bool none = eligible.empty();
    if (none) {
      for (const GridPoint& p : grid) eligible.push_back(&p);
    }
    const auto by_iops = [](const GridPoint* a, const GridPoint* b) { return a->iops < b->iops; };
    const GridPoint* lowest = *std::min_element(eligible.begin(), eligible.end(), by_iops);
    const GridPoint* highest = *std::max_element(eligible.begin(), eligible.end(), by_iops);
    const double target = (highest->iops + lowest->iops) / 2.0;
    const GridPoint* mid = lowest;
    for (const GridPoint* p : eligible) {
      if (std::fabs(p->iops - target) < std::fabs(mid->iops - target)) mid = p;
    }
    return {mid, fmt::format("IOPS closest to (highest + lowest IOPS of the {} TOIOs{}) / 2 = {:.1f} "
                             "(mid_iops_rule=eligible-range-midpoint, ADATA)",
                             eligible.size(),
                             none ? "; none kept ART below the ceiling, so all of them"
                                  : fmt::format(" with ART below {} ms", static_cast<double>(ceiling_ns) / 1e6),
                             target)};
  }
  const double target = (max_point.iops + min_point.iops) / 2.0;
  const GridPoint* mid = &grid.front();
  for (const GridPoint& p : grid) {
    if (std::fabs(p.iops - target) < std::fabs(mid->iops - target)) mid = &p;
  }
  return {mid, fmt::format("IOPS closest to (MaxIOPS + MinIOPS) / 2 = {:.1f}", target)};
}

}  // namespace

// MaxIOPS (cbw.max_iops_rule, [U]): "art-ceiling" (the default, ADATA) is the TOIO with the
// highest IOPS whose ART is below the ceiling (with none below it, the lowest-ART TOIO);
// "highest-iops" is the grid's highest IOPS whatever its ART (the Demand Variation plot's peak);
// "knee" is the lowest TOIO (TC x QD) whose IOPS is at least knee_fraction of the grid's highest
// (AnandTech's rule: the lowest queue depth with that share of the highest performance); among
// TOIOs of the same TC x QD the highest IOPS. Ties keep the first TOIO in grid order (high to low).
std::pair<const GridPoint*, std::string> max_point_of(const std::vector<GridPoint>& grid, uint64_t ceiling_ns,
                                                      const std::string& rule, double knee_fraction) {
  const double ceiling_ms = static_cast<double>(ceiling_ns) / 1e6;
  const GridPoint* max_point = nullptr;
  for (const GridPoint& p : grid) {
    const bool eligible =
        rule == "highest-iops" || rule == "knee" || p.latency_mean_ns < static_cast<double>(ceiling_ns);
    if (eligible && (max_point == nullptr || p.iops > max_point->iops)) {
      max_point = &p;
    }
  }
  if (rule == "highest-iops") {
    return {max_point, "highest IOPS of every TOIO, whatever its ART (max_iops_rule=highest-iops)"};
  }
  if (rule == "knee") {
    const double floor_iops = knee_fraction * max_point->iops;
    const GridPoint* knee = max_point;
    for (const GridPoint& p : grid) {
      const uint64_t toio = uint64_t{p.threads} * p.queue_depth;
      const uint64_t knee_toio = uint64_t{knee->threads} * knee->queue_depth;
      if (p.iops >= floor_iops && (toio < knee_toio || (toio == knee_toio && p.iops > knee->iops))) {
        knee = &p;
      }
    }
    return {knee, fmt::format("lowest TOIO with IOPS at least {:g} % of the grid's highest ({:.1f}), whatever its "
                              "ART (max_iops_rule=knee)",
                              knee_fraction * 100, max_point->iops)};
  }
  if (max_point == nullptr) {
    max_point = &*std::min_element(grid.begin(), grid.end(), [](const GridPoint& a, const GridPoint& b) {
      return a.latency_mean_ns < b.latency_mean_ns;
    });
    return {max_point, fmt::format("no TOIO kept ART below {} ms: the lowest-ART TOIO is used", ceiling_ms)};
  }
  return {max_point, fmt::format("highest IOPS with ART below {} ms", ceiling_ms)};
}

namespace {

// MaxIOPS per `max_rule` (max_point_of above); MinIOPS: TC 1 / QD 1; MidIOPS per `mid_rule`
// (mid_point_of above) (§13 step 4).
OperatingPoints choose_points(const std::vector<GridPoint>& grid, uint64_t ceiling_ns, const std::string& max_rule,
                              double knee_fraction, const std::string& mid_rule) {
  const auto min_it =
      std::find_if(grid.begin(), grid.end(), [](const GridPoint& p) { return p.threads == 1 && p.queue_depth == 1; });
  if (min_it == grid.end()) {
    throw UsageError("queue_depths", "the TC x QD grid has no TC 1 / QD 1 point, so MinIOPS is undefined");
  }
  const GridPoint min_point = *min_it;
  const auto [max_point, max_text] = max_point_of(grid, ceiling_ns, max_rule, knee_fraction);
  const auto [mid_point, mid_text] = mid_point_of(grid, *max_point, min_point, ceiling_ns, mid_rule);
  OperatingPoints out;
  out.points =
      std::vector<std::pair<std::string, GridPoint>>{{"max", *max_point}, {"mid", *mid_point}, {"min", min_point}};
  out.records.push_back(point_record("max", *max_point, max_text));
  out.records.push_back(point_record("mid", *mid_point, mid_text));
  out.records.push_back(point_record("min", min_point, "TC 1 / QD 1"));
  return out;
}

class CompositeBlockSizeTest final : public PtsTest {
 public:
  explicit CompositeBlockSizeTest(std::string id) : m_id(std::move(id)) {}
  [[nodiscard]] std::string id() const override { return m_id; }

 protected:
  [[nodiscard]] results::TestRecord procedure(TestContext& ctx) const override;

 private:
  PhaseRecord demand_rounds(TestContext& ctx, TestSpec& spec, const CbwStimulus& cbw, const Prewrite& pw,
                            const std::vector<uint32_t>& tcs, const std::vector<uint32_t>& qds) const;
  std::vector<results::DemandPrewrite> histograms(TestContext& ctx, TestSpec& spec, const CbwStimulus& cbw,
                                                  const Prewrite& pw, const OperatingPoints& op,
                                                  results::TestRecord& rec) const;
  // CBW: the composite mix and zones; DIRTH: the one access pattern of its data.
  CbwStimulus stimulus(TestSpec& spec) const;

  std::string m_id;
};

// The demand phase's R/W mix: the test's, or the applied test workload's own.
RwMix demand_mix(TestSpec& spec, const CbwStimulus& cbw) {
  return cbw.rww ? RwMix{cbw.rww->read_pct} : spec.rw_mix("rw_mix");
}

CbwStimulus CompositeBlockSizeTest::stimulus(TestSpec& spec) const {
  if (spec.has("capture")) {
    CbwStimulus atw{CompositeMix{}, "ATW", rww_workload(spec)};
    atw.mix_of_sizes.block_sizes = atw.rww->block_sizes;
    return atw;
  }
  if (!spec.has("access_pattern")) {
    return CbwStimulus{composite_mix(spec, spec), "CBW", std::nullopt};
  }
  const nlohmann::json ap = spec.get("access_pattern").value;
  if (parse_access_pattern(ap.at("pattern").get<std::string>(), m_id + "/access_pattern") !=
      workload::AccessPattern::random) {
    throw Error(ExitCode::system, fmt::format("built-in PTS data {}/access_pattern: only random is supported", m_id));
  }
  const std::vector<uint64_t> sizes = spec.block_sizes("block_size");
  if (sizes.empty()) {
    throw UsageError(m_id, fmt::format("the {} block size is not a multiple of this device's {}-byte logical block",
                                       m_id, spec.context().target.logical_block_bytes));
  }
  return CbwStimulus{CompositeMix{{{sizes.front(), 100.0}}, {}}, "RND " + units::format_size_binary(sizes.front()),
                     std::nullopt};
}

PhaseRecord CompositeBlockSizeTest::demand_rounds(TestContext& ctx, TestSpec& spec, const CbwStimulus& cbw,
                                                  const Prewrite& pw, const std::vector<uint32_t>& tcs,
                                                  const std::vector<uint32_t>& qds) const {
  const RwMix mix = demand_mix(spec, cbw);
  const uint64_t irpw_ns = spec.duration_ns("inter_round_prewrite/duration");
  RoundLoopSpec demand;
  demand.test = id();
  demand.phase = "demand-variation";
  for (uint32_t tc : tcs) {
    for (uint32_t qd : qds) {
      demand.segments.push_back(cbw.at(mix, tc, qd, spec.duration_ns("segment_duration")));
    }
  }
  for (const nlohmann::json& t : spec.get("tracking").value) {
    demand.tracking.push_back(resolve_tracking(t, demand.segments));
  }
  apply_round_rules(spec, demand);
  demand.before_round = [&](uint32_t round) {
    SegmentSpec s = cbw.at(pw.mix, pw.threads, pw.queue_depth, irpw_ns);
    s.interval_ns = prewrite_interval_ns(irpw_ns);
    const SegmentResult r = run_segment(ctx.exec, StepId{id(), demand.phase, fmt::format("r{:03}-prewrite", round)}, s);
    return nlohmann::json{{"kind", "inter-round-prewrite"},
                          {"spec", s},
                          {"result", r},
                          {"series", interval_iops_series(r, s.interval_ns)}};
  };
  return run_rounds(ctx.exec, demand);
}

// Per operating point: a pre-write at its TOIO, then the response-time capture; returns the
// pre-write records and appends the captures to the record.
std::vector<results::DemandPrewrite> CompositeBlockSizeTest::histograms(TestContext& ctx, TestSpec& spec,
                                                                        const CbwStimulus& cbw, const Prewrite& pw,
                                                                        const OperatingPoints& op,
                                                                        results::TestRecord& rec) const {
  const RwMix mix = demand_mix(spec, cbw);
  std::vector<results::DemandPrewrite> prewrites;
  for (const auto& [name, p] : op.points) {
    SegmentSpec pws = cbw.at(pw.mix, p.threads, p.queue_depth, spec.duration_ns("histogram_prewrite"));
    pws.interval_ns = prewrite_interval_ns(pws.duration_ns);
    const SegmentResult pr = run_segment(ctx.exec, StepId{id(), "histogram-" + name, "prewrite"}, pws);
    prewrites.push_back(
        {name, results::Embedded(pws), results::Embedded(pr), interval_iops_series(pr, pws.interval_ns)});
    const SegmentSpec cs = cbw.at(mix, p.threads, p.queue_depth, spec.duration_ns("histogram_capture"));
    const SegmentResult cr = run_segment(ctx.exec, StepId{id(), "histogram-" + name, "capture"}, cs);
    rec.captures.push_back(capture_record(name + "-iops-histogram", cs, cr));
  }
  return prewrites;
}

results::TestRecord CompositeBlockSizeTest::procedure(TestContext& ctx) const {
  TestSpec spec(ctx, id());
  results::TestRecord rec = begin_record(spec);
  if (spec.get("purge").value.get<bool>()) {
    rec.purges.push_back(purge_step(spec, "main"));
  }
  const nlohmann::json pre_toio = spec.get("precondition/toio").value;
  const Prewrite pw{spec.has("capture") ? RwMix{} : spec.rw_mix("precondition/rw_mix"),
                    pre_toio.at("threads").get<uint32_t>(), pre_toio.at("queue_depth").get<uint32_t>()};
  if (spec.get("wipc").value.get<bool>()) {
    rec.preconditioning.push_back(wipc_step(spec, "main", wipc_block_bytes(spec), pw.threads, pw.queue_depth));
  }
  const CbwStimulus cbw = stimulus(spec);
  if (cbw.rww) {
    rec.applied_workload = cbw.rww->applied;
  }

  // Preconditioning Rounds: one long CBW 100 % W segment each, tracking its IOPS.
  RoundLoopSpec pre;
  pre.test = id();
  pre.phase = "precondition";
  pre.conditioning = "precondition";
  pre.segments = {cbw.at(pw.mix, pw.threads, pw.queue_depth, spec.duration_ns("precondition/round_duration"))};
  pre.tracking = {{cbw.name + " precondition IOPS", 0, Metric::iops}};
  apply_round_rules(spec, pre);
  if (spec.has("precondition/rounds")) {  // ECW: the script's fixed 25 x 1 min, or a cap (ecw.json)
    pre.max_rounds = spec.get("precondition/rounds").value.get<uint32_t>();
    pre.cap_setting = spec.get("precondition/rounds").setting;
    pre.stop_at_steady_state = spec.get("precondition/stop").value == "steady-state";
  }
  rec.phases.push_back(record_of(run_rounds(ctx.exec, pre)));

  const std::vector<uint32_t> tcs = spec.counts("thread_counts");
  const std::vector<uint32_t> qds = spec.counts("queue_depths");
  const PhaseRecord phase = demand_rounds(ctx, spec, cbw, pw, tcs, qds);
  rec.phases.push_back(record_of(phase));

  const std::string source = spec.get("operating_point_source").value.get<std::string>();
  const uint64_t ceiling_ns = spec.duration_ns("max_iops_art_ceiling");
  const Grid grid = read_grid(phase, tcs, qds, source);
  // The Mid rule is a setting where the test's data names one (CBW, DIRTH), else the default.
  const std::string mid_rule =
      spec.has("mid_iops_rule") ? spec.get("mid_iops_rule").value.get<std::string>() : "max-min-midpoint";
  const std::string max_rule =
      spec.has("max_iops_rule") ? spec.get("max_iops_rule").value.get<std::string>() : "art-ceiling";
  // The knee rule's share of the grid's highest IOPS (CBW, DIRTH name it; 0.95 is their default).
  const double knee_fraction =
      spec.has("max_iops_knee_fraction") ? spec.get("max_iops_knee_fraction").value.get<double>() : 0.95;
  const OperatingPoints op = choose_points(grid.points, ceiling_ns, max_rule, knee_fraction, mid_rule);
  const bool with_histograms = !spec.has("histograms") || spec.get("histograms").value.get<bool>();
  results::DemandSweepBlock block;
  block.prewrites = with_histograms ? histograms(ctx, spec, cbw, pw, op, rec) : std::vector<results::DemandPrewrite>{};
  block.rw_mix = format_rw_mix(demand_mix(spec, cbw));
  for (const workload::BlockSizeWeight& b : cbw.mix_of_sizes.block_sizes) {
    block.block_size_mix.push_back({b.bytes, b.weight});
  }
  for (const workload::AccessZone& z : cbw.mix_of_sizes.zones) {
    block.zones.push_back({z.io_pct, z.range_pct});
  }
  block.thread_counts = tcs;
  block.queue_depths = qds;
  block.operating_point_source = source;
  block.art_ceiling_ns = ceiling_ns;
  block.operating_points = op.records;
  block.grid = grid.values;
  return close_record(spec, std::move(rec), std::move(block));
}

}  // namespace

std::unique_ptr<PtsTest> make_cbw_test() { return std::make_unique<CompositeBlockSizeTest>("cbw"); }
std::unique_ptr<PtsTest> make_dirth_test() { return std::make_unique<CompositeBlockSizeTest>("dirth"); }
std::unique_ptr<PtsTest> make_ecw_test() { return std::make_unique<CompositeBlockSizeTest>("ecw"); }
std::unique_ptr<PtsTest> make_rww_sweep_test() { return std::make_unique<CompositeBlockSizeTest>("rww-sweep"); }

}  // namespace ptsuite::pts
