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

nlohmann::json to_json(const AppliedWorkload& w) {
  nlohmann::json streams = nlohmann::json::array();
  for (const AppliedStream& s : w.streams) {
    streams.push_back({{"name", s.name},
                       {"pattern", s.sequential ? "sequential" : "random"},
                       {"size_bytes", s.size_bytes},
                       {"op", s.write ? "write" : "read"},
                       {"captured_share", s.captured_share},
                       {"weight", s.weight}});
  }
  return {{"kind", "ptsuite.applied_workload"},
          {"capture_device", w.capture_device},
          {"coverage_goal", w.coverage_goal},
          {"covered", w.covered},
          {"capture_streams", w.capture_streams},
          {"passed_over", w.passed_over},
          {"streams", streams}};
}

}  // namespace ptsuite::replay
