// One statistic, one meaning (issue 40 item 5): over every table of every report kind
// (support/report_gallery.hpp: run, scenario, compare, capture, replay and app reports, HTML, text
// and CSV), order statistics of the same samples are in order: min <= p50 <= ... <= max, mean <=
// max (support/statistic_order.hpp). The checker itself is pinned on small tables first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>

#include "support/report_gallery.hpp"
#include "support/statistic_order.hpp"

namespace ptsuite::test_support {
namespace {

TEST(StatisticOrder, FindsAPercentileAboveTheMaximumInAnHtmlTable) {
  const std::string ok =
      "<table><thead><tr><th>Name</th><th>Mean (ms)</th><th>99 % (ms)</th><th>99.9 % (ms)</th><th>Max (ms)</th></tr>"
      "</thead><tbody><tr><td>a</td><td>2.660</td><td>18.280</td><td>35.589</td><td>50.900</td></tr></tbody></table>";
  EXPECT_EQ(statistic_order_violations_html(ok), std::vector<std::string>{});
  const std::string bad =
      "<table><thead><tr><th>Name</th><th>Mean (ms)</th><th>99 % (ms)</th><th>99.9 % (ms)</th><th>Max (ms)</th></tr>"
      "</thead><tbody><tr><td>a</td><td>2.660</td><td>18.280</td><td>773.683</td><td>769.650</td></tr></tbody>"
      "</table>";
  const std::vector<std::string> v = statistic_order_violations_html(bad);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].find("99.9 % (ms) 773.683 > Max (ms) 769.650"), std::string::npos) << v[0];
}

TEST(StatisticOrder, GroupsColumnsByWhatTheyAreOfAndConvertsUnits) {
  // Read and write apart: a write 99 % above the read maximum is no violation.
  const std::string groups =
      "<table><thead><tr><th>Read 99 %</th><th>Read max</th><th>Write 99 %</th><th>Write max</th></tr></thead>"
      "<tbody><tr><td>1.0</td><td>2.0</td><td>5.0</td><td>9.0</td></tr></tbody></table>";
  EXPECT_EQ(statistic_order_violations_html(groups), std::vector<std::string>{});
  // "Issue error p50 (µs)", "p99", "max": one group in microseconds; "0.9 ms" in a cell is 900 us.
  const std::string continued =
      "<table><thead><tr><th>Issue error p50 (\u00b5s)</th><th>p99</th><th>max</th></tr></thead>"
      "<tbody><tr><td>20.0</td><td>400.0</td><td>0.3 ms</td></tr></tbody></table>";
  EXPECT_EQ(statistic_order_violations_html(continued).size(), 1u);
  // A "p50 / p99 / max (us)" heading over "a / b / c" cells; MRT is not ordered against percentiles.
  const std::string slashes =
      "<table><thead><tr><th>Issue error p50 / p99 / max (us)</th><th>99.999 %</th><th>MRT</th></tr></thead>"
      "<tbody><tr><td>20.0 / 400.0 / 300.0</td><td>27.984</td><td>14.880</td></tr></tbody></table>";
  const std::vector<std::string> v = statistic_order_violations_html(slashes);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].find("p99 400.0 > max"), std::string::npos) << v[0];
  // Displayed values are rounded: 0.0204 ms shown as "0.020" next to 20.4 us is in order.
  const std::string rounding =
      "<table><thead><tr><th>p99 (\u00b5s)</th><th>max (ms)</th></tr></thead>"
      "<tbody><tr><td>20.4</td><td>0.020</td></tr></tbody></table>";
  EXPECT_EQ(statistic_order_violations_html(rounding), std::vector<std::string>{});
}

TEST(StatisticOrder, ReadsCsvHeadersAndTextTablesAndRuns) {
  EXPECT_EQ(statistic_order_violations_csv("step,latency_mean_ns,latency_p99_ns,latency_max_ns\r\n1,5,9,8\r\n").size(),
            1u);
  EXPECT_EQ(statistic_order_violations_csv("step,latency_p99_ns,issue_error_p50_ns\r\n1,9,8\r\n"),
            std::vector<std::string>{});
  const std::string table =
      "  instance        mean    stddev      95 %      99 %    99.9 %       max\n"
      "  0              2.660     3.600     8.895    18.280    35.589    50.900\n"
      "  1              2.660     3.600     8.895    18.280    55.589    50.900\n"
      "\n";
  const std::vector<std::string> v = statistic_order_violations_text(table);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].find("line 1"), std::string::npos) << v[0];
  EXPECT_EQ(statistic_order_violations_text("latency mean 1.2 ms, 50 % 0.9 ms, 99 % 3.1 ms, max 2.0 ms\n").size(), 1u);
  EXPECT_EQ(statistic_order_violations_text("issue error p50 12.0 us / p99 40.1 us / max 90.2 us; 3 of 4\n"),
            std::vector<std::string>{});
}

TEST(StatisticOrder, HoldsInEveryTableOfEveryReportKind) {
  const std::vector<RenderedReport> reports = render_report_gallery();
  if (const char* keep = std::getenv("PTSUITE_KEEP_REPORTS")) write_report_gallery(reports, keep);
  for (const char* kind : {"run", "scenario", "compare", "capture", "replay", "app"}) {
    EXPECT_TRUE(std::any_of(reports.begin(), reports.end(), [&](const auto& r) { return r.kind == kind; })) << kind;
  }
  std::map<std::string, size_t> pairs;  // per kind and format: values compared
  for (const RenderedReport& r : reports) {
    SCOPED_TRACE(r.name);
    EXPECT_FALSE(r.content.empty());
    size_t& n = pairs[r.kind + " " + r.format];
    const std::vector<std::string> v = r.format == "html"  ? statistic_order_violations_html(r.content, &n)
                                       : r.format == "csv" ? statistic_order_violations_csv(r.content, &n)
                                                           : statistic_order_violations_text(r.content, &n);
    EXPECT_EQ(v, std::vector<std::string>{});
  }
  // Every kind's tables were checked, not skipped for want of recognised headings.
  for (const auto& [what, n] : pairs) {
    std::cout << "statistic order: " << what << ": " << n << " pairs of values compared\n";
  }
  // (compare tables hold one statistic per table, one column per run: nothing to order there.)
  for (const char* what : {"run html", "run text", "run csv", "scenario html", "scenario text", "scenario csv",
                           "capture html", "capture text", "replay html", "replay text", "app html", "app text"}) {
    EXPECT_GT(pairs[what], 0u) << what;
  }
}

}  // namespace
}  // namespace ptsuite::test_support
