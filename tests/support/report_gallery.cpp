#include "support/report_gallery.hpp"

#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>

#include <ptsuite/report/app_report.hpp>
#include <ptsuite/report/capture_report.hpp>
#include <ptsuite/report/compare.hpp>
#include <ptsuite/report/compare_render.hpp>
#include <ptsuite/report/csv_report.hpp>
#include <ptsuite/report/html_report.hpp>
#include <ptsuite/report/replay_report.hpp>
#include <ptsuite/report/scenario_report.hpp>
#include <ptsuite/report/text_report.hpp>
#include <ptsuite/results/run_document.hpp>
#include <ptsuite/results/scenario_document.hpp>
#include <ptsuite/util/output_file.hpp>

#include "support/test_outputs.hpp"

#include "support/report_fixtures.hpp"
#include "support/results_fixture.hpp"
#include "support/scenario_fixture.hpp"

namespace ptsuite::test_support {

namespace {

using nlohmann::json;

void add_run(std::vector<RenderedReport>& out, const std::string& name) {
  const results::RunDocument doc = results::read_run_document(load_results_fixture(name));
  out.push_back({"run", name + ".report.html", "html", report::render_html(doc)});
  out.push_back({"run", name + ".summary.txt", "text", report::render_text(doc)});
  for (const report::CsvFile& f : report::render_csv(doc))
    out.push_back({"run", name + "." + f.file_name, "csv", f.content});
}

void add_scenario(std::vector<RenderedReport>& out, const std::string& name, const json& doc_json) {
  const results::ScenarioDocument doc = results::read_scenario_document(doc_json);
  out.push_back({"scenario", name + ".report.html", "html", report::scenario_html(doc)});
  out.push_back({"scenario", name + ".summary.txt", "text", report::scenario_text(doc)});
  out.push_back({"scenario", name + ".scenario.csv", "csv", report::scenario_csv(doc)});
}

// The steady fixture as a second drive: another model and serial, IOPS x 1.25.
json second_drive(json doc) {
  doc["device"]["model"] = "FX-7680 Fixture NVMe SSD";
  doc["device"]["serial"] = "FX0000000002";
  for (json& test : doc["tests"]) {
    if (!test.contains("matrix")) continue;
    for (json& row : test["matrix"]["iops"]) {
      for (json& v : row) v = v.get<double>() * 1.25;
    }
  }
  return doc;
}

void add_compare(std::vector<RenderedReport>& out, const std::string& name, const std::string& kind,
                 const std::vector<json>& docs) {
  const report::compare::ValueExtractor* extractor = report::compare::find_extractor(kind);
  std::vector<report::compare::LoadedRun> runs;
  for (size_t i = 0; i < docs.size(); ++i) {
    const std::string dir = "run" + std::to_string(i + 1);
    runs.push_back(
        {{dir, dir, dir + "/results.json", {}}, "", extractor->read(std::make_shared<const json>(docs[i]), dir), kind});
  }
  const results::Comparison cmp = report::compare::build_comparison(runs, {});
  out.push_back({"compare", name + ".compare.html", "html", report::compare::render_compare_html(cmp)});
  out.push_back({"compare", name + ".compare.csv", "csv", report::compare::render_compare_csv(cmp)});
}

void add_app(std::vector<RenderedReport>& out, const std::string& driver, size_t instances) {
  const results::AppRun run = app_run_fixture(driver, instances);
  const std::string name = driver + "-" + std::to_string(instances);
  out.push_back({"app", name + ".report.html", "html", report::app_html(run)});
  out.push_back({"app", name + ".summary.txt", "text", report::app_text(run)});
  out.push_back({"app", name + ".app.csv", "csv", report::app_csv(run)});
}

}  // namespace

std::vector<RenderedReport> render_report_gallery() {
  std::vector<RenderedReport> out;
  for (const std::string& name : results_fixture_names()) add_run(out, name);
  add_scenario(out, "sweep", scenario_txq_sweep(2, 4));
  add_scenario(out, "pressure", scenario_write_pressure(6));
  add_scenario(out, "curves", scenario_load_curves(2, 2));
  const json& steady = load_results_fixture("steady");
  add_compare(out, "steady", "ptsuite.results", {steady, second_drive(steady)});
  add_compare(out, "sweep", "ptsuite.scenario", {scenario_txq_sweep(2, 4), scenario_txq_sweep(2, 4)});
  const results::IoCharacterization c = capture_fixture(250'000'000);
  out.push_back({"capture", "pgbench.capture.html", "html", report::capture_html(c)});
  out.push_back({"capture", "pgbench.capture.txt", "text", report::capture_text(c)});
  const results::ReplayRecord iolog =
      results::read_replay(json::parse(read_file(std::string(PTSUITE_TEST_DATA_DIR) + "/replay/iolog-open.json")));
  const results::ReplayRecord steps = replay_record_fixture(17, 4);
  for (const auto& [name, r] : {std::pair{"iolog", &iolog}, {"steps17", &steps}}) {
    out.push_back({"replay", std::string(name) + ".replay.html", "html", report::replay_html(*r)});
    out.push_back({"replay", std::string(name) + ".replay.txt", "text", report::replay_text(*r)});
  }
  add_app(out, "pgbench", 2);
  add_app(out, "sysbench", 2);
  return out;
}

void write_report_gallery(const std::vector<RenderedReport>& reports, const std::string& dir) {
  std::filesystem::create_directories(dir);
  for (const RenderedReport& r : reports)
    write_file_atomic(test_support::output_path((std::filesystem::path(dir) / r.name).string()), r.content);
}

}  // namespace ptsuite::test_support
