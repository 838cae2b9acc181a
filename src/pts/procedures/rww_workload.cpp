// The applied test workload of the real-world-workload tests (rww_workload.hpp).
#include "pts/procedures/rww_workload.hpp"

#include <fmt/format.h>
#include <cmath>
#include <map>

#include <ptsuite/capture/characterize.hpp>
#include <ptsuite/pts/procedures/shared.hpp>
#include <ptsuite/replay/synthesis.hpp>
#include <ptsuite/util/embedded.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::pts {

namespace {

constexpr char k_setting[] = "rww.capture";

results::IoCharacterization characterize(const std::string& name, const capture::CharacterizeOptions& options) {
  try {
    if (const std::optional<std::string_view> bytes = embedded_file(name)) {
      return capture::characterize_bytes(*bytes, name, options);
    }
    return capture::characterize_file(name, options);
  } catch (const UsageError& e) {
    throw UsageError(k_setting, fmt::format("{} (give captures/pgbench.ptcap, captures/sysbench.ptcap or a "
                                            "capture file made by `ptsuite capture`)",
                                            e.what()));
  }
}

}  // namespace

results::IoCharacterization rww_characterize(TestSpec& spec, uint64_t step_ns) {
  capture::CharacterizeOptions options;  // docs/capture.md's defaults: SEQ look-back 8
  if (step_ns > 0) options.step_ns = step_ns;
  if (spec.has("step_streams")) options.step_streams = spec.get("step_streams").value.get<uint32_t>();
  return characterize(spec.get("capture").value.get<std::string>(), options);
}

RwwWorkload rww_workload(TestSpec& spec) { return rww_workload(spec, rww_characterize(spec, 0)); }

RwwWorkload rww_workload(TestSpec& spec, const results::IoCharacterization& c) {
  const std::string capture = spec.get("capture").value.get<std::string>();
  const double coverage = spec.get("coverage").value.get<double>();
  RwwWorkload w;
  w.applied = replay::synthesize(c, coverage);
  w.applied.capture = capture;
  std::vector<std::string> left_out;
  w.streams = replay::to_streams(w.applied, spec.context().target.logical_block_bytes, &left_out);
  for (const std::string& name : left_out) {
    spec.omit(name, fmt::format("its transfer size is not a multiple of this device's {}-byte logical block",
                                spec.context().target.logical_block_bytes));
  }
  if (w.streams.empty()) {
    throw UsageError(k_setting, fmt::format("{} has no read or write stream this device can issue", capture));
  }
  summarise_streams(w);
  return w;
}

void summarise_streams(RwwWorkload& w) {
  double weights = 0;
  for (const workload::StreamSpec& s : w.streams) weights += s.weight;
  std::map<uint64_t, double> sizes;
  w.read_pct = 0;
  for (const workload::StreamSpec& s : w.streams) {
    w.read_pct += s.read_pct * s.weight / weights;
    sizes[s.block_sizes.front().bytes] += 100.0 * s.weight / weights;
  }
  // The summary mix in labels and tables to 0.1 % ("40.4/59.6"); the streams carry the exact one.
  w.read_pct = std::round(w.read_pct * 10) / 10;
  w.block_sizes.clear();
  for (const auto& [bytes, pct] : sizes) w.block_sizes.push_back({bytes, pct});
}

SegmentSpec rww_segment(const RwwWorkload& w, const std::string& label, uint32_t tc, uint32_t qd,
                        uint64_t duration_ns) {
  SegmentSpec s = make_segment(workload::AccessPattern::random, RwMix{w.read_pct}, 4096, tc, qd, duration_ns);
  s.block_sizes = w.block_sizes;
  s.streams = w.streams;
  s.label = fmt::format("{} TC{} QD{}", label, tc, qd);
  return s;
}

}  // namespace ptsuite::pts
