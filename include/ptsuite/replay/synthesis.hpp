// Contract: the "applied test workload" of a capture (docs/replay.md, "Synthesis"): its top IO
// streams (capture/characterize.hpp: SEQ/RND x transfer size x operation, most IOs first),
// taken in order until they cover at least `coverage` of all the capture's IOs (RWSW's "IO
// streams that comprise at least 80 % of the IOs"; 0.8 by default, setting
// `replay.synthesis_coverage` [U]), with their shares renormalized to sum to 1 over the streams
// taken. Only reads and writes can be applied: other streams (flush, discard) are passed over
// and counted. to_text() prints it, to_json() writes the "ptsuite.applied_workload" document.
// Pure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/io_characterization.hpp>

namespace ptsuite::replay {

struct AppliedStream {
  std::string name;  // "RND 4KiB R"
  bool sequential = false;
  uint32_t size_bytes = 0;
  bool write = false;
  double captured_share = 0;  // of all the capture's IOs
  double weight = 0;          // of the applied workload's IOs (sums to 1)
};

struct AppliedWorkload {
  std::vector<AppliedStream> streams;
  double coverage_goal = 0.8;
  double covered = 0;            // the captured share of IOs the streams cover
  uint64_t passed_over = 0;      // streams that are neither read nor write
  uint64_t capture_streams = 0;  // streams in the capture
  std::string capture_device;
};

AppliedWorkload synthesize(const results::IoCharacterization& c, double coverage = 0.8);
std::string to_text(const AppliedWorkload& w);
nlohmann::json to_json(const AppliedWorkload& w);

}  // namespace ptsuite::replay
