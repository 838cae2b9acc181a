// IOPS test, PTS 2.0.2 §7: purge, WIPC, then Rounds of R/W mix (outer) x block size (inner)
// RND segments until the tracking variables (2.0: three, all must pass; E 1.1: one) attain
// steady state or max_rounds; reported cells = measurement-window averages.
#include <ptsuite/pts/tests/core_tests.hpp>

namespace ptsuite::pts {

nlohmann::json IopsTest::run(TestContext& ctx) const {
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
  rec["parameters"] = spec.parameters();
  rec["omitted"] = spec.omitted();
  return rec;
}

}  // namespace ptsuite::pts
