// Private to the report module: which settings of a results document concern the tests that
// ran, so that summary.txt and the Settings page list those only (a five-test quick run used to
// list the HIR, XSR, DIRTH, claims and latency-sweep values its preset changed). A setting
// concerns the run when a test record's "parameters" name it (every setting-backed value a test
// read), when it is the TOIO of a test that ran (<id>.threads / <id>.queue_depth, disclosed in
// the record's "toio"), or when it is an operator statement about the drive (device.*) or, on a
// simulated run, the simulated drive's model (sim.*, docs/sim.md).
#pragma once

#include <string>
#include <unordered_set>

#include <ptsuite/results/run_document.hpp>

namespace ptsuite::report {

// The names of the settings that concern the run, from the document's test records.
std::unordered_set<std::string> settings_in_use(const results::RunDocument& doc);

}  // namespace ptsuite::report
