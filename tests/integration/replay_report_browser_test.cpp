// The pages that show what a replay measured of the drive, rendered in headless Chromium at users'
// size and checked from the rendered geometry (support/page_geometry.hpp): a replay report of 40
// steps with a 10-rate ramp (every step's response-time rows present, nothing past a page, no
// chart squeezed), and `compare` of two groups of drives as the reviews read it: write pressure
// (85 steps) with delta tables at two rates, load curves on 8 drives per run with a delta at an
// IOPS for the group and each drive, and two replays of one capture with their ranking and ramps.
// PTSUITE_KEEP_REPORT=DIR keeps the HTML files to look at. Skipped without Chromium.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/report/compare.hpp>
#include <ptsuite/report/compare_render.hpp>
#include <ptsuite/report/pdf.hpp>
#include <ptsuite/report/replay_report.hpp>

#include "support/page_geometry.hpp"
#include "support/replay_fixture.hpp"
#include "support/scenario_fixture.hpp"

namespace ptsuite::report {
namespace {

using nlohmann::json;
using test_support::measure_pages;
using test_support::PageGeometry;

#define SKIP_WITHOUT_BROWSER()                                                                       \
  if (find_chromium().empty()) {                                                                     \
    GTEST_SKIP() << "chromium is not installed (apt-get install chromium): no browser to render in"; \
  }

void keep_rendered_page(const std::string& name, const std::string& html) {
  if (const char* dir = std::getenv("PTSUITE_KEEP_REPORT"); dir != nullptr) {
    std::ofstream(std::string(dir) + "/" + name) << html;
  }
}

// Every page: nothing past the content box or the page, nothing clipped, no chart squeezed.
void expect_pages_fit(const std::vector<PageGeometry>& pages) {
  ASSERT_FALSE(pages.empty());
  for (const PageGeometry& p : pages) {
    SCOPED_TRACE(p.id + " " + p.title);
    EXPECT_TRUE(p.overflowing.empty()) << p.overflowing.size() << " past the page, first: " << p.overflowing.front();
    EXPECT_LE(p.content_scroll_px, p.content_client_px + 1) << "the content box clips";
    for (const auto& [rendered, own] : p.chart_heights) {
      EXPECT_GE(rendered, own * 0.99) << "a chart was squeezed";
    }
  }
}

// The body rows of every table whose caption contains `caption`, in page order.
std::vector<std::string> rows_of(const std::vector<PageGeometry>& pages, const std::string& caption) {
  std::vector<std::string> out;
  for (const PageGeometry& p : pages) {
    const bool has = std::any_of(p.captions.begin(), p.captions.end(),
                                 [&](const std::string& c) { return c.find(caption) != std::string::npos; });
    if (!has) continue;
    for (const std::string& r : p.rows) out.push_back(r);
  }
  return out;
}

TEST(ReplayReportBrowser, FortyStepsOfResponseTimesAndARampFitWithEveryRow) {
  SKIP_WITHOUT_BROWSER();
  test_support::ReplayFixture f;
  f.steps = 40;
  f.ramp_points = 10;
  const results::ReplayRecord r = test_support::replay_record(f);
  const std::string html = replay_html(r);
  keep_rendered_page("replay.html", html);
  const std::vector<PageGeometry> pages = measure_pages(html);
  expect_pages_fit(pages);
  // Three rows per step (read, write, R+W): the step's number on its first row only.
  const std::vector<std::string> rows = rows_of(pages, "Response times of the replayed IOs per step");
  size_t firsts = 0;
  for (const std::string& row : rows) firsts += row.find("|read|") != std::string::npos ? 1 : 0;
  EXPECT_EQ(firsts, 40u) << "every step's rows";
  EXPECT_EQ(rows_of(pages, "Rate ramp: per rate").size(), 30u) << "every rate, three directions each";
  size_t steps = 0;  // the faithfulness table's rows start with the step's number
  for (const std::string& row : rows_of(pages, "Per step: the capture")) {
    steps += !row.empty() && std::isdigit(static_cast<unsigned char>(row[0])) != 0 ? 1 : 0;
  }
  EXPECT_EQ(steps, 40u) << "the faithfulness table too";
  EXPECT_NE(html.find("Load curve: response time vs IOPS achieved"), std::string::npos);
}

std::vector<compare::LoadedRun> runs_of(const std::vector<json>& docs, const std::string& kind) {
  const compare::ValueExtractor* ex = compare::find_extractor(kind);
  std::vector<compare::LoadedRun> runs;
  for (size_t i = 0; i < docs.size(); ++i) {
    const std::string name = "run-" + std::to_string(i + 1);
    runs.push_back({{name, name, name + "/results.json", {}},
                    std::string(64, 'f'),
                    ex->read(std::make_shared<const json>(docs[i]), name),
                    kind});
  }
  return runs;
}

// Every latency figure of a scenario document x `factor` (another group of drives).
void scale_latency(json& j, double factor) {
  if (j.is_object()) {
    for (auto& [key, value] : j.items()) {
      if (key != "latency_ns") {
        scale_latency(value, factor);
        continue;
      }
      for (auto& [stat, v] : value.items()) {
        if (v.is_number()) v = v.get<double>() * factor;
        if (stat == "percentiles") {
          for (auto& [pct, pv] : v.items()) pv = pv.get<double>() * factor;
        }
      }
    }
  } else if (j.is_array()) {
    for (json& e : j) scale_latency(e, factor);
  }
}

TEST(CompareReportBrowser, GroupsOfDrivesWithDeltaTablesAndRankingsFitEveryPage) {
  SKIP_WITHOUT_BROWSER();
  struct Case {
    const char* name;
    json doc;
    std::vector<std::string> at;
  };
  Case cases[] = {{"wp", test_support::scenario_write_pressure(85), {"400MB/s", "800MB/s"}},
                  {"curves", test_support::scenario_load_curves(2, 8), {"120000IOPS"}}};
  for (Case& c : cases) {
    SCOPED_TRACE(c.name);
    json slower = c.doc;
    scale_latency(slower, 1.3);
    compare::Options o;
    o.at = c.at;
    const results::Comparison cmp = compare::build_comparison(runs_of({c.doc, slower}, "ptsuite.scenario"), o);
    ASSERT_FALSE(cmp.deltas.empty());
    const std::string html = compare::render_compare_html(cmp);
    keep_rendered_page(std::string("compare-") + c.name + ".html", html);
    const std::vector<PageGeometry> pages = measure_pages(html);
    expect_pages_fit(pages);
    EXPECT_FALSE(rows_of(pages, "each run's value and its difference to run 1").empty());
  }
  test_support::ReplayFixture fast;
  fast.steps = 20;
  fast.ramp_points = 10;
  test_support::ReplayFixture slow = fast;
  slow.mean_ns = 400'000;
  slow.iops = 4'000;
  slow.model = "SL-0100 Slow Fixture";
  json a;
  json b;
  to_json(a, test_support::replay_record(slow));
  to_json(b, test_support::replay_record(fast));
  compare::Options o;
  o.at = {"1s", "50%"};
  const results::Comparison cmp = compare::build_comparison(runs_of({a, b}, "ptsuite.replay"), o);
  ASSERT_EQ(cmp.rankings.size(), 1u);
  EXPECT_EQ(cmp.rankings[0].order.front(), 1u);
  const std::string html = compare::render_compare_html(cmp);
  keep_rendered_page("compare-replay.html", html);
  const std::vector<PageGeometry> pages = measure_pages(html);
  expect_pages_fit(pages);
  EXPECT_NE(html.find("Ranking of the runs"), std::string::npos);
}

}  // namespace
}  // namespace ptsuite::report
