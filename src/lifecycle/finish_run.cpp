// finish_run(): reports, run log, manifest, history and headline from a run's typed document
// (lifecycle/finish_run.hpp).
#include <ptsuite/lifecycle/finish_run.hpp>

#include <fmt/format.h>
#include <algorithm>

#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/history/run_record.hpp>
#include <ptsuite/history/store.hpp>
#include <ptsuite/report/headline.hpp>
#include <ptsuite/report/report_writer.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/run_log_file.hpp>
#include <ptsuite/util/shell_quote.hpp>

namespace ptsuite::lifecycle {

namespace fs = std::filesystem;

namespace {

// Every format at once; when one fails, each on its own, so that one failing format (the PDF
// when Chromium went missing) costs neither the others nor the run.
std::vector<std::string> write_reports(const OutputDir& dir, const results::Document& doc, const FinishOptions& o,
                                       std::vector<std::string>& problems) {
  if (o.formats.empty()) return {};
  try {
    return report::write_reports(dir, doc, o.formats, o.paper);
  } catch (const Error&) {
    std::vector<std::string> written;
    for (const std::string& format : o.formats) {
      try {
        for (std::string& path : report::write_reports(dir, doc, {format}, o.paper)) {
          written.push_back(std::move(path));
        }
      } catch (const Error& e) {
        problems.push_back(
            fmt::format("ptsuite: the {} report failed: {}; render it later with `ptsuite report {} "
                        "--format {}`",
                        format, e.what(), shell_quote(dir.string()), format));
      }
    }
    return written;
  }
}

// The run's own HTML report last: it is what a user opens.
void html_last(std::vector<std::string>& reports) {
  std::stable_partition(reports.begin(), reports.end(), [](const std::string& r) {
    return !(r.size() >= 5 && r.compare(r.size() - 5, 5, ".html") == 0);
  });
}

}  // namespace

std::string record_in_history(const fs::path& dir, const results::Document& document, const history::HistoryDb& db,
                              bool* recorded) {
  if (recorded != nullptr) *recorded = false;
  try {
    history::HistoryStore store = history::HistoryStore::open(db);
    const history::AddResult result = store.add(history::record_of(document, dir));
    if (recorded != nullptr) *recorded = true;
    return fmt::format("history: {} run {} in {}", result.updated ? "updated" : "added", result.id,
                       store.backend().describe());
  } catch (const std::exception& e) {
    return fmt::format(
        "ptsuite: warning: the run was not recorded in the history ({}); add it later with `ptsuite history add {}`",
        e.what(), shell_quote(dir.string()));
  }
}

FinishedRun finish_run(const OutputDir& dir, const results::Document& document, const FinishOptions& options) {
  FinishedRun out;
  for (const auto& [child_dir, child] : options.children) {
    for (std::string& path : write_reports(child_dir, child, options, out.problems)) out.reports.push_back(path);
  }
  std::vector<std::string> own = write_reports(dir, document, options, out.problems);
  html_last(own);
  out.reports.insert(out.reports.end(), own.begin(), own.end());
  if (options.run_log) {
    RunLogFile log(dir.file(k_run_log_file));
    for (const std::string& path : out.reports) log.info("report written: " + path);
    for (const std::string& problem : out.problems) log.warning(problem);
    if (!options.final_note.empty()) log.info(options.final_note);
  }  // closed before the manifest, which covers it
  (void)bundle::write_manifest(dir);
  if (options.history && document.info->history) {
    out.history = record_in_history(dir.path(), document, *options.history);
  }
  out.headline = report::headline_lines(document);
  return out;
}

}  // namespace ptsuite::lifecycle
