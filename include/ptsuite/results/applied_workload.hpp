// Contract: the applied test workload of a block IO capture (docs/replay.md "Synthesis",
// docs/rww.md): the capture's top IO streams (SEQ/RND x transfer size x read/write) taken most
// IOs first until they cover the coverage goal of the capture's IOs, with their shares
// renormalised to sum to 1 (`weight`). replay::synthesize() builds it; `ptsuite replay
// --synthesize --json` prints it ("ptsuite.applied_workload"), and the real-world-workload
// tests (rww-sweep, rww-streams) record it as their "applied_workload" (the capture's stream
// table in their reports). read_applied_workload() is tolerant like every results reader
// (results/json_read.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ptsuite::results {

inline constexpr char k_applied_workload_kind[] = "ptsuite.applied_workload";

struct AppliedStream {
  std::string name;  // "RND 4KiB R"
  bool sequential = false;
  uint32_t size_bytes = 0;
  bool write = false;
  double captured_share = 0;  // of all the capture's IOs, 0..1
  double weight = 0;          // of the applied workload's IOs (sums to 1)
};

struct AppliedWorkload {
  std::vector<AppliedStream> streams;
  double coverage_goal = 0.8;
  double covered = 0;            // the captured share of IOs the streams cover
  uint64_t passed_over = 0;      // streams that are neither read nor write
  uint64_t capture_streams = 0;  // streams in the capture
  std::string capture_device;
  std::string capture;  // which capture (the rww.capture setting); "" when not known
  uint64_t capture_ios = 0;
};

nlohmann::json to_json(const AppliedWorkload& w);
AppliedWorkload read_applied_workload(const nlohmann::json& j);

}  // namespace ptsuite::results
