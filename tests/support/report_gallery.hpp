// Contract: every report kind ptsuite renders, rendered from the tests' fixtures, for the checks
// that must hold over all of them (the statistic-order check, tests/unit/report/
// statistic_order_test.cpp) and for looking at them (PTSUITE_KEEP_REPORTS=DIR writes each file
// there, so a change's renderings can be compared with the previous ones file by file).
// Kinds and sources:
//   run       the checked-in results fixtures (tests/data/results/*.json): HTML, summary.txt, CSV
//   scenario  support/scenario_fixture.hpp's TxQ sweep, write pressure and load curves: HTML, text, CSV
//   compare   two drives of the steady fixture, two runs of the TxQ sweep: HTML, CSV
//   capture   the built-in pgbench capture characterized in 250 ms steps: HTML, text
//   replay    the checked-in replay record (tests/data/replay/iolog-open.json) and a 17-step
//             record: HTML, text
//   app       pgbench and sysbench runs of 2 instances (support/report_fixtures.hpp): HTML, text, CSV
// Deterministic. Rendering takes a few seconds (the run fixtures' HTML is the bulk).
#pragma once

#include <string>
#include <vector>

namespace ptsuite::test_support {

struct RenderedReport {
  std::string kind;    // "run", "scenario", "compare", "capture", "replay", "app"
  std::string name;    // a file name: "steady.report.html", "sweep.scenario.csv", ...
  std::string format;  // "html", "text", "csv"
  std::string content;
};

std::vector<RenderedReport> render_report_gallery();

// Writes every report into `dir` under its name (creating `dir`).
void write_report_gallery(const std::vector<RenderedReport>& reports, const std::string& dir);

}  // namespace ptsuite::test_support
