// Contract: the "applied test workload" of a capture (docs/replay.md, "Synthesis"): its top IO
// streams (capture/characterize.hpp: SEQ/RND x transfer size x operation, most IOs first),
// taken in order until they cover at least `coverage` of all the capture's IOs (RWSW's "IO
// streams that comprise at least 80 % of the IOs"; 0.8 by default, setting
// `replay.synthesis_coverage` [U]), with their shares renormalized to sum to 1 over the streams
// taken. Only reads and writes can be applied: other streams (flush, discard) are passed over
// and counted. to_text() prints it, to_json() (results/applied_workload.hpp) writes the
// "ptsuite.applied_workload" document; to_streams() makes it a workload the engine runs at any
// TC x QD. Pure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <ptsuite/results/applied_workload.hpp>
#include <ptsuite/results/io_characterization.hpp>
#include <ptsuite/workload/workload_spec.hpp>

namespace ptsuite::replay {

using results::AppliedStream;
using results::AppliedWorkload;
using results::to_json;

AppliedWorkload synthesize(const results::IoCharacterization& c, double coverage = 0.8);
std::string to_text(const AppliedWorkload& w);

// The applied test workload as a weighted multi-stream workload (workload::StreamSpec): one
// stream per applied stream, its weight, SEQ/RND, its one transfer size, 100 % read or write,
// over the whole active range (a capture's streams carry no LBA range). Sizes that are not a
// multiple of `logical_block_bytes` cannot be issued on the target: those streams are left out
// and the others renormalised by resolve(); `left_out` (optional) receives their names.
std::vector<workload::StreamSpec> to_streams(const AppliedWorkload& w, uint32_t logical_block_bytes,
                                             std::vector<std::string>* left_out = nullptr);

}  // namespace ptsuite::replay
