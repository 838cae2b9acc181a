// Window tables where a percentile can exceed the MRT beside it (issue 37 item 3): with the
// default window.mrt=round-mean the MRT is the mean of the Rounds' maxima, below the window's
// largest response time, so the 5 9s of the merged window histogram may be above it. The record
// keeps the window's exact maximum and the Latency and latency-sweep tables (HTML, text, CSV)
// show it as "Max" beside the MRT, saying which is which.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include <ptsuite/pts/test_procedure.hpp>
#include <ptsuite/results/grid_matrix.hpp>
#include <ptsuite/results/latency_sweep.hpp>

#include "support/fake_step_executor.hpp"
#include "support/report_of_json.hpp"
#include "support/results_fixture.hpp"

namespace ptsuite::report {
namespace {

using nlohmann::json;

// `test` (latency or latency-sweep) over the fake executor: odd Rounds answer 3x slower, so
// every window holds Rounds whose maxima differ (3 of 300 us, 2 of 100 us: the MRT is 220 us,
// the window's maximum and its 5 9s 300 us), as a quick run's few IOs per cell do.
json swinging_document(const std::string& test) {
  const pts::SpecContext spec{"2.0.2", "enterprise"};
  const pts::Settings settings = pts::Settings::build(
      pts::DefinitionSet::embedded(), spec, {},
      {{"latency-sweep.thread_counts", "1"}, {"latency-sweep.queue_depths", "1,2"}, {"max_rounds", "5"}});
  auto slow = [](const pts::StepId& id) {
    return !id.name.empty() && id.name[0] == 'r' && (id.name[3] - '0') % 2 == 1;
  };
  pts::testing::FakeExecutor exec(
      [](const pts::StepId&, const pts::SegmentSpec&) { return 200.0; },
      [slow](const pts::StepId& id, const pts::SegmentSpec&) -> uint64_t { return slow(id) ? 300'000 : 100'000; });
  pts::TestContext ctx{pts::DefinitionSet::embedded(), spec, settings, exec, {1ull << 30, 512}};
  json record = pts::make_test(test)->run(ctx);
  record["status"] = "complete";
  return json{{"tests", json::array({record})}};
}

TEST(WindowMax, TheLatencyMatrixKeepsTheWindowsMaximumAboveEveryPercentile) {
  using results::GridMetric;
  // The fixture (a drive model, a minute per cell): the 5 9s is below the MRT, the Max above both.
  const json& doc = test_support::load_results_fixture("steady");
  const results::GridMatrix m = results::read_grid_matrix(test_support::test_of(doc, "latency").at("matrix"));
  for (size_t r = 0; r < m.rows.size(); ++r) {
    for (size_t c = 0; c < m.columns.size(); ++c) {
      const double max = m.cell(GridMetric::latency_window_max_ns, r, c);
      ASSERT_FALSE(std::isnan(max)) << r << "," << c;
      EXPECT_GE(max, m.cell(GridMetric::latency_p99_999_ns, r, c));
      EXPECT_GE(max, m.cell(GridMetric::latency_max_ns, r, c));  // the mean of the maxima is below their max
    }
  }
  // Few IOs per cell: every cell's 5 9s above its MRT, never above its Max.
  const json swinging = swinging_document("latency");
  const results::GridMatrix s = results::read_grid_matrix(swinging.at("tests")[0].at("matrix"));
  ASSERT_FALSE(s.rows.empty());
  for (size_t r = 0; r < s.rows.size(); ++r) {
    for (size_t c = 0; c < s.columns.size(); ++c) {
      EXPECT_EQ(s.cell(GridMetric::latency_max_ns, r, c), 220'000);
      EXPECT_GT(s.cell(GridMetric::latency_p99_999_ns, r, c), s.cell(GridMetric::latency_max_ns, r, c));
      EXPECT_EQ(s.cell(GridMetric::latency_window_max_ns, r, c), 300'000);
    }
  }
  const std::string text = render_text(swinging);
  EXPECT_NE(text.find("MRT (ms)  Max (ms)"), std::string::npos) << text;
}

TEST(WindowMax, TheLatencyTablesShowMaxBesideTheMrtAndSayWhichIsWhich) {
  const json& doc = test_support::load_results_fixture("steady");
  const std::string text = render_text(doc);
  EXPECT_NE(text.find("MRT mean of the window Rounds' maxima (window.mrt=round-mean; a percentile may exceed it); "
                      "99.999 % a percentile of every IO of the window (merged histogram), not an average; Max the "
                      "largest response time of every IO of the window, exact (no percentile exceeds it):"),
            std::string::npos);
  EXPECT_NE(text.find("99.999 % (ms)  MRT (ms)  Max (ms)"), std::string::npos);
  const std::string html = render_html(doc);
  EXPECT_NE(html.find("Latency \u2013 Tabular Data: IOPS, ART, 99.999 %, MRT and Max"), std::string::npos);
  EXPECT_NE(html.find("Max: the largest response time of every IO of the window, exact (no percentile exceeds it)"),
            std::string::npos);
  bool csv_has_max = false;
  for (const CsvFile& f : render_csv(doc)) {
    csv_has_max =
        csv_has_max || (f.file_name == "latency.csv" && f.content.find(",latency_window_max,") != std::string::npos);
  }
  EXPECT_TRUE(csv_has_max);
  // window.mrt=max: the MRT is the maximum; no second column.
  json as_max = doc;
  for (json& t : as_max.at("tests")) {
    for (json& p : t.at("parameters")) {
      if (p.value("setting", "") == "window.mrt") p["value"] = "max";
    }
  }
  EXPECT_EQ(render_text(as_max).find("Max (ms)"), std::string::npos);
}

TEST(WindowMax, TheLatencySweepTableShowsMaxWhereThe5NinesExceedTheMrt) {
  const json doc = swinging_document("latency-sweep");
  const results::LatencySweepBlock sweep = results::read_latency_sweep(doc.at("tests")[0].at("sweep"));
  ASSERT_FALSE(sweep.cells.empty());
  for (const results::SweepCell& c : sweep.cells) {
    ASSERT_TRUE(c.latency_window_max_ns.has_value());
    EXPECT_EQ(c.latency.latency_max_ns, 220'000u);  // round-mean MRT
    EXPECT_GT(c.latency.latency_p99_999_ns, c.latency.latency_max_ns);
    EXPECT_EQ(*c.latency_window_max_ns, 300'000u);
  }
  const std::string text = render_text(doc);
  EXPECT_NE(text.find("MRT (ms)  Max (ms)"), std::string::npos) << text;
  EXPECT_NE(text.find("0.220     0.300"), std::string::npos) << text;
  EXPECT_NE(render_html(doc).find("<th class=\"num\">Max (ms)</th>"), std::string::npos);
  bool csv_has_max = false;
  for (const CsvFile& f : render_csv(doc)) {
    csv_has_max = csv_has_max || f.content.find(",latency_window_max,300000,") != std::string::npos;
  }
  EXPECT_TRUE(csv_has_max);
}

}  // namespace
}  // namespace ptsuite::report
