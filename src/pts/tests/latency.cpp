// Latency test, PTS 2.0.2 §9: purge, WIPC, Rounds of R/W mix (100/0, 65/35, 0/100) x block
// size (8, 4, 0.5 KiB) RND at TC 1 / QD 1 until the mean response time of RND 4 KiB 0/100
// attains steady state; then (PTS 2.0) a long RND 4 KiB 100 % W capture whose histogram gives
// the response-time distribution and confidence levels.
#include <ptsuite/pts/tests/core_tests.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {

nlohmann::json LatencyTest::run(TestContext& ctx) const {
  TestSpec spec(ctx, id());
  nlohmann::json rec = begin_record(spec);
  const uint32_t tc = spec.threads();
  const uint32_t qd = spec.queue_depth();
  if (spec.get("purge").value.get<bool>()) {
    rec["purges"].push_back(purge_step(spec, "main"));
  }
  if (spec.get("wipc").value.get<bool>()) {
    rec["preconditioning"].push_back(wipc_step(spec, "main", wipc_block_bytes(spec), tc, qd));
  }
  (void)spec.get("pattern");
  (void)spec.get("loop_order");
  (void)spec.get("reported_value");
  const std::vector<RwMix> mixes = spec.rw_mixes("rw_mixes");
  const std::vector<uint64_t> sizes = spec.block_sizes("block_sizes");

  RoundLoopSpec loop;
  loop.test = id();
  loop.phase = "main";
  loop.segments = mix_by_size_grid(mixes, sizes, workload::AccessPattern::random, tc, qd, spec.duration_ns("segment_duration"));
  for (const nlohmann::json& t : spec.get("tracking").value) {
    loop.tracking.push_back(resolve_tracking(t, loop.segments));
  }
  apply_round_rules(spec, loop);
  const PhaseRecord phase = run_rounds(ctx.exec, loop);
  rec["phases"].push_back(phase);
  rec["matrix"] = window_matrix(phase, mixes, sizes);

  const nlohmann::json capture = spec.get("capture").value;
  if (!capture.is_null()) {
    const SegmentSpec s = make_segment(
        workload::AccessPattern::random, parse_rw_mix(capture.at("rw_mix").get<std::string>(), "capture"),
        units::parse_size_bytes(capture.at("block_size").get<std::string>(), "latency/capture"),
        capture.at("threads").get<uint32_t>(), capture.at("queue_depth").get<uint32_t>(),
        spec.duration_ns("capture_duration"));
    const SegmentResult r = run_segment(ctx.exec, StepId{id(), "capture", "rt-histogram"}, s);
    rec["captures"].push_back(capture_record("response-time-histogram", s, r));
  }
  rec["parameters"] = spec.parameters();
  rec["omitted"] = spec.omitted();
  return rec;
}

}  // namespace ptsuite::pts
