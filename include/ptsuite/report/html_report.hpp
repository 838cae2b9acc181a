// Contract: the HTML report, one self-contained file (inline CSS and SVG, no scripts needed,
// no network), printable with one report page per printed page (A4 and Letter). Layout of the
// SNIA report pages: a header on every page (test name, PTS revision, page n of m, vendor /
// model / tested-by, and the four columns Test Platform, Device Under Test, Set-up
// Parameters, Test Parameters), a summary page first, then each test's pages. Deterministic:
// the same results give byte-identical HTML.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/results/run_document.hpp>

namespace ptsuite::report {

std::string render_html(const results::RunDocument& doc);

}  // namespace ptsuite::report
