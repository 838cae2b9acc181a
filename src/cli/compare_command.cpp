// `ptsuite compare RUN RUN... --out DIR [--force] [--db DB] [--at X]... [--series S]
// [--plot-targets 1,5]`: overlays two or more runs of the same PTS tests, of the same scenario
// or replays of the same capture, drive by drive, and ranks them where a test can be ranked
// (report/compare.hpp, report/compare_render.hpp; docs/compare.md).
//   RUN      a run directory, a history ID ("12", "#12", "h12"; history/resolve.hpp), or a
//            results document file (a `ptsuite replay --json` record).
//   --out    a new or empty directory: compare.json (kind "ptsuite.compare", the source of the
//            other two), compare.csv, compare.html and the bundle manifest (so a comparison can
//            be verified and signed like a run; lifecycle/finish_run.hpp) are written into it.
//   --force  overlay runs whose workloads differ; every difference is marked on the pages.
//   --db     the history database for IDs (history/location.hpp rules).
//   --at     a delta table at this x of every group over a rate, IOPS, time or percent axis.
//   --series / --plot-targets  what the charts of runs of several drives draw.
// Prints the path of every file written, one per line. Exit 2, before anything is written, for
// fewer than two runs, an unknown ID or a missing run directory, a results document compare
// cannot read, runs whose workloads differ (without --force), and an --out that is a file or a
// directory that is not empty.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/history/location.hpp>
#include <ptsuite/history/resolve.hpp>
#include <ptsuite/lifecycle/finish_run.hpp>
#include <ptsuite/report/compare.hpp>
#include <ptsuite/report/compare_render.hpp>
#include <ptsuite/report/scenario_report.hpp>
#include <ptsuite/results/comparison.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"
#include "cli/history_support.hpp"
#include "cli/path_roles.hpp"

