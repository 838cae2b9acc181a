// Private: what `run`, `resume` and `validate` share: the report formats (checked before
// anything is touched), the report writer that survives one failing format, the history
// options, and the end of a run on the console (history record, status, reports).
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
  std::string reports = "html,csv,text";
  std::string paper = "auto";  // --paper: the PDF's paper
  bool quiet = false;
  std::string tested_by;
  bool no_history = false;
  std::string history_db;
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
std::vector<std::string> report_formats(const std::string& text);

// Writes the reports at the end of a run; a format that fails is named (with the command that
// renders it later) and the others are still written.
pts::ReportWriter report_writer(RunConsole& console, const std::string& paper = "auto");

// --no-history and --history-db.
void add_history_options(CLI::App* sub, bool& no_history, std::string& history_db);

// Records the run in the history (`history`: gate_history()'s, nullopt with --no-history),
// prints status, compliance, results and reports (the HTML report last), and returns the
// outcome's exit code.
int finish(const pts::RunOutcome& outcome, RunConsole& console, const std::optional<history::HistoryDb>& history);

// When `results` holds a spec-sheet validation (test "claims"): one line per claim, the caveats
// and the sheet's verdict; returns 1 (negative verdict) unless every claim passed. 0 otherwise.
int claims_verdict(const nlohmann::json& results, RunConsole& console);

}  // namespace ptsuite::cli
