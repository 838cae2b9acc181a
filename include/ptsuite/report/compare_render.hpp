// Contract: the files of `ptsuite compare`, rendered from the comparison document only
// (results/comparison.hpp, kind "ptsuite.compare", as report/compare.hpp builds it;
// docs/compare.md):
//   render_compare_html  one self-contained HTML file in the look of report.html (the SNIA
//                        header on every page, inline SVG, no script, no URL): the runs and
//                        drives with one legend colour per run, the workload differences (when
//                        forced) and the settings that differ, then per compared test one page
//                        per group: the runs overlaid on one chart and a table with each run's
//                        value and its difference to run 1 in %;
//   render_compare_csv   one row per test / group / cell / run: test, group, metric, unit, cell,
//                        x, run, value, delta_pct (RFC 4180, CRLF).
// Latency is stored in ns and shown in ms; nothing else is converted. Pure functions,
// deterministic (the same document gives the same bytes); a partial document still renders.
#pragma once

#include <string>

#include <ptsuite/results/comparison.hpp>

namespace ptsuite::report::compare {

std::string render_compare_html(const results::Comparison& comparison);
std::string render_compare_csv(const results::Comparison& comparison);

}  // namespace ptsuite::report::compare
