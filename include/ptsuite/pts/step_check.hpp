// Contract: everything about a PTS run (start, resume, validate) that can be checked without
// writing is checked before the first write. checked_worst_plan() runs the real test logic
// over the worst-case PlanningExecutor (the plan with the most steps: no phase ever reaches
// steady state) and, for every step it asks for, resolves exactly what the device executor
// would do with it against the opened target:
//   * segments: DeviceExecutor::workload_for() with the run's parameters, then
//     workload::resolve() against the target's geometry (block sizes and alignment, ranges
//     past the capacity, threads / QD / buffer memory, AR segments, rates);
//   * purges: the method name (device::parse_purge_method; "none" is the setting's skip).
// The first failure throws UsageError (exit 2) naming the step and the field, e.g.
//   "step dirth/demand/tc01-qd01 (SEQ 0B W): block_size: 0B is not ..."
// whatever caused it (a setting, a test definition, a tiny target). Returns the worst-case
// plan (the same as make_plan(..., PlanCase::worst, ...)). Touches nothing.
#pragma once

#include <string>
#include <vector>

#include <ptsuite/engine/target.hpp>
#include <ptsuite/pts/device_executor.hpp>
#include <ptsuite/pts/plan.hpp>

namespace ptsuite::pts {

// `shape`: the run's DeviceRunParams (its target, session and callbacks are not used).
Plan checked_worst_plan(const std::vector<std::string>& test_ids, const DefinitionSet& defs, const SpecContext& spec,
                        const Settings& settings, const engine::TargetGeometry& geometry, const DeviceRunParams& shape,
                        PlanAssumptions assumptions = {});

}  // namespace ptsuite::pts
