// Contract: the own block of rww-streams ("rww_streams"; results schema
// "#/$defs/rww_streams_block"; docs/rww.md), a ptsuite extension modelled on RWSW's individual
// streams: each stream of the applied test workload run alone to steady state at one TOIO,
// with its measurement-window figures, and the stream-weighted IOPS they imply for the mix.
// The pts procedure builds it; reporters read it with read_rww_streams(), tolerant like every
// results reader (results/json_read.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ptsuite::results {

struct RwwStream {
  std::string name;   // "RND 8KiB W"
  double weight = 0;  // its share of the applied test workload's IOs, 0..1
  std::string phase;  // the Round phase that ran it ("stream-01")
  bool steady_state = false;
  uint32_t rounds = 0;
  double iops = 0;  // measurement-window averages
  double mb_per_s = 0;
  double latency_mean_ns = 0;
  uint64_t latency_max_ns = 0;
};

struct RwwStreamsBlock {
  uint32_t threads = 0;
  uint32_t queue_depth = 0;
  std::vector<RwwStream> streams;
  // 1 / sum(weight_i / iops_i): the IOPS of the mix if every IO took the mean time of its stream
  // alone at this TOIO (each stream's share of IOs at its own rate); 0 when a stream did no IO.
  double weighted_iops = 0;
};

void to_json(nlohmann::json& j, const RwwStreamsBlock& block);
RwwStreamsBlock read_rww_streams(const nlohmann::json& block);

}  // namespace ptsuite::results
