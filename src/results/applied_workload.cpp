#include <ptsuite/results/applied_workload.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

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
  return {{"kind", k_applied_workload_kind},
          {"capture", w.capture},
          {"capture_device", w.capture_device},
          {"capture_ios", w.capture_ios},
          {"coverage_goal", w.coverage_goal},
          {"covered", w.covered},
          {"capture_streams", w.capture_streams},
          {"passed_over", w.passed_over},
          {"streams", streams}};
}

AppliedWorkload read_applied_workload(const nlohmann::json& j) {
  AppliedWorkload w;
  w.capture = str(j, "capture");
  w.capture_device = str(j, "capture_device");
  w.capture_ios = count(at(j, "capture_ios"));
  w.coverage_goal = num(at(j, "coverage_goal"));
  w.covered = num(at(j, "covered"));
  w.capture_streams = count(at(j, "capture_streams"));
  w.passed_over = count(at(j, "passed_over"));
  w.streams = read_each(at(j, "streams"), [](const nlohmann::json& s) {
    return AppliedStream{str(s, "name"),          str(s, "pattern") == "sequential", count32(at(s, "size_bytes")),
                         str(s, "op") == "write", num(at(s, "captured_share")),      num(at(s, "weight"))};
  });
  return w;
}

}  // namespace ptsuite::results
