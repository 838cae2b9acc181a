// Scenario reports at the published reviews' own scale, rendered in headless Chromium and checked
// from the rendered page geometry (support/page_geometry.hpp): 8 targets x a 16-point 8 KiB sweep,
// one target x 85 write-pressure steps, and 17 load curves on 8 targets (synthetic documents
// written by the runner's own step_record(): support/scenario_fixture.hpp). On every page no
// element reaches past the content box or the page edge, nothing is clipped, and every chart is
// drawn at its own height (never squeezed); every step row of every table is present, in order,
// with the step's label once; each chart draws its series. Skipped without Chromium.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/report/compare.hpp>
#include <ptsuite/report/compare_render.hpp>
#include <ptsuite/report/pdf.hpp>
#include <ptsuite/report/scenario_report.hpp>
#include <ptsuite/results/app_run.hpp>
#include <ptsuite/results/scenario_document.hpp>

#include "integration/workload_process.hpp"
#include "support/page_geometry.hpp"
#include "support/report_fixtures.hpp"
#include "support/scenario_fixture.hpp"
#include "support/temp_dir.hpp"

namespace ptsuite::report {
namespace {

using nlohmann::json;
using test_support::measure_pages;
using test_support::PageGeometry;

#define SKIP_WITHOUT_CHROMIUM()                                                                      \
  if (find_chromium().empty()) {                                                                     \
    GTEST_SKIP() << "chromium is not installed (apt-get install chromium): no browser to render in"; \
  }

// Rows a summary prints: read, write and R+W when both directions have IOs, else one.
size_t rows_of(const json& summary) {
  if (!summary.is_object()) return 0;
  const bool r = summary.at("read").at("ios").get<uint64_t>() > 0;
  const bool w = summary.at("write").at("ios").get<uint64_t>() > 0;
  return r && w ? 3 : 1;
}

// The step rows a phase's table must show, counted from the document itself.
size_t expected_rows(const json& phase) {
  size_t n = 0;
  for (const json& step : phase.at("steps")) {
    for (const json& t : step.at("targets")) n += rows_of(t.at("summary"));
    if (step.at("targets").size() > 1) n += rows_of(step.at("aggregate"));
  }
  return n;
}

// Every page fits; returns the step-table rows of each phase ("Phase k: NAME") in page order.
std::map<std::string, std::vector<std::string>> check_pages(const std::vector<PageGeometry>& pages) {
  std::map<std::string, std::vector<std::string>> rows;
  for (const PageGeometry& p : pages) {
    SCOPED_TRACE(p.id + " " + p.title);
    EXPECT_TRUE(p.overflowing.empty()) << p.overflowing.size() << " past the page, first: " << p.overflowing.front();
    EXPECT_LE(p.content_scroll_px, p.content_client_px + 1) << "the content box clips";
    for (const auto& [rendered, own] : p.chart_heights) {
      EXPECT_GE(rendered, own * 0.99) << "a chart was squeezed";
    }
    const bool steps_table = std::any_of(p.captions.begin(), p.captions.end(),
                                         [](const std::string& c) { return c.find("Steps of ") != std::string::npos; });
    if (p.title.rfind("Phase ", 0) == 0 && steps_table) {
      const std::string phase = p.title.substr(0, p.title.find(" (continued"));
      // Only the steps table's rows: it is the first table on a page that holds it.
      for (const std::string& r : p.rows) {
        if (r.find("|target ") != std::string::npos || r.find("|all (aggregate)") != std::string::npos) {
          rows[phase].push_back(r);
        }
      }
    }
  }
  return rows;
}

void check_steps(const json& doc, const std::map<std::string, std::vector<std::string>>& rows) {
  size_t index = 0;
  for (const json& phase : doc.at("phases")) {
    const std::string key = "Phase " + std::to_string(++index) + ": " + phase.at("name").get<std::string>() + " (" +
                            phase.at("kind").get<std::string>() + ")";
    SCOPED_TRACE(key);
    ASSERT_TRUE(rows.count(key)) << "no step table";
    const std::vector<std::string>& got = rows.at(key);
    EXPECT_EQ(got.size(), expected_rows(phase)) << "every row of every step";
    size_t next = 0;
    for (const json& step : phase.at("steps")) {
      const std::string label = step.at("label").get<std::string>() + "|";
      while (next < got.size() && got[next].rfind(label, 0) != 0) ++next;
      EXPECT_LT(next, got.size()) << step.at("label") << " missing or out of order";
      ++next;
    }
  }
}

std::string html_of(const json& doc) { return scenario_html(results::read_scenario_document(doc)); }

TEST(ScenarioReportBrowser, EightTargetsSixteenPointSweepFitsEveryPageWithEveryRow) {
  SKIP_WITHOUT_CHROMIUM();
  const json doc = test_support::scenario_txq_sweep(8, 16);
  const std::string html = html_of(doc);
  if (const char* keep = std::getenv("PTSUITE_KEEP_REPORT")) std::ofstream(std::string(keep) + ".sweep.html") << html;
  const std::vector<PageGeometry> pages = measure_pages(html);
  check_steps(doc, check_pages(pages));
  size_t charts = 0;
  for (const PageGeometry& p : pages) charts += p.chart_heights.size();
  EXPECT_GE(charts, 6u) << "IOPS, mean, 99 %, 99.9 %, max and stddev vs TC x QD";
  // Eight drives by default: the aggregate and the drives' min/max, not 8 series per statistic.
  EXPECT_NE(html.find("data-series=\"all\""), std::string::npos);
  EXPECT_NE(html.find("data-series=\"min of targets read\""), std::string::npos);
  EXPECT_EQ(html.find("data-series=\"target 5\""), std::string::npos);
}

TEST(ScenarioReportBrowser, EightyFiveWritePressureStepsOnOneTargetFitWithEveryRow) {
  SKIP_WITHOUT_CHROMIUM();
  const json doc = test_support::scenario_write_pressure(85);
  const std::string html = html_of(doc);
  if (const char* keep = std::getenv("PTSUITE_KEEP_REPORT")) std::ofstream(keep) << html;
  const std::vector<PageGeometry> pages = measure_pages(html);
  EXPECT_GT(pages.size(), 5u);
  check_steps(doc, check_pages(pages));
  EXPECT_NE(html.find("Read latency vs write pressure"), std::string::npos);
  EXPECT_NE(html.find("writes 850 MB/s"), std::string::npos) << "the last step";
  // Every instance's series ends with a 4 ms tail (at twice the rate): none is drawn, all counted.
  size_t tails = 0;
  for (const json& step : doc.at("phases")[0].at("steps")) {
    for (const json& in : step.at("streams")) {
      const json& iv = in.at("intervals");
      const uint64_t last = iv.back().at("end_offset_ns").get<uint64_t>() -
                            (iv.size() > 1 ? iv[iv.size() - 2].at("end_offset_ns").get<uint64_t>() : 0);
      tails += 2 * last < in.at("interval_ns").get<uint64_t>() ? 1 : 0;
    }
  }
  EXPECT_GT(tails, 160u);
  EXPECT_NE(html.find(std::to_string(tails) + " tail interval(s) shorter than half the period are not drawn"),
            std::string::npos);
}

TEST(ScenarioReportBrowser, SeventeenLoadCurvesOnEightTargetsFitWithEveryRow) {
  SKIP_WITHOUT_CHROMIUM();
  const json doc = test_support::scenario_load_curves(17, 8);
  const std::string html = html_of(doc);
  if (const char* keep = std::getenv("PTSUITE_KEEP_REPORT")) std::ofstream(std::string(keep) + ".curves.html") << html;
  const std::vector<PageGeometry> pages = measure_pages(html);
  check_steps(doc, check_pages(pages));
  size_t curves = 0;
  for (size_t p = html.find("Load curve: average latency vs IOPS</title>"); p != std::string::npos;
       p = html.find("Load curve: average latency vs IOPS</title>", p + 1)) {
    ++curves;
  }
  EXPECT_EQ(curves, 17u);
}

// An app phase on 16 targets (issue 40 item 4): the application table (every instance's row and
// the aggregate's) and the device line fit their pages; nothing clipped.
TEST(ScenarioReportBrowser, AnAppPhaseOnSixteenTargetsFitsWithEveryInstanceRow) {
  SKIP_WITHOUT_CHROMIUM();
  json doc = test_support::scenario_txq_sweep(1, 2);
  doc["phases"].push_back({{"name", "db"},
                           {"kind", "app"},
                           {"steps", json::array()},
                           {"app", json(test_support::app_run_fixture("pgbench", 16))}});
  const std::string html = html_of(doc);
  const std::vector<PageGeometry> pages = measure_pages(html);
  (void)check_pages(pages);
  std::vector<std::string> rows;
  bool device = false;
  for (const PageGeometry& p : pages) {
    if (p.title.rfind("Phase 2: db (app)", 0) != 0) continue;
    for (const std::string& r : p.rows) {
      if (r.rfind("target ", 0) == 0 || r.rfind("all (aggregate)", 0) == 0) rows.push_back(r.substr(0, r.find('|')));
    }
    device = device || std::any_of(p.captions.begin(), p.captions.end(), [](const std::string& c) {
               return c.find("Application figures of db") != std::string::npos;
             });
  }
  ASSERT_EQ(rows.size(), 17u) << "16 instances and the aggregate";
  EXPECT_EQ(rows.front(), "target 1");
  EXPECT_EQ(rows[15], "target 16");
  EXPECT_EQ(rows.back(), "all (aggregate)");
  EXPECT_TRUE(device) << "the table's caption";
}

// A mixed phase (issue 40 item 4): pgbench on 8 targets while synthetic streams run on 8 more,
// 60 s on one time axis. Every page fits; the interval table has every one of the 60 seconds in
// order (split across pages with its heading); the application's table names each instance's
// own target (1..8); the streams' step table has every stream target's row (9..16) and the
// aggregate; the three time charts are drawn with the application's and the streams' series.
TEST(ScenarioReportBrowser, AMixedPhaseOnSixteenTargetsShowsBothSidesOnOneTimeAxis) {
  SKIP_WITHOUT_CHROMIUM();
  const json doc = test_support::scenario_mixed(8, 8, 60);
  const std::string html = html_of(doc);
  if (const char* keep = std::getenv("PTSUITE_KEEP_REPORT")) std::ofstream(std::string(keep) + ".mixed.html") << html;
  const std::vector<PageGeometry> pages = measure_pages(html);
  std::map<std::string, std::vector<std::string>> steps = check_pages(pages);
  // The steps table's rows: the stream targets and the aggregate (the app's rows are "target k|").
  std::vector<std::string>& step_rows = steps["Phase 1: db-and-neighbours (app)"];
  std::erase_if(step_rows, [](const std::string& r) { return r.rfind("target ", 0) == 0; });
  check_steps(doc, steps);
  std::vector<double> seconds;
  std::vector<std::string> app_rows;
  for (const PageGeometry& p : pages) {
    const bool intervals = std::any_of(p.captions.begin(), p.captions.end(), [](const std::string& c) {
      return c.find("pgbench and the streams per interval on one time axis") != std::string::npos;
    });
    for (const std::string& r : p.rows) {
      const bool app_row = r.rfind("target ", 0) == 0 || r.rfind("all (aggregate)", 0) == 0;
      if (p.title.rfind("Phase ", 0) == 0 && app_row) app_rows.push_back(r.substr(0, r.find('|')));
      if (intervals && !r.empty() && std::isdigit(static_cast<unsigned char>(r[0])) != 0 &&
          r.find("|target") == std::string::npos) {
        seconds.push_back(std::stod(r.substr(0, r.find('|'))));
      }
    }
  }
  ASSERT_EQ(seconds.size(), 60u) << "every second of the application's progress series";
  for (size_t i = 0; i < seconds.size(); ++i) EXPECT_DOUBLE_EQ(seconds[i], static_cast<double>(i + 1));
  ASSERT_EQ(app_rows.size(), 9u) << "8 instances and the aggregate";
  EXPECT_EQ(app_rows.front(), "target 1");
  EXPECT_EQ(app_rows[7], "target 8");
  for (const char* title :
       {"pgbench TPS over time", "IOPS of the streams over time", "Latency over time: transactions"}) {
    EXPECT_NE(html.find(title), std::string::npos) << title;
  }
  EXPECT_NE(html.find("8 stream interval(s) after the application"), std::string::npos) << "the 4 ms tails";
}

// `compare` at the same scale: two runs of the 8-target sweep and of the 85-step write
// pressure overlaid; every page fits (tables split, charts at their size) and every statistic
// (mean, stddev, 99 / 99.9 / 99.99 %, max, read and write apart) has its page.
TEST(ScenarioReportBrowser, ComparisonsOfRunsAtTheReviewsScaleFitEveryPage) {
  SKIP_WITHOUT_CHROMIUM();
  for (const json& doc : {test_support::scenario_txq_sweep(8, 16), test_support::scenario_write_pressure(85)}) {
    std::vector<compare::LoadedRun> runs;
    const compare::ValueExtractor* scenario = compare::find_extractor("ptsuite.scenario");
    ASSERT_NE(scenario, nullptr);
    const std::shared_ptr<const json> parsed = std::make_shared<const json>(doc);
    for (int i = 0; i < 2; ++i) {
      runs.push_back({{"run" + std::to_string(i), "run", "run/results.json", {}},
                      "",
                      scenario->read(parsed, "run"),
                      "ptsuite.scenario"});
    }
    const std::string html = compare::render_compare_html(compare::build_comparison(runs, {}));
    const std::vector<PageGeometry> pages = measure_pages(html);
    (void)check_pages(pages);
    for (const char* statistic : {"latency standard deviation", "99.9 % latency", "maximum latency"}) {
      EXPECT_NE(html.find(statistic), std::string::npos) << statistic;
    }
  }
}

// A replay phase at the same scale: the built-in pgbench capture (9 steps of 250 ms) replayed on
// 8 targets by the real binary; every page fits and every target's every replay step is a row
// (the steps' two label columns wrap: a row estimated at one line had cut rows off the page).
TEST(ScenarioReportBrowser, EightTargetsReplayingACaptureFitWithEveryStepRow) {
  SKIP_WITHOUT_CHROMIUM();
  test_support::ShmTempDir dir;
  std::vector<std::string> args = {"scenario",      "run",          dir.file("s.json"), "--quiet", "--out",
                                   dir.file("run"), "--no-history", "--format",         "json"};
  for (int t = 0; t < 8; ++t) {
    args.emplace_back("--target");
    args.push_back(dir.create_file("t" + std::to_string(t) + ".img", 256ULL << 20));
  }
  std::ofstream(dir.file("s.json"))
      << json{{"format", "ptsuite-scenario/1"},
              {"name", "replay-eight"},
              {"title", "pgbench on 8 targets"},
              {"phases", {{{"name", "db"}, {"kind", "replay"}, {"capture", "pgbench"}, {"step", "250ms"}}}}}
             .dump();
  const workload::test::ProcessResult r = workload::test::run_ptsuite(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(dir.file("run") + "/results.json");
  const json doc = json::parse(in);
  size_t expected = 0;
  for (const json& t : doc.at("phases")[0].at("replays")) expected += t.at("replay").at("steps").size();
  ASSERT_GE(expected, 8u * 8u);
  const std::vector<PageGeometry> pages = measure_pages(html_of(doc));
  (void)check_pages(pages);
  size_t rows = 0;
  for (const PageGeometry& p : pages) {
    const bool steps = std::any_of(p.captions.begin(), p.captions.end(),
                                   [](const std::string& c) { return c.find("Replay steps of") != std::string::npos; });
    for (const std::string& row : p.rows) {
      const size_t bar = row.find('|');  // target|step|...: the step cell is "N (start)"
      rows += steps && bar + 1 < row.size() && std::isdigit(static_cast<unsigned char>(row[bar + 1])) != 0 ? 1 : 0;
    }
  }
  EXPECT_EQ(rows, expected) << "every replay step of every target is a row";
}

}  // namespace
}  // namespace ptsuite::report
