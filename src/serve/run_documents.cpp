// A run's documents: its report rendered from the results document the history points to
// (stored bundle first, else the run directory) whatever its kind (a PTS run's SNIA report, a
// scenario's, an app run's ...), the document itself, and each test's CSV.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <ptsuite/report/csv_report.hpp>
#include <ptsuite/report/document_report.hpp>
#include <ptsuite/results/document.hpp>
#include <ptsuite/serve/catalog.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>

#include "page.hpp"

namespace ptsuite::serve::detail {

namespace {

// Any kind of document the history records (a PTS run, a scenario, an app run, a replay, a
// capture characterization): its report and CSV from the report module's renderers.
Response render_document(const std::string& route, const std::string& text, const std::string& test,
                         const std::string& source) {
  Response r;
  if (route == "run/results.json") {
    r.content_type = "application/json";
    r.body = text;
    r.download_name = "results.json";
    return r;
  }
  const results::Document doc = results::read_document(parse_json_input(text, source, k_document_json_limits), source);
  if (route == "run/report") {
    r.body = report::html_report(doc);
    return r;
  }
  const std::vector<report::CsvFile> files = report::csv_reports(doc);
  for (const report::CsvFile& f : files) {
    // A kind with one CSV (scenario.csv, app.csv, ...) serves it for its one test.
    if (f.test_id == test || (files.size() == 1 && f.test_id.empty())) {
      r.content_type = "text/csv; charset=utf-8";
      r.body = f.content;
      r.download_name = f.file_name;
      return r;
    }
  }
  r.status = 404;
  r.content_type = "text/plain; charset=utf-8";
  r.body = "the run has no test of that id\n";
  return r;
}

}  // namespace

Response run_document_page(Site& site, history::HistoryStore& store, const Request& request) {
  const size_t id = size_param(request.params, "id", 0, 0, SIZE_MAX >> 2);
  Catalog catalog(store);
  const std::optional<history::RunRecord> run = id == 0 ? std::nullopt : catalog.run(static_cast<int64_t>(id));
  if (!run) return error_page(site, 404, "no run of that id in the history");
  const std::optional<std::string> text = catalog.results_text(*run);
  if (!text) {
    return error_page(site, 404,
                      fmt::format("run {}'s results document is neither stored in the history (history add --bundle) "
                                  "nor in its run directory {} on this host",
                                  run->id, run->run_dir));
  }
  try {
    return render_document(request.route, *text, param(request.params, "test"), fmt::format("history run {}", run->id));
  } catch (const UsageError& e) {
    return error_page(site, 404, fmt::format("run {}'s results document cannot be rendered: {}", run->id, e.what()));
  }
}

}  // namespace ptsuite::serve::detail
