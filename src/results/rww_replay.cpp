#include <ptsuite/results/rww_replay.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

void to_json(nlohmann::json& j, const RwwReplayBlock& block) {
  nlohmann::json steps = nlohmann::json::array();
  for (const RwwReplayStep& s : block.steps) {
    steps.push_back({{"step", s.step},
                     {"start_ns", s.start_ns},
                     {"length_ns", s.length_ns},
                     {"captured_ios", s.captured_ios},
                     {"captured_iops", s.captured_iops},
                     {"captured_qd_mean", s.captured_qd_mean},
                     {"captured_latency_mean_ns", s.captured_latency_mean_ns},
                     {"streams", s.streams},
                     {"queue_depth", s.queue_depth},
                     {"segment_index", s.segment_index},
                     {"iops", s.iops},
                     {"mb_per_s", s.mb_per_s},
                     {"latency_mean_ns", s.latency_mean_ns}});
  }
  j = {{"step_ns", block.step_ns}, {"idle_steps", block.idle_steps}, {"steps", steps}};
}

RwwReplayBlock read_rww_replay(const nlohmann::json& block) {
  RwwReplayBlock b;
  b.step_ns = count(at(block, "step_ns"));
  b.idle_steps = count32(at(block, "idle_steps"));
  b.steps = read_each(at(block, "steps"), [](const nlohmann::json& s) {
    RwwReplayStep r;
    r.step = count32(at(s, "step"));
    r.start_ns = count(at(s, "start_ns"));
    r.length_ns = count(at(s, "length_ns"));
    r.captured_ios = count(at(s, "captured_ios"));
    r.captured_iops = num(at(s, "captured_iops"));
    r.captured_qd_mean = num(at(s, "captured_qd_mean"));
    r.captured_latency_mean_ns = num(at(s, "captured_latency_mean_ns"));
    r.streams = count32(at(s, "streams"));
    r.queue_depth = count32(at(s, "queue_depth"));
    r.segment_index = count(at(s, "segment_index"));
    r.iops = num(at(s, "iops"));
    r.mb_per_s = num(at(s, "mb_per_s"));
    r.latency_mean_ns = num(at(s, "latency_mean_ns"));
    return r;
  });
  return b;
}

}  // namespace ptsuite::results
