// A run's documents: its SNIA report rendered from the results document the history points to
// (stored bundle first, else the run directory), the document itself, and each test's CSV.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <ptsuite/report/csv_report.hpp>
#include <ptsuite/report/html_report.hpp>
#include <ptsuite/report/scenario_report.hpp>
#include <ptsuite/results/run_document.hpp>
#include <ptsuite/results/scenario_document.hpp>
#include <ptsuite/serve/catalog.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>

#include "page.hpp"

namespace ptsuite::serve::detail {

namespace {

Response render_document(const std::string& route, const std::string& text, const std::string& test,
                         const std::string& source) {
  Response r;
  if (route == "run/results.json") {
    r.content_type = "application/json";
    r.body = text;
    r.download_name = "results.json";
    return r;
  }
  nlohmann::json doc = parse_json_input(text, source, k_document_json_limits);
  const std::string kind = doc.is_object() ? doc.value("kind", "") : "";
  if (kind == "ptsuite.scenario") {
    const results::ScenarioDocument scenario = results::read_scenario_document(std::move(doc));
    if (route == "run/report") {
      r.body = report::scenario_html(scenario);
    } else {
      r.content_type = "text/csv; charset=utf-8";
      r.body = report::scenario_csv(scenario);
      r.download_name = "scenario.csv";
    }
    return r;
  }
  const results::RunDocument run = results::read_run_document(std::move(doc));
  if (route == "run/report") {
    r.body = report::render_html(run);
    return r;
  }
  for (const report::CsvFile& f : report::render_csv(run)) {
    if (f.test_id == test) {
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
