// Private to the report module: the names by which report code reads the parts of a results
// document that have no typed record yet (record header, purges, phases, captures,
// compliance): the one tolerant accessor family of results/json_read.hpp, in ptsuite::report.
#pragma once

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::report {
using results::array;
using results::member;
using results::size_text;
using results::str;
}  // namespace ptsuite::report
