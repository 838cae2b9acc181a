// Contract: the few figures a lab quotes from a run, one line per test, for the end of
// `ptsuite run` / `resume` / `validate` on the console (the full tables are in summary.txt and
// the report): IOPS at RND 4 KiB read / write / 65/35, Throughput's SEQ read / write MB/s per
// block size, Latency's RND 4 KiB ART and 5 9s, WSAT's final IOPS and drive fills, CBW / DIRTH /
// ECW's MaxIOPS point, XSR's recovery, HIR's steady-state IOPS. Read through the typed records
// only; a test without a block or without the cell prints nothing. Pure.
// headline_lines(const results::Document&) is the end of a run of any kind on the console
// (lifecycle/finish_run.hpp): a PTS run's status, compliance, the lines above under their heading
// (a SHORTENED run says its figures are not PTS results) and the compliance findings (up to five,
// else counted by clause); a scenario run's status and each measured phase's last step; an app
// run's, a replay's and a capture's text summary (app_text, replay_text, capture_text); nothing
// for a comparison.
#pragma once

#include <string>
#include <vector>

#include <ptsuite/results/document.hpp>
#include <ptsuite/results/run_document.hpp>

namespace ptsuite::report {

// "  IOPS        RND 4KiB read 245112 IOPS, write 98441 IOPS, 65/35 150223 IOPS", ...
std::vector<std::string> headline_lines(const results::RunDocument& doc);
std::vector<std::string> headline_lines(const results::Document& doc);

}  // namespace ptsuite::report
