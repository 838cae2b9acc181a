// Spec-sheet validation (`ptsuite validate`; not a PTS test, docs/validate.md): every claim of
// the sheet in SpecContext::claims is measured under its own conditions. Claims with equal
// conditions share one measurement point (claims.hpp). Each point starts from a purge:
//   FOB           purge, for a read-only workload a SEQ 128 KiB fill of read_fill_multiple x
//                 the ActiveRange, then one measure_duration segment;
//   steady state  purge, WIPC at the point's TC/QD, then Rounds of one round_duration segment
//                 until the tracking variables (pts/tests/claims.json "tracking") attain
//                 steady state by the common rule; judged on the measurement-window aggregate.
// The record's own block is "validation": the sheet as parsed, the points (conditions, summary,
// steady state) and one verdict per claim (claims.hpp judge_claim).
#include <fmt/format.h>
#include <algorithm>

#include <ptsuite/pts/claims.hpp>
#include <ptsuite/pts/procedures/shared.hpp>
#include <ptsuite/stats/stats_json.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

#include "pts/procedures/factories.hpp"

namespace ptsuite::pts {

namespace {

using nlohmann::json;

struct ClaimsData {
  uint64_t measure_ns = 0;
  uint64_t round_ns = 0;
  double read_fill_multiple = 0;
  uint64_t fill_block_bytes = 0;
  uint32_t fill_threads = 0;
  uint32_t fill_queue_depth = 0;
  json tracking;
};

// Reads every value of pts/tests/claims.json up front (all of them drive the run).
ClaimsData read_data(TestSpec& spec) {
  if (!spec.get("purge").value.get<bool>() || !spec.get("wipc").value.get<bool>() ||
      spec.get("reported_value").value != "measurement-window-average") {
    throw Error(ExitCode::system, "built-in PTS data claims: purge, wipc and reported_value are fixed conventions");
  }
  (void)spec.get("section");
  ClaimsData d;
  d.measure_ns = spec.duration_ns("measure_duration");
  d.round_ns = spec.duration_ns("round_duration");
  d.read_fill_multiple = spec.get("read_fill_multiple").value.get<double>();
  const json fill = spec.get("fill").value;
  d.fill_block_bytes = units::parse_size_bytes(fill.at("block_size").get<std::string>(), "claims/fill");
  d.fill_threads = fill.at("threads").get<uint32_t>();
  d.fill_queue_depth = fill.at("queue_depth").get<uint32_t>();
  d.tracking = spec.get("tracking").value;
  return d;
}

SegmentSpec point_segment(const MeasurementPoint& p, uint64_t duration_ns) {
  const ClaimConditions& c = p.conditions;
  SegmentSpec s = make_segment(c.pattern, c.mix, c.block_bytes, c.threads, c.queue_depth, duration_ns);
  if (c.active_range_pct < 100) {
    // The claim's ActiveRange as the first zone of the run's ActiveRange; the rest gets no IO.
    s.zones = {{100.0, c.active_range_pct}, {0.0, 100.0 - c.active_range_pct}};
  }
  if (c.pattern == workload::AccessPattern::sequential) {
    s.sequence_key = "claims-" + p.id;
  }
  return s;
}

// The tracking variable of one claim (pts/tests/claims.json "tracking", by metric).
Metric tracking_metric(const ClaimsData& d, const Claim& claim) {
  const std::string name = d.tracking.at(to_string(claim.metric)).get<std::string>();
  if (name == "mb_per_s" && claim.direction == ClaimDirection::read) return Metric::read_mb_per_s;
  if (name == "mb_per_s" && claim.direction == ClaimDirection::write) return Metric::write_mb_per_s;
  return parse_metric(name);
}

struct Measured {
  stats::IoSummary summary;
  std::optional<results::PointSteadyState> steady_state;  // none for FOB points
  json read_fill;                                         // the FOB read fill, null when none ran
};

Measured measure_fob(TestContext& ctx, TestSpec& spec, const ClaimsData& d, const MeasurementPoint& p,
                     results::TestRecord& rec) {
  json read_fill;
  if (p.conditions.mix.read_pct == 100 && d.read_fill_multiple > 0) {
    const double ar = ctx.settings.number("active_range_pct") / 100.0;
    const auto bytes =
        static_cast<uint64_t>(d.read_fill_multiple * ar * static_cast<double>(ctx.target.capacity_bytes));
    SegmentSpec fill = make_segment(workload::AccessPattern::sequential, RwMix{0}, d.fill_block_bytes, d.fill_threads,
                                    d.fill_queue_depth, 0);
    fill.bytes_limit = std::max(d.fill_block_bytes, bytes / d.fill_block_bytes * d.fill_block_bytes);
    fill.label = "read fill " + fill.label;
    const SegmentResult r = run_segment(ctx.exec, StepId{spec.test_id(), p.id, "read-fill"}, fill);
    // Not WIPC (the compliance verdict judges WIPC): the point's own record keeps it.
    read_fill = json{{"capacity_multiple", d.read_fill_multiple},
                     {"bytes_target", fill.bytes_limit},
                     {"bytes_written", r.summary.write.bytes},
                     {"elapsed_ns", r.elapsed_ns},
                     {"mb_per_s", r.summary.write.mb_per_s}};
  }
  const SegmentSpec seg = point_segment(p, d.measure_ns);
  const SegmentResult r = run_segment(ctx.exec, StepId{spec.test_id(), p.id, "measure"}, seg);
  rec.captures.push_back(capture_record(p.id, seg, r));
  return {r.summary, std::nullopt, read_fill};
}

Measured measure_steady(TestContext& ctx, TestSpec& spec, const ClaimsData& d, const ClaimSheet& sheet,
                        const MeasurementPoint& p, results::TestRecord& rec) {
  const ClaimConditions& c = p.conditions;
  rec.preconditioning.push_back(wipc_step(spec, p.id, wipc_block_bytes(spec), c.threads, c.queue_depth));
  RoundLoopSpec loop;
  loop.test = spec.test_id();
  loop.phase = p.id;
  loop.segments = {point_segment(p, d.round_ns)};
  for (const size_t i : p.claims) {
    const Metric m = tracking_metric(d, sheet.claims[i]);
    const bool known =
        std::any_of(loop.tracking.begin(), loop.tracking.end(), [m](const TrackingSpec& t) { return t.metric == m; });
    if (!known) {
      loop.tracking.push_back({fmt::format("{} {}", loop.segments[0].label, to_string(m)), 0, m});
    }
  }
  apply_round_rules(spec, loop);
  const PhaseRecord phase = run_rounds(ctx.exec, loop);
  rec.phases.push_back(record_of(phase));
  return {phase.window.at(0),
          results::PointSteadyState{phase.attained(), phase.rounds_run(), phase.window_first_round,
                                    phase.window_last_round},
          json()};
}

class ClaimsTest final : public PtsTest {
 public:
  [[nodiscard]] std::string id() const override { return "claims"; }

