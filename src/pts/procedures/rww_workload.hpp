// Private: the applied test workload of the real-world-workload tests (docs/rww.md). Reads the
// test's "capture" (setting rww.capture: a reference capture shipped in pts/captures/, named
// "captures/<name>.ptcap", or a capture file's path) and "coverage" (rww.coverage), and
// characterizes the capture (capture/characterize.hpp, the docs/capture.md stream
// definitions) into its applied test workload (replay/synthesis.hpp) and that workload's
// weighted streams for the engine. Streams whose size the target's logical block does not
// divide are left out, recorded in the test's "omitted" and renormalised away. Reads only
// embedded data or the named file, never the target: the same result for a run, a resume and
// `ptsuite plan`. Throws UsageError naming rww.capture when the capture cannot be read or
// leaves no stream to run.
#pragma once

#include <vector>

#include <ptsuite/pts/test_procedure.hpp>
#include <ptsuite/results/applied_workload.hpp>
#include <ptsuite/results/io_characterization.hpp>
#include <ptsuite/workload/workload_spec.hpp>

namespace ptsuite::pts {

struct RwwWorkload {
  results::AppliedWorkload applied;
  std::vector<workload::StreamSpec> streams;           // what the engine runs
  double read_pct = 0;                                 // the streams' weighted read share
  std::vector<workload::BlockSizeWeight> block_sizes;  // the streams' sizes, weighted by share
};

RwwWorkload rww_workload(TestSpec& spec);
// The same from a characterization the caller made with rww_characterize().
RwwWorkload rww_workload(TestSpec& spec, const results::IoCharacterization& c);
// The capture's characterization in steps of `step_ns` (capture/characterize.hpp defaults else).
results::IoCharacterization rww_characterize(TestSpec& spec, uint64_t step_ns);

// read_pct and block_sizes from the streams (one size each): the weighted read share (to
// 0.1 %) and every size weighted by its stream's share; streams must not be empty.
void summarise_streams(RwwWorkload& w);

// One segment of the applied test workload (all its streams) at tc x qd; `label` starts the
// segment label ("ATW TC32 QD32").
SegmentSpec rww_segment(const RwwWorkload& w, const std::string& label, uint32_t tc, uint32_t qd, uint64_t duration_ns);

}  // namespace ptsuite::pts
