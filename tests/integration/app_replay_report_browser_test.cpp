// The replay, capture and application reports at the reviews' scale, rendered in headless
// Chromium and checked from the page geometry (support/page_geometry.hpp), as the scenario
// reports are (scenario_report_browser_test.cpp): a replay of 17 steps with 27 block sizes in each
// (459 block-size rows; the report cut at step 15 and showed 47 of 451 rows before it paginated)
// and an application run of 16 instances (its charts shrank to half their height at 8 and to
// thumbnails at 16; its header named instance 1's device only). On every page nothing reaches
// past the content box or the page edge, nothing is clipped, every chart has its own height;
// every row is there. Skipped without Chromium.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <ptsuite/report/app_report.hpp>
#include <ptsuite/report/pdf.hpp>
#include <ptsuite/report/replay_report.hpp>

#include "support/page_geometry.hpp"
#include "support/report_fixtures.hpp"

namespace ptsuite::report {
namespace {

using test_support::measure_pages;
using test_support::PageGeometry;

#define SKIP_WITHOUT_CHROMIUM()                                                                      \
  if (find_chromium().empty()) {                                                                     \
    GTEST_SKIP() << "chromium is not installed (apt-get install chromium): no browser to render in"; \
  }

void keep(const std::string& html, const std::string& name) {
  if (const char* dir = std::getenv("PTSUITE_KEEP_REPORT")) std::ofstream(std::string(dir) + "." + name) << html;
}

// Every page fits, its charts at their own height.
void check_fits(const std::vector<PageGeometry>& pages) {
  for (const PageGeometry& p : pages) {
    SCOPED_TRACE(p.id + " " + p.title);
    EXPECT_TRUE(p.overflowing.empty()) << p.overflowing.size() << " past the page, first: " << p.overflowing.front();
    EXPECT_LE(p.content_scroll_px, p.content_client_px + 1) << "the content box clips";
    for (const auto& [rendered, own] : p.chart_heights) EXPECT_GE(rendered, own * 0.99) << "a chart was squeezed";
  }
}

// The rows ("cell0|cell1|cell2") of the pages holding a table whose caption starts with `caption`.
std::vector<std::string> rows_under(const std::vector<PageGeometry>& pages, const std::string& caption) {
  std::vector<std::string> out;
  for (const PageGeometry& p : pages) {
    const bool has = std::any_of(p.captions.begin(), p.captions.end(),
                                 [&](const std::string& c) { return c.find(caption) != std::string::npos; });
    if (has) out.insert(out.end(), p.rows.begin(), p.rows.end());
  }
  return out;
}

TEST(ReplayReportBrowser, SeventeenStepsAndEveryBlockSizeRowFitTheirPages) {
  SKIP_WITHOUT_CHROMIUM();
  const results::ReplayRecord r = test_support::replay_record_fixture(17, 27);
  const std::string html = replay_html(r);
  keep(html, "replay.html");
  const std::vector<PageGeometry> pages = measure_pages(html);
  check_fits(pages);
  // The step table: one row per step, numbered 1..17 in order.
  std::vector<std::string> steps;
  for (const std::string& row : rows_under(pages, "Per step:")) {
    const std::string first = row.substr(0, row.find('|'));
    if (!first.empty() && std::all_of(first.begin(), first.end(), ::isdigit)) steps.push_back(first);
  }
  ASSERT_EQ(steps.size(), 17u) << "every step";
  for (size_t k = 0; k < steps.size(); ++k) EXPECT_EQ(steps[k], std::to_string(k + 1));
  // The block-size table: 17 x 27 sizes (four to a row), each step's number on its first row.
  size_t sizes = 0;
  for (const std::string& row : rows_under(pages, "Block-size distribution per step")) {
    for (size_t p = row.find("KiB|"); p != std::string::npos; p = row.find("KiB|", p + 1)) ++sizes;
  }
  EXPECT_EQ(sizes, 17u * 27u) << "every block size of every step";
}

TEST(AppReportBrowser, SixteenInstancesKeepTheirChartsAndEveryRow) {
  SKIP_WITHOUT_CHROMIUM();
  const results::AppRun run = test_support::app_run_fixture("sysbench", 16);
  const std::string html = app_html(run);
  keep(html, "app.html");
  const std::vector<PageGeometry> pages = measure_pages(html);
  check_fits(pages);
  // Every instance's row, in order, then the aggregate and the device.
  std::vector<std::string> rows;
  for (const std::string& row : rows_under(pages, "The application's transactions")) {
    if (row.rfind("Application, ", 0) == 0 || row.rfind("Device (", 0) == 0) rows.push_back(row);
  }
  ASSERT_EQ(rows.size(), 18u);
  for (size_t i = 0; i < 16; ++i) {
    EXPECT_EQ(rows[i].rfind("Application, instance " + std::to_string(i + 1) + "|/dev/nvme" + std::to_string(i + 1), 0),
              0u)
        << rows[i];
  }
  // The TPS, device IOPS and queue-depth charts and the capture's charts: all at their size.
  size_t charts = 0;
  for (const PageGeometry& p : pages) charts += p.chart_heights.size();
  EXPECT_GE(charts, 8u);
  // The header names every instance's device on every page.
  const std::string devices = "1: nvme1n1, 2: nvme2n1";
  EXPECT_NE(html.find(devices), std::string::npos);
  EXPECT_NE(html.find("16: nvme16n1"), std::string::npos);
  size_t headers = 0;
  for (size_t p = html.find(devices); p != std::string::npos; p = html.find(devices, p + 1)) ++headers;
  EXPECT_EQ(headers, pages.size());
}

// One instance: the first page holds what docs/app.md promises, the application's table next to
// the device's and the TPS, device IOPS and queue-depth charts on one time axis.
TEST(AppReportBrowser, OneInstanceFitsTheApplicationAndTheDeviceOnTheFirstPage) {
  SKIP_WITHOUT_CHROMIUM();
  const std::string html = app_html(test_support::app_run_fixture("pgbench", 1));
  keep(html, "app1.html");
  const std::vector<PageGeometry> pages = measure_pages(html);
  check_fits(pages);
  ASSERT_FALSE(pages.empty());
  EXPECT_EQ(pages[0].chart_heights.size(), 3u);
}

}  // namespace
}  // namespace ptsuite::report
