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

results::IoCharacterization characterize(const std::string& capture) {
  const capture::CharacterizeOptions options;  // docs/capture.md's defaults: SEQ look-back 8
  try {
    if (const std::optional<std::string_view> bytes = embedded_file(capture)) {
      return capture::characterize_bytes(*bytes, capture, options);
    }
    return capture::characterize_file(capture, options);
  } catch (const UsageError& e) {
    throw UsageError(k_setting, fmt::format("{} (give captures/pgbench.ptcap, captures/sysbench.ptcap or a "
                                            "capture file made by `ptsuite capture`)",
                                            e.what()));
  }
}

}  // namespace

RwwWorkload rww_workload(TestSpec& spec) {
  const std::string capture = spec.get("capture").value.get<std::string>();
  const double coverage = spec.get("coverage").value.get<double>();
  RwwWorkload w;
  w.applied = replay::synthesize(characterize(capture), coverage);
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
  double weights = 0;
  for (const workload::StreamSpec& s : w.streams) weights += s.weight;
  std::map<uint64_t, double> sizes;
  for (const workload::StreamSpec& s : w.streams) {
    w.read_pct += s.read_pct * s.weight / weights;
    sizes[s.block_sizes.front().bytes] += 100.0 * s.weight / weights;
  }
  for (const auto& [bytes, pct] : sizes) w.block_sizes.push_back({bytes, pct});
  // The summary mix in labels and tables to 0.1 % ("40.4/59.6"); the streams carry the exact one.
  w.read_pct = std::round(w.read_pct * 10) / 10;
  return w;
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