namespace ptsuite::cli {

namespace {

namespace fs = std::filesystem;

struct CompareOptions {
  std::vector<std::string> runs;
  std::string out;
  std::string db;
  bool force = false;
  std::vector<std::string> at;
  std::string series = "auto";
  std::string plot_targets;
};

// A history ID needs a history: a SQLite file that is not there is an error here, not a new
// empty database.
report::compare::RunSource resolve(const std::string& argument, const std::string& db_option, device::OutputGate& gate,
                                   std::optional<history::HistoryDb>& db_once) {
  std::error_code ec;
  if (fs::is_regular_file(argument, ec)) {  // a document file: a replay record, a results.json
    const fs::path file = fs::absolute(argument);
    return {argument, file.parent_path(), file, std::nullopt};
  }
  if (history::parse_history_id(argument) && !fs::is_directory(argument, ec)) {
    const std::string db = history::resolve_history_db(db_option);
    const bool uri = db.rfind("postgresql://", 0) == 0 || db.rfind("postgres://", 0) == 0;
    if (!uri && !fs::exists(db, ec)) {
      throw UsageError(argument, fmt::format("a history ID, but there is no history database at {}; give --db, or "
                                             "the run directory instead",
                                             history::display_db(db)));
    }
  }
  // Only an ID opens the history (a SQLite file is opened read-write: through the gate).
  const bool by_id = history::parse_history_id(argument) && !fs::is_directory(argument, ec);
  if (by_id && !db_once) db_once = gate_history_db(gate, db_option);
  history::ResolvedRun r = by_id ? history::resolve_run(argument, *db_once)
                                 : history::resolve_run(argument, static_cast<history::HistoryStore*>(nullptr));
  return {argument, r.dir, r.results_path, r.record ? std::optional<int64_t>(r.record->id) : std::optional<int64_t>()};
}

// --out must be new or empty: never mix a comparison with other files or an older comparison.
OutputDir gate_out(device::OutputGate& gate, const std::string& out) {
  std::error_code ec;
  const fs::path dir = fs::absolute(out);
  if (fs::exists(dir / "compare.json", ec) || fs::exists(dir / "compare.html", ec)) {
    throw UsageError("--out", fmt::format("{} already holds a compare report; give a new or empty directory, or "
                                          "remove the old report first",
                                          dir.string()));
  }
  return gate.directory(out, "--out", device::OutputGate::Existing::must_be_empty);
}

// A run compared with itself (the same results document twice, by path, history ID or a copy:
// the bytes' SHA-256 is the same) shows no difference by construction; said once per pair.
void warn_same_results(const std::vector<report::compare::LoadedRun>& runs, const std::vector<std::string>& args) {
  for (size_t i = 0; i < runs.size(); ++i) {
    for (size_t j = i + 1; j < runs.size(); ++j) {
      if (runs[i].results_sha256 == runs[j].results_sha256) {
        fmt::print(stderr,
                   "ptsuite: warning: {} and {} are the same results document (SHA-256 {}): the run is compared "
                   "with itself, so every difference is 0\n",
                   args[i], args[j], runs[i].results_sha256.substr(0, 12));
      }
    }
  }
}

int run_compare(const CompareOptions& o) {
  if (o.runs.size() < 2) {
    throw UsageError("RUN", "give at least two runs to compare (run directories or history IDs)");
  }
  device::OutputGate gate("compare");
  for (const std::string& argument : o.runs) {
    gate.add_input(argument, "RUN");
    gate.add_input((fs::path(argument) / "results.json").string(), "RUN");
  }
  const OutputDir out_dir = gate_out(gate, o.out);
  const fs::path& out = out_dir.path();
  std::vector<report::compare::LoadedRun> runs;
  // A --db given is checked now, used or not (an ID needs it; a directory does not).
  std::optional<history::HistoryDb> db;
  if (!o.db.empty()) db = gate_history_db(gate, o.db);
  for (const std::string& argument : o.runs) {
    runs.push_back(report::compare::load_run(resolve(argument, o.db, gate, db)));
  }
  warn_same_results(runs, o.runs);
  report::compare::Options options;
  options.force = o.force;
  options.report.series = o.series;
  if (!o.plot_targets.empty())
    options.report.plot_targets = report::parse_plot_targets(o.plot_targets, "--plot-targets");
  for (const std::string& list : o.at) {  // "--at 400MB/s,800MB/s" or repeated
    size_t start = 0;
    while (start <= list.size()) {
      const size_t comma = std::min(list.find(',', start), list.size());
      options.at.push_back(list.substr(start, comma - start));
      start = comma + 1;
    }
  }
  const results::Comparison comparison = report::compare::build_comparison(runs, options);
  auto doc = std::make_shared<const nlohmann::json>(results::to_json(comparison));
  out_dir.create();
  write_file_atomic(out_dir.file("compare.json"), doc->dump(2) + "\n");
  fmt::print("{}\n", (out / "compare.json").string());
  lifecycle::FinishOptions fo;
  fo.formats = {"csv", "html"};
  fo.run_log = false;  // a comparison is not a run: no run.log, no history record
  for (const std::string& path : lifecycle::finish_run(out_dir, results::make_document(comparison, doc), fo).reports) {
    fmt::print("{}\n", path);
  }
  if (const std::string banner = results::simulation_banner(comparison.runs); !banner.empty()) {
    fmt::print(stderr, "ptsuite: {}\n", banner);
  }
  if (comparison.workloads_differ) {
    fmt::print(stderr, "ptsuite: warning: the runs' workloads differ (--force); every difference is marked in {}\n",
               (out / "compare.html").string());
  }
  return 0;
}

}  // namespace

void register_compare_command(CLI::App& app, CommandSlot& slot) {
  auto o = std::make_shared<CompareOptions>();
  CLI::App* sub = app.add_subcommand(
      "compare",
      "Overlay two or more runs of the same PTS tests, scenario or captured workload, drive by drive, "
      "and rank replays of one capture (HTML, CSV, JSON)");
  sub->add_option("RUN", o->runs, "Run directories, history IDs or replay records (at least two)")
      ->check(paths::input())
      ->required();
  add_out_dir(sub, o->out, "A new or empty directory for compare.html, compare.csv, compare.json and the manifest")
      ->required();
  sub->add_flag("--force", o->force, "Overlay runs whose workloads differ, marking every difference");
  add_db(sub, o->db);
  sub->add_option("--at", o->at,
                  "A delta table at this step of every group over a rate, IOPS, time or percent axis: 800MB/s, "
                  "20000IOPS, 50%, 10min (repeat, or a comma list)")
      ->check(paths::none());
  add_shared_option(sub, "--series", o->series,
                    "Runs of several drives: drives, aggregate, both, or auto (both up to 4 plotted drives)")
      ->capture_default_str()
      ->check(paths::none());
  add_shared_option(sub, "--plot-targets", o->plot_targets, "Runs of several drives: the targets charts draw, e.g. 1,5")
      ->check(paths::none());
  sub->callback([o, &slot] { slot.action = [o] { return run_compare(*o); }; });
}

}  // namespace ptsuite::cli
