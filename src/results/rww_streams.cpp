#include <ptsuite/results/rww_streams.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

void to_json(nlohmann::json& j, const RwwStreamsBlock& block) {
  nlohmann::json streams = nlohmann::json::array();
  for (const RwwStream& s : block.streams) {
    streams.push_back({{"name", s.name},
                       {"weight", s.weight},
                       {"phase", s.phase},
                       {"steady_state", s.steady_state},
                       {"rounds", s.rounds},
                       {"iops", s.iops},
                       {"mb_per_s", s.mb_per_s},
                       {"latency_mean_ns", s.latency_mean_ns},
                       {"latency_max_ns", s.latency_max_ns}});
  }
  j = {{"threads", block.threads},
       {"queue_depth", block.queue_depth},
       {"streams", streams},
       {"weighted_iops", block.weighted_iops}};
}

RwwStreamsBlock read_rww_streams(const nlohmann::json& block) {
  RwwStreamsBlock b;
  b.threads = count32(at(block, "threads"));
  b.queue_depth = count32(at(block, "queue_depth"));
  b.weighted_iops = num(at(block, "weighted_iops"));
  b.streams = read_each(at(block, "streams"), [](const nlohmann::json& s) {
    RwwStream r;
    r.name = str(s, "name");
    r.weight = num(at(s, "weight"));
    r.phase = str(s, "phase");
    r.steady_state = at(s, "steady_state").is_boolean() && at(s, "steady_state").get<bool>();
    r.rounds = count32(at(s, "rounds"));
    r.iops = num(at(s, "iops"));
    r.mb_per_s = num(at(s, "mb_per_s"));
    r.latency_mean_ns = num(at(s, "latency_mean_ns"));
    r.latency_max_ns = count(at(s, "latency_max_ns"));
    return r;
  });
  return b;
}

}  // namespace ptsuite::results
