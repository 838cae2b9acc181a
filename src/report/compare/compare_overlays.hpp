// Private to report/compare: the overlay section of compare.html for one compared group (its
// chart and table), and the names compare.html gives a run. Called by render_compare_html
// (compare_html.cpp) once per group of every compared test, in order; pure rendering of the typed
// Comparison, no IO. Single-threaded like the rest of the renderer.
#pragma once

#include <string>

#include <ptsuite/report/html/figures.hpp>
#include <ptsuite/report/html/page_flow.hpp>
#include <ptsuite/results/comparison.hpp>

namespace ptsuite::report::compare {

// "FX-3840 (FX0000000001)": the drive of a run ("unknown model" when it names none).
std::string drive_name(const results::ComparedRun& run);
// The legend entry of a run: "Run 1 \u00b7 FX-3840 (FX0000000001)".
std::string run_name(const results::ComparedRun& run);

// Adds the group's chart (unless a category axis has too many cells) and its table to `flow`,
// after a banner when the test's workloads differ (a forced overlay).
void group_section(html::PageFlow& flow, const results::Comparison& cmp, const results::ComparedTest& test,
                   const results::ComparedGroup& group, html::IdSource& ids);

}  // namespace ptsuite::report::compare
