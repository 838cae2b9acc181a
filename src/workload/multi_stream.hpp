// Private: resolve() of a weighted multi-stream workload (WorkloadSpec::streams): each stream
// resolved as a single-stream workload over its part of the active range. Throws UsageError
// ("streams", or the stream's own field prefixed by the stream's name) like resolve().
#pragma once

#include <ptsuite/workload/workload_spec.hpp>

namespace ptsuite::workload {

ResolvedWorkload resolve_multi_stream(const WorkloadSpec& spec, const engine::TargetGeometry& geometry);

}  // namespace ptsuite::workload
