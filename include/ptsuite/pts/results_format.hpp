// Contract: the version of the results.json structure (pts/schema/results.schema.json
// "schema_version"). The run writes it; reporters and `ptsuite report` read only documents
// of this version. Bumped on every incompatible change; additive changes keep it.
#pragma once

namespace ptsuite::pts {

inline constexpr int k_results_schema_version = 1;

}  // namespace ptsuite::pts
