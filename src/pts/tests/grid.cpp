// Shared pieces of the grid tests: the R/W-mix x block-size template and tracking lookup.
#include <cmath>
#include <fmt/format.h>

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
      return TrackingSpec{fmt::format("{} {}", s.label, metric_unit(metric) == std::string("ns") ? "ART" : metric_unit(metric)),
                          i, metric};
    }
  }
  throw Error(ExitCode::usage,
              fmt::format("the tracking variable {} is not part of this run (its block size may be omitted on this "
                          "device); steady state cannot be judged",
                          entry.dump()));
}

}  // namespace ptsuite::pts