 protected:
  [[nodiscard]] results::TestRecord procedure(TestContext& ctx) const override;
};

results::TestRecord ClaimsTest::procedure(TestContext& ctx) const {
  if (ctx.spec.claims.is_null()) {
    throw UsageError("tests", "claims validates a spec sheet: run it as `ptsuite validate --claims SHEET.json ...`");
  }
  const ClaimSheet sheet = parse_claim_sheet(ctx.spec.claims, "the claims sheet");
  TestSpec spec(ctx, id());
  results::TestRecord rec = begin_record(spec);
  const ClaimsData data = read_data(spec);
  std::vector<results::ValidationPoint> points;
  std::vector<stats::IoSummary> summaries(sheet.claims.size());
  std::vector<std::string> point_of(sheet.claims.size());
  for (const MeasurementPoint& p : measurement_points(sheet)) {
    rec.purges.push_back(purge_step(spec, p.id));
    const Measured m = p.conditions.state == ClaimState::fob ? measure_fob(ctx, spec, data, p, rec)
                                                             : measure_steady(ctx, spec, data, sheet, p, rec);
    results::ValidationPoint point;
    point.id = p.id;
    point.conditions = record_of(p.conditions);
    for (const size_t i : p.claims) {
      summaries[i] = m.summary;
      point_of[i] = p.id;
      point.claims.push_back(sheet.claims[i].id);
    }
    point.summary = results::Embedded(json(m.summary));
    point.steady_state = m.steady_state;
    point.read_fill = results::Embedded(m.read_fill);
    point.source.kind = "measured";
    points.push_back(std::move(point));
  }
  std::vector<results::ClaimOutcome> claims;
  for (size_t i = 0; i < sheet.claims.size(); ++i) {
    claims.push_back(claim_result(sheet.claims[i], point_of[i], &summaries[i]));
  }
  return close_record(spec, std::move(rec), validation_block(sheet, std::move(points), std::move(claims), "measured"));
}

}  // namespace

std::unique_ptr<PtsTest> make_claims_test() { return std::make_unique<ClaimsTest>(); }

}  // namespace ptsuite::pts
