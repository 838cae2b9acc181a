// Contract: the own block of rww-replay ("rww_replay"; results schema
// "#/$defs/rww_replay_block"; docs/rww.md), a ptsuite extension modelled on RWSW's replay of a
// capture's steps: per step of the capture (in order) what the capture saw (IOs, IOPS, mean
// queue depth, mean latency) and what the device under test did with the step's stream mix at
// the step's demand intensity (measurement-window averages). The pts procedure builds it;
// reporters read it with read_rww_replay(), tolerant like every results reader.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ptsuite::results {

struct RwwReplayStep {
  uint32_t step = 0;  // index in the capture
  uint64_t start_ns = 0;
  uint64_t length_ns = 0;
  uint64_t captured_ios = 0;
  double captured_iops = 0;
  double captured_qd_mean = 0;
  double captured_latency_mean_ns = 0;
  uint32_t streams = 0;      // streams in the step's replayed mix
  uint32_t queue_depth = 0;  // TC 1 x this QD
  uint64_t segment_index = 0;
  double iops = 0;  // the device under test, measurement-window averages
  double mb_per_s = 0;
  double latency_mean_ns = 0;
};

struct RwwReplayBlock {
  uint64_t step_ns = 0;
  uint32_t idle_steps = 0;  // steps without a read or write of the top streams: not replayed
  std::vector<RwwReplayStep> steps;
};

void to_json(nlohmann::json& j, const RwwReplayBlock& block);
RwwReplayBlock read_rww_replay(const nlohmann::json& block);

}  // namespace ptsuite::results
