// Private: what `run`, `resume` and `validate` share: the report formats (checked before
// anything is touched), the history options, and the end of a run (lifecycle/finish_run.hpp:
// reports, manifest, history record; cli/ending.hpp: the console).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include <optional>

#include <ptsuite/history/backend.hpp>
#include <ptsuite/pts/run.hpp>

#include "cli/run_console.hpp"
#include "cli/spec_options.hpp"

namespace ptsuite::cli {

// The options every command that starts a run shares (`run`, `validate`).
struct RunOptions {
  std::string target;
  std::string out;
  SpecOptions spec;
  uint64_t seed = 1;
  std::string engine = "libaio";
  bool allow_destructive = false;
  std::string confirm_serial;
  std::string scratch_size = "1GiB";
  std::string formats = "html,csv,text";
  std::string paper = "auto";  // --paper: the PDF's paper
  bool quiet = false;
  std::string tested_by;
  bool no_history = false;
  std::string db;
  bool strict_preflight = false;
  std::vector<std::string> labels;  // --label key=value, repeatable
  std::string asset_serial;
};

// --label texts as labels, with job=$SLURM_JOB_ID added inside a Slurm job when no job label
// is given (util/labels.hpp). UsageError naming --label.
Labels run_labels(const std::vector<std::string>& texts);

// Registers them on `sub`; `out_default` names the default run directory in the help.
void add_run_options(CLI::App* sub, RunOptions& o, const std::string& out_default);

// --scratch-size: at least 16 MiB (16 x the largest block a PTS test issues, 1 MiB; a
// smaller scratch target cannot hold one Round's random segments). UsageError otherwise.
inline constexpr uint64_t k_min_scratch_bytes = 16ULL << 20;
uint64_t parse_scratch_size(const std::string& text);

// The run configuration they give (tests and the command's own fields are the caller's).
// Throws UsageError for a bad --scratch-size, --set or report format.
pts::RunConfig run_config(const RunOptions& o);

// "html,csv" -> {"html","csv"}; "none" -> {}. Unknown formats exit 2; pdf without Chromium 5.
// --paper is checked too (exit 2 before the run, not after it).
std::vector<std::string> report_formats(const std::string& text, const std::string& paper = "auto");

// --no-history, --db (and the old --history-db).
void add_history_options(CLI::App* sub, bool& no_history, std::string& db);
// A bad --db is exit 2 before the run (unless the run is not recorded).
void check_history_option(bool no_history, const std::string& db);

// How a run ends: the history the run is recorded in (the output gate's: gate_run_history() of
// cli/history_support.hpp; nullopt with --no-history) and the PDF's paper.
struct EndOptions {
  std::optional<history::HistoryDb> history;
  std::string paper = "auto";
};

// Ends a PTS run (lifecycle::finish_run: reports, run.log, manifest, history) and prints its end
// (cli/ending.hpp); returns the outcome's exit code.
int finish(const pts::RunOutcome& outcome, RunConsole& console, const EndOptions& end);

// When the document holds a spec-sheet validation (test "claims"): one line per claim, the
// caveats and the sheet's verdict; returns 1 (negative verdict) unless every claim passed. 0
// otherwise.
int claims_verdict(const results::Document& document, RunConsole& console);

}  // namespace ptsuite::cli
