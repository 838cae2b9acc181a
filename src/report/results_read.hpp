// Private to the report module: the names by which report code reads what it does not yet take
// from the typed documents (results/run_document.hpp, results/scenario_document.hpp): the HTML
// pages' and CSV rows' reads of a PTS run, the segment and health sub-documents, compare's
// comparison document. The one tolerant accessor family of results/json_read.hpp, in
// ptsuite::report.
#pragma once

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::report {
using results::array;
using results::member;
using results::size_text;
using results::str;
}  // namespace ptsuite::report
