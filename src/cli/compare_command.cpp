// `ptsuite compare RUN RUN... --out DIR [--force] [--db DB]`: overlays two or more runs of the
// same PTS tests or of the same scenario, drive by drive (report/compare.hpp,
// report/compare_render.hpp; docs/compare.md).
//   RUN      a run directory, or a history ID ("12", "#12", "h12"; history/resolve.hpp).
//   --out    a new or empty directory: compare.json (kind "ptsuite.compare", the source of the
//            other two), compare.csv, compare.html and the bundle manifest (so a comparison can
//            be verified and signed like a run; lifecycle/finish_run.hpp) are written into it.
//   --force  overlay runs whose workloads differ; every difference is marked on the pages.
//   --db     the history database for IDs (history/location.hpp rules).
// Prints the path of every file written, one per line. Exit 2, before anything is written, for
// fewer than two runs, an unknown ID or a missing run directory, a results document compare
// cannot read, runs whose workloads differ (without --force), and an --out that is a file or a
// directory that is not empty.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include <ptsuite/history/location.hpp>
#include <ptsuite/history/resolve.hpp>
#include <ptsuite/lifecycle/finish_run.hpp>
#include <ptsuite/report/compare.hpp>
#include <ptsuite/report/compare_render.hpp>
#include <ptsuite/results/comparison.hpp>
#include <ptsuite/util/atomic_file.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/out_dir.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"

namespace ptsuite::cli {

namespace {

namespace fs = std::filesystem;

struct CompareOptions {
  std::vector<std::string> runs;
  std::string out;
  std::string db;
  bool force = false;
};

// A history ID needs a history: a SQLite file that is not there is an error here, not a new
// empty database.
report::compare::RunSource resolve(const std::string& argument, const std::string& db_option) {
  std::error_code ec;
  if (history::parse_history_id(argument) && !fs::is_directory(argument, ec)) {
    const std::string db = history::resolve_history_db(db_option);
    const bool uri = db.rfind("postgresql://", 0) == 0 || db.rfind("postgres://", 0) == 0;
    if (!uri && !fs::exists(db, ec)) {
      throw UsageError(argument, fmt::format("a history ID, but there is no history database at {}; give --db, or "
                                             "the run directory instead",
                                             history::display_db(db)));
    }
  }
  history::ResolvedRun r = history::resolve_run(argument, db_option);
  return {argument, r.dir, r.results_path, r.record ? std::optional<int64_t>(r.record->id) : std::optional<int64_t>()};
}

// --out must be new or empty: never mix a comparison with other files or an older comparison.
void check_out(const fs::path& out) {
  check_out_dir(out, {"--out",
                      {"compare.json", "compare.html"},
                      fmt::format("{} already holds a compare report; give a new or empty directory, or remove the old "
                                  "report first",
                                  out.string())});
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
  const fs::path out = fs::absolute(o.out);
  check_out(out);
  std::vector<report::compare::LoadedRun> runs;
  for (const std::string& argument : o.runs) {
    runs.push_back(report::compare::load_run(resolve(argument, o.db)));
  }
  warn_same_results(runs, o.runs);
  const results::Comparison comparison = report::compare::build_comparison(runs, {o.force});
  auto doc = std::make_shared<const nlohmann::json>(results::to_json(comparison));
  create_out_dir(out);
  write_file_atomic(out / "compare.json", doc->dump(2) + "\n");
  fmt::print("{}\n", (out / "compare.json").string());
  lifecycle::FinishOptions fo;
  fo.formats = {"csv", "html"};
  fo.history = false;  // a comparison is not a run
  fo.run_log = false;
  for (const std::string& path : lifecycle::finish_run(out, results::make_document(comparison, doc), fo).reports) {
    fmt::print("{}\n", path);
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
  CLI::App* sub =
      app.add_subcommand("compare", "Overlay two or more runs of the same PTS tests, drive by drive (HTML, CSV, JSON)");
  sub->add_option("RUN", o->runs, "Run directories or history IDs (at least two)")->required();
  add_out_dir(sub, o->out, "A new or empty directory for compare.html, compare.csv, compare.json and the manifest")
      ->required();
  sub->add_flag("--force", o->force, "Overlay runs whose workloads differ, marking every difference");
  add_db(sub, o->db);
  sub->callback([o, &slot] { slot.action = [o] { return run_compare(*o); }; });
}

}  // namespace ptsuite::cli
