// Contract: single spec numbers other code used to copy, read from the embedded pts/ files:
// common.json's "default_revision" and the largest random block a PTS test issues
// (tests/iops.json). SpecNumbers.* pins each against the data, and the defaults still
// written as literals (SpecContext, RunConfig, the cli's --revision) against these.
#pragma once

#include <cstdint>
#include <string>

#include <ptsuite/pts/definitions.hpp>

namespace ptsuite::pts {

// pts/common.json's "default_revision": the revision a run uses unless told otherwise.
const std::string& default_revision();

// The largest block a PTS test issues at random: the largest of pts/tests/iops.json's block
// sizes for `ctx` (1024 KiB in 2.0.2). Every Active Range segment must hold it.
uint64_t largest_random_block_bytes(const SpecContext& ctx);

}  // namespace ptsuite::pts
