// Contract: the one ending of every kind of run (issue 39): PTS run / resume / validate, scenario
// run / resume, app run, replay, capture, and the documents `compare` writes. The run's producer
// (pts::start_run, scenario::start_scenario_run, app::run_app, replay, capture) has written its
// document (results.json) and closed its run log; it hands the typed document (results/document.hpp:
// its record and the tree it was written from: nothing is read back from disk) to finish_run(),
// which in this order
//   1. renders the reports asked for into DIR from the document (report/report_writer.hpp); a
//      format that fails (the PDF without Chromium) is named with the command that renders it
//      later and costs neither the other formats nor the run; `children` (a scenario's app phases:
//      DIR/app-<phase>/) get the same formats from their own documents;
//   2. appends the reports written and `final_note` to DIR/run.log (util/run_log_file.hpp) and
//      closes it, so the manifest covers the whole log;
//   (every file is written through the output gate's token for DIR, util/output_file.hpp: the
//   command passed DIR through device/output_gate.hpp before its run touched anything;)
//   3. writes DIR/MANIFEST.sha256.json (bundle/manifest.hpp) over everything in DIR;
//   4. records the run in the history (history/store.hpp) unless `history` is off or the kind is
//      not a run (document_kinds.def): a history that cannot be written never fails the run, it is
//      one warning line with the command that adds it later;
//   5. returns the console's lines from the document: the kind's headline (report/headline.hpp),
//      the reports (the HTML report last: it is what a user opens) and the history line. The cli
//      prints them (the only layer that prints).
// Errors: SystemError when the manifest cannot be written (exit 5); everything else is a line.
// Single-threaded; call once per run, after the producer finished writing DIR.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <ptsuite/history/backend.hpp>
#include <ptsuite/results/document.hpp>
#include <ptsuite/util/output_file.hpp>

namespace ptsuite::lifecycle {

struct FinishOptions {
  std::vector<std::string> formats;  // report formats (html, pdf, csv, text, json), checked before the run
  std::string paper = "auto";        // the PDF's paper
  // The history the run is recorded in: the output gate's (cli/history_support.hpp
  // gate_run_history()), nullopt with --no-history.
  std::optional<history::HistoryDb> history;
  std::string final_note;  // run.log's last line ("run complete: ...; exit code 0"), "" = none
  bool run_log = true;     // false: DIR has no run.log (a comparison is not a run)
  // Documents of sub-directories rendered with the same formats (covered by DIR's manifest).
  std::vector<std::pair<OutputDir, results::Document>> children;
};

struct FinishedRun {
  std::vector<std::string> reports;   // every file written (children's first), the run's HTML report last
  std::vector<std::string> problems;  // a report format that failed, a history that was not written
  std::string history;                // "history: added run 12 in SQLite ..." ("" when not recorded)
  std::vector<std::string> headline;  // the kind's console headline (report/headline.hpp)
};

FinishedRun finish_run(const OutputDir& dir, const results::Document& document, const FinishOptions& options);

// Step 4 alone (for `history add`'s sibling paths): the run in `dir` recorded from its typed
// document; returns the history line or the warning.
std::string record_in_history(const std::filesystem::path& dir, const results::Document& document,
                              const history::HistoryDb& db, bool* recorded = nullptr);

}  // namespace ptsuite::lifecycle
