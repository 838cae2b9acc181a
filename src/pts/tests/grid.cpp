// Shared pieces of the grid tests: the R/W-mix x block-size template, tracking lookup, and
// the purge / WIPC / Rounds body of IOPS and Latency.
#include <fmt/format.h>
#include <cmath>

#include <ptsuite/pts/tests/core_tests.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {

std::vector<SegmentSpec> mix_by_size_grid(const std::vector<RwMix>& mixes, const std::vector<uint64_t>& sizes,
                                          workload::AccessPattern pattern, uint32_t threads, uint32_t queue_depth,
                                          uint64_t duration_ns) {
  std::vector<SegmentSpec> out;
  for (const RwMix& mix : mixes) {
    for (uint64_t bs : sizes) {
      out.push_back(make_segment(pattern, mix, bs, threads, queue_depth, duration_ns));
    }
  }
  return out;
}

void run_mix_by_size_rounds(TestContext& ctx, TestSpec& spec, const std::string& test_id, nlohmann::json& rec) {
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
  loop.test = test_id;
  loop.phase = "main";
  loop.segments =
      mix_by_size_grid(mixes, sizes, workload::AccessPattern::random, tc, qd, spec.duration_ns("segment_duration"));
  for (const nlohmann::json& t : spec.get("tracking").value) {
    loop.tracking.push_back(resolve_tracking(t, loop.segments));
  }
  apply_round_rules(spec, loop);
  const PhaseRecord phase = run_rounds(ctx.exec, loop);
  rec["phases"].push_back(phase);
  rec["matrix"] = window_matrix(phase, mixes, sizes);
}

TrackingSpec resolve_tracking(const nlohmann::json& entry, const std::vector<SegmentSpec>& segments) {
  const Metric metric = parse_metric(entry.at("metric").get<std::string>());
  for (size_t i = 0; i < segments.size(); ++i) {
    const SegmentSpec& s = segments[i];
    bool match = true;
    if (entry.contains("rw_mix")) {
      match = match && parse_rw_mix(entry.at("rw_mix").get<std::string>(), "tracking") == s.mix;
    }
    if (entry.contains("block_size")) {
      const uint64_t bs = units::parse_size_bytes(entry.at("block_size").get<std::string>(), "tracking");
      match = match && s.block_sizes.size() == 1 && s.block_sizes.front().bytes == bs;
    }
    if (entry.contains("threads")) {
      match = match && s.threads == entry.at("threads").get<uint32_t>();
    }
    if (entry.contains("queue_depth")) {
      match = match && s.queue_depth == entry.at("queue_depth").get<uint32_t>();
    }
    if (match) {
      return TrackingSpec{
          fmt::format("{} {}", s.label, metric_unit(metric) == std::string("ns") ? "ART" : metric_unit(metric)), i,
          metric};
    }
  }
  throw Error(ExitCode::usage,
              fmt::format("the tracking variable {} is not part of this run (its block size may be omitted on this "
                          "device); steady state cannot be judged",
                          entry.dump()));
}

}  // namespace ptsuite::pts
