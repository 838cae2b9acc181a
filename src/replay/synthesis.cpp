// The applied test workload of a capture (replay/synthesis.hpp).
#include <ptsuite/replay/synthesis.hpp>

#include <fmt/format.h>

#include <ptsuite/util/error.hpp>

namespace ptsuite::replay {

AppliedWorkload synthesize(const results::IoCharacterization& c, double coverage) {
  if (!(coverage > 0) || coverage > 1) throw UsageError("coverage", "give a share of IOs above 0 and at most 1");
  AppliedWorkload w;
  w.coverage_goal = coverage;
  w.capture_streams = c.streams.size();
  w.capture_device = c.device;
  w.capture_ios = c.ios;
  // Streams come most IOs first: take them until the goal is covered. A 1e-12 slack keeps a
  // sum of shares that is mathematically the goal (0.5 + 0.3) from falling just short of it.
  for (const results::IoStreamStats& s : c.streams) {
    if (w.covered + 1e-12 >= coverage) break;
    if (s.op != "read" && s.op != "write") {
      ++w.passed_over;
      continue;
    }
    w.streams.push_back({s.name, s.sequential, s.size_bytes, s.op == "write", s.io_share, 0});
    w.covered += s.io_share;
  }
  for (AppliedStream& s : w.streams) s.weight = w.covered > 0 ? s.captured_share / w.covered : 0;
  return w;
}

std::string to_text(const AppliedWorkload& w) {
  std::string out = fmt::format(
      "Applied test workload of {}: {} of {} streams, covering {:.1f} % of the IOs (goal {:.0f} %; setting "
      "replay.synthesis_coverage [U]){}\n",
      w.capture_device, w.streams.size(), w.capture_streams, w.covered * 100, w.coverage_goal * 100,
      w.passed_over > 0 ? fmt::format("; {} flush/discard streams passed over", w.passed_over) : "");
  out += fmt::format("  {:<18} {:>10} {:>10}\n", "stream", "% captured", "weight %");
  for (const AppliedStream& s : w.streams) {
    out += fmt::format("  {:<18} {:>10.2f} {:>10.2f}\n", s.name, s.captured_share * 100, s.weight * 100);
  }
  return out;
}

std::vector<workload::StreamSpec> to_streams(const AppliedWorkload& w, uint32_t logical_block_bytes,
                                             std::vector<std::string>* left_out) {
  std::vector<workload::StreamSpec> out;
  for (const AppliedStream& s : w.streams) {
    if (s.size_bytes == 0 || logical_block_bytes == 0 || s.size_bytes % logical_block_bytes != 0) {
      if (left_out != nullptr) left_out->push_back(s.name);
      continue;
    }
    workload::StreamSpec one;
    one.name = s.name;
    one.weight = s.weight;
    one.pattern = s.sequential ? workload::AccessPattern::sequential : workload::AccessPattern::random;
    one.read_pct = s.write ? 0.0 : 100.0;
    one.block_sizes = {{s.size_bytes, 1.0}};
    out.push_back(std::move(one));
  }
  return out;
}

}  // namespace ptsuite::replay
