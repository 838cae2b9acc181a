// Throughput test, PTS 2.0.2 §8: for each block size (1024 KiB, then 128 KiB): purge, WIPC
// with SEQ writes of that block size, then Rounds of SEQ 100 % read and SEQ 100 % write at
// TC 1 / QD 32 until the write MB/s attains steady state. Each direction's sequential position
// carries over from Round to Round (the segments share a sequence key).
#include <ptsuite/pts/tests/core_tests.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {

nlohmann::json ThroughputTest::run(TestContext& ctx) const {
  TestSpec spec(ctx, id());
  nlohmann::json rec = begin_record(spec);
  const uint32_t tc = spec.threads();
  const uint32_t qd = spec.queue_depth();
  (void)spec.get("purge");
  (void)spec.get("wipc");
  (void)spec.get("pattern");
  (void)spec.get("reported_value");
  const std::vector<RwMix> mixes = spec.rw_mixes("rw_mixes");
  const uint64_t duration_ns = spec.duration_ns("segment_duration");
  const nlohmann::json tracking = spec.get("tracking").value;

  nlohmann::json table = nlohmann::json::array();
  for (uint64_t bs : spec.block_sizes("block_sizes")) {
    const std::string phase_name = units::format_size_binary(bs);
    rec["purges"].push_back(purge_step(spec, phase_name));
    rec["preconditioning"].push_back(wipc_step(spec, phase_name, bs, tc, qd));

    RoundLoopSpec loop;
    loop.test = id();
    loop.phase = phase_name;
    for (const RwMix& mix : mixes) {
      SegmentSpec s = make_segment(workload::AccessPattern::sequential, mix, bs, tc, qd, duration_ns);
      s.sequence_key = "throughput-" + phase_name + "-" + format_rw_mix(mix);
      loop.segments.push_back(s);
    }
    for (const nlohmann::json& t : tracking) {
      loop.tracking.push_back(resolve_tracking(t, loop.segments));
    }
    apply_round_rules(spec, loop);
    const PhaseRecord phase = run_rounds(ctx.exec, loop);
    rec["phases"].push_back(phase);
    nlohmann::json row{{"block_size", phase_name}, {"block_size_bytes", bs}};
    for (size_t i = 0; i < mixes.size(); ++i) {
      const bool reads = mixes[i].read_pct > 0;
      row[reads ? "read_mb_per_s" : "write_mb_per_s"] =
          reads ? phase.window[i].read.mb_per_s : phase.window[i].write.mb_per_s;
    }
    table.push_back(row);
  }
  rec["table"] = table;
  rec["parameters"] = spec.parameters();
  rec["omitted"] = spec.omitted();
  return rec;
}

}  // namespace ptsuite::pts
