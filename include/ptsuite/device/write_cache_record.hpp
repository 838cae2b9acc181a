// Contract: the write-cache records of device/write_cache.hpp as results.json stores them
// (results/run_header.hpp's records; results/record_writers.hpp is the one writer: device's
// to_json writes record_of()). Pure conversions; pts records a test's and the run's write
// cache with them.
#pragma once

#include <ptsuite/device/write_cache.hpp>
#include <ptsuite/results/run_header.hpp>

namespace ptsuite::device {

results::WriteCacheState record_of(const WriteCacheState& s);
results::WriteCacheRecord record_of(const WriteCacheRecord& r);

}  // namespace ptsuite::device
