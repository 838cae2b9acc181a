// The scenario reports from synthetic documents (support/scenario_fixture.hpp), without a browser:
// every latency statistic (mean, stddev, 99 / 99.9 / 99.99 %, max) per direction in the table,
// summary.txt and scenario.csv; the series each report.series choice draws; the tail interval
// left out of the time charts; and `compare` overlaying every statistic per direction.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <regex>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/report/compare_extractor.hpp>
#include <ptsuite/report/csv_report.hpp>
#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/report/scenario_report.hpp>
#include <ptsuite/results/app_run.hpp>
#include <ptsuite/results/scenario_document.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

#include "support/report_fixtures.hpp"
#include "support/scenario_fixture.hpp"

namespace ptsuite::report {
namespace {

using nlohmann::json;

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

TEST(ScenarioReport, TableTextAndCsvHoldEveryLatencyStatisticReadAndWriteApart) {
  const json doc = test_support::scenario_txq_sweep(2, 3);
  const std::string html = scenario_html(results::read_scenario_document(doc));
  for (const char* heading :
       {"<th class=\"num\">StdDev</th>", "<th class=\"num\">99 %</th>", "<th class=\"num\">99.9 %</th>",
        "<th class=\"num\">99.99 %</th>", "<th class=\"num\">Max</th>"}) {
    EXPECT_NE(html.find(heading), std::string::npos) << heading;
  }
  // 3 steps x (2 targets + the aggregate) x (read, write, R+W).
  EXPECT_EQ(count(html, "<td>read</td>"), 9u);
  EXPECT_EQ(count(html, "<td>write</td>"), 9u);
  EXPECT_EQ(count(html, "<td>R+W</td>"), 9u);

  const std::string text = scenario_text(results::read_scenario_document(doc));
  EXPECT_NE(text.find("StdDev      99 %    99.9 %   99.99 %       Max"), std::string::npos) << text;
  EXPECT_EQ(count(text, "  write "), 9u) << text;

  const std::string csv = scenario_csv(results::read_scenario_document(doc));
  EXPECT_EQ(
      csv.rfind("phase,kind,step,label,x,scope,stream,target,direction,requested_iops,requested_mb_per_s,ios,", 0), 0u);
  for (const char* column :
       {"latency_stddev_ns", "latency_max_ns", "latency_p99_ns", "latency_p99.9_ns", "latency_p99.99_ns"}) {
    EXPECT_NE(csv.find(column), std::string::npos) << column;
  }
  // Per step: 2 targets, the aggregate and 2 stream instances, each read, write and combined.
  EXPECT_EQ(count(csv, "\r\n"), 1u + 3 * 5 * 3);
  const double stddev = doc.at("phases")[0].at("steps")[1].at("aggregate").at("write").at("latency_ns").at("stddev");
  EXPECT_NE(csv.find(csv_number(stddev)), std::string::npos) << "copied from the document";
}

TEST(ScenarioReport, DocumentIsReadOnceIntoTypedHeaderTargetsAndPhases) {
  json doc = test_support::scenario_txq_sweep(2, 3);
  doc["targets"][1]["serial"] = nullptr;  // a target the run could not identify
  doc["attestation"] = {{"key_fingerprint", "abcdef"}, {"signed_utc", "2026-11-26T19:01:00Z"}};
  doc["report"] = {{"series", "drives"}, {"plot_targets", json::array({1u})}};
  const results::ScenarioDocument d = results::read_scenario_document(doc);
  EXPECT_EQ(d.tool_version, "0.0.0-test");
  EXPECT_EQ(d.scenario.title, doc.at("scenario").at("title"));
  EXPECT_EQ(d.scenario.source_sha256, std::string(64, 'a'));
  EXPECT_FALSE(d.scenario.quick);
  EXPECT_EQ(d.scenario.ptsuite_choices.size(), 1u);
  EXPECT_EQ(d.config.seed, "1");  // a number, as text
  EXPECT_EQ(d.config.tested_by, "ptsuite tests");
  ASSERT_EQ(d.targets.size(), 2u);
  EXPECT_EQ(d.targets[0].identity.serial, "LOOP0000");
  EXPECT_FALSE(d.targets[1].identity.serial.has_value());
  EXPECT_EQ(d.targets[1].identity.capacity_bytes, uint64_t{1} << 30);
  ASSERT_TRUE(d.attestation.has_value());
  EXPECT_EQ(d.attestation->key_fingerprint, "abcdef");
  EXPECT_EQ(scenario_report_options(d).series, "drives");
  EXPECT_EQ(scenario_report_options(d).plot_targets, (std::vector<uint32_t>{1}));
  EXPECT_EQ(d.phases.size(), doc.at("phases").size());
  EXPECT_TRUE(d.has_scenario);
  // Borrowed: the same records without a copy of the tree.
  const results::ScenarioDocument b = results::borrow_scenario_document(doc);
  EXPECT_EQ(b.source.get(), &doc);
  EXPECT_EQ(b.phases.size(), d.phases.size());
  // A partial document reads as empty, never throws.
  const results::ScenarioDocument none = results::read_scenario_document(json::array({1, "x"}));
  EXPECT_FALSE(none.has_scenario);
  EXPECT_TRUE(none.targets.empty());
  EXPECT_FALSE(none.attestation.has_value());
}

TEST(ScenarioReport, ReportSeriesDrawsDrivesTheAggregateOrBoth) {
  const json two = test_support::scenario_txq_sweep(2, 2);
  const std::string both = scenario_html(results::read_scenario_document(two));  // auto, 2 targets: both
  EXPECT_NE(both.find("data-series=\"target 1\""), std::string::npos);
  EXPECT_NE(both.find("data-series=\"all\""), std::string::npos);
  EXPECT_EQ(both.find("data-series=\"min of targets"), std::string::npos);

  const json eight = test_support::scenario_txq_sweep(8, 2);
  const std::string agg =
      scenario_html(results::read_scenario_document(eight));  // auto, 8 targets: the aggregate and the band
  EXPECT_EQ(agg.find("data-series=\"target 1\""), std::string::npos);
  EXPECT_NE(agg.find("data-series=\"all\""), std::string::npos);
  EXPECT_NE(agg.find("data-series=\"max of targets\""), std::string::npos);

  // --plot-targets 1,5 names targets as the report prints them (from 1): indexes 0 and 4.
  const std::string picked =
      scenario_html(results::read_scenario_document(eight), {"drives", parse_plot_targets("1,5", "--plot-targets")});
  EXPECT_NE(picked.find("data-series=\"target 1\""), std::string::npos);
  EXPECT_NE(picked.find("data-series=\"target 5\""), std::string::npos);
  EXPECT_EQ(picked.find("data-series=\"target 2\""), std::string::npos);
  EXPECT_EQ(picked.find("data-series=\"all\""), std::string::npos);
  EXPECT_EQ(count(picked, "<td>target 2</td>"), 2u * 3 + 1) << "tables keep every target (and the intro lists it)";

  EXPECT_EQ(parse_plot_targets("1,5", "--plot-targets"), (std::vector<uint32_t>{0, 4}));
  EXPECT_THROW((void)parse_plot_targets("1,x", "--plot-targets"), UsageError);
  EXPECT_THROW((void)parse_plot_targets("0,1", "--plot-targets"), UsageError) << "targets count from 1";
  EXPECT_THROW(check_scenario_report_options({"all", {}}, 8, "--series"), UsageError);
  EXPECT_THROW(check_scenario_report_options({"", {8}}, 8, "--plot-targets"), UsageError);
}

// --compact: the HTML and text tables hold the aggregate's rows only and no stream-instance
// table; scenario.csv keeps every row. The option round-trips through results.json "report".
TEST(ScenarioReport, CompactKeepsTheAggregateInTablesAndEveryRowInTheCsv) {
  json doc = test_support::scenario_txq_sweep(2, 3);
  const ScenarioReportOptions compact{"", {}, true};
  const std::string html = scenario_html(results::read_scenario_document(doc), compact);
  // 3 steps x the aggregate x (read, write, R+W); no target rows.
  EXPECT_EQ(count(html, "<td>read</td>"), 3u);
  EXPECT_EQ(count(html, "<td>all (aggregate)</td>"), 9u) << "its scope on each of its rows";
  EXPECT_EQ(count(html, "<td>target 1</td>"), 1u) << "the intro's list of targets only";
  EXPECT_EQ(html.find("Stream instances of"), std::string::npos);
  EXPECT_NE(html.find("--compact: the aggregate only"), std::string::npos);
  const std::string text = scenario_text(results::read_scenario_document(doc), compact);
  EXPECT_EQ(count(text, "  write "), 3u) << text;
  EXPECT_EQ(text.find("target 1    "), std::string::npos) << text;
  // Without --compact the targets are there, numbered from 1.
  const std::string full = scenario_text(results::read_scenario_document(doc));
  EXPECT_NE(full.find("target 1 "), std::string::npos) << full;
  EXPECT_NE(full.find("target 2 "), std::string::npos) << full;
  EXPECT_EQ(full.find("target 0"), std::string::npos) << full;
  // The CSV is not compacted: 3 steps x (2 targets + aggregate + 2 instances) x 3 directions.
  doc["report"] = scenario_report_options_json(compact);
  const results::ScenarioDocument stored = results::read_scenario_document(doc);
  EXPECT_TRUE(scenario_report_options(stored).compact);
  EXPECT_EQ(count(scenario_csv(stored), "\r\n"), 1u + 3 * 5 * 3);
  EXPECT_EQ(count(scenario_html(stored), "<td>read</td>"), 3u) << "the stored option applies";
}

// Latencies print in the unit of their magnitude, one unit per table, named in the heading.
TEST(ScenarioReport, LatencyUnitIsChosenPerTableByMagnitude) {
  EXPECT_EQ(units::latency_unit_for({78e3, 120e3, 2.5e6}), units::LatencyUnit::us) << "median 120 us";
  EXPECT_EQ(units::latency_unit_for({0.9e6, 1.2e6, 40e6}), units::LatencyUnit::ms) << "median 1.2 ms";
  EXPECT_EQ(units::latency_unit_for({}), units::LatencyUnit::ms);
  EXPECT_EQ(units::latency_unit_for({std::nan(""), 0, 500e3}), units::LatencyUnit::us) << "NaN and 0 ignored";
  EXPECT_EQ(units::format_latency(476.4e3), "476.4us");
  EXPECT_EQ(units::format_latency(1.452e6), "1.452ms");
  EXPECT_EQ(units::format_latency(2.31e9), "2.310s");
  EXPECT_EQ(html::fmt_latency(1234.5e3, units::LatencyUnit::us), "1,234.5");
  EXPECT_EQ(html::fmt_latency(1234.6e3, units::LatencyUnit::ms), "1.235");
}

// Each instance's series ends with a 4 ms tail at twice the rate: drawn, it would be the spike
// at the end of every IOPS-over-time chart; it is left out and counted.
TEST(ScenarioReport, TailIntervalsAreNotDrawnAsRatesOverAFewMilliseconds) {
  const json doc = test_support::scenario_write_pressure(2);
  const std::string html = scenario_html(results::read_scenario_document(doc));
  // 2 steps x (reads, writes); the 10 MB/s writes completed no IO in their tail (none recorded).
  EXPECT_NE(html.find("3 tail interval(s) shorter than half the period are not drawn"), std::string::npos)
      << html.substr(html.find("tail interval") - 10, 30);
  // The largest IOPS drawn (y in px is smaller for larger values) stays in the body of the series:
  // the reads run at ~60 k IOPS, a drawn tail would reach ~120 k.
  const size_t chart = html.find("<title id=\"p0-intervals-title\">");
  ASSERT_NE(chart, std::string::npos);
  const std::string svg = html.substr(chart, html.find("</svg>", chart) - chart);
  const std::regex tick(">(\\d+)k</text>");
  double top_tick = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tick); it != std::sregex_iterator(); ++it) {
    top_tick = std::max(top_tick, std::stod((*it)[1]));
  }
  EXPECT_LE(top_tick, 80) << "the y axis would reach 120k with the tail drawn";
  EXPECT_NE(html.find("Latency over time"), std::string::npos) << "mean latency over time for any interval series";
}

// An app phase (issue 40 item 4): its TPS, transactions and transaction latency per instance
// (its target) and for all of them, and the device figures of its capture, in the HTML report,
// summary.txt and scenario.csv (they were an empty page and an empty section).
TEST(ScenarioReport, AnAppPhaseShowsItsTpsLatencyAndDeviceFigures) {
  json doc = test_support::scenario_txq_sweep(2, 2);
  const results::AppRun app = test_support::app_run_fixture("pgbench", 2);
  doc["phases"].push_back({{"name", "db"}, {"kind", "app"}, {"steps", json::array()}, {"app", json(app)}});
  const results::ScenarioDocument d = results::read_scenario_document(doc);
  ASSERT_TRUE(d.phases.back().app.has_value());
  const std::string tps1 = fmt::format("{:.1f}", app.instances[0].tps);

  const std::string html = scenario_html(d);
  const size_t page = html.find(": db (app)");
  ASSERT_NE(page, std::string::npos);
  const std::string app_page = html.substr(page);
  EXPECT_NE(app_page.find("Application figures of db per instance"), std::string::npos);
  EXPECT_NE(app_page.find("<td>target 2</td>"), std::string::npos);
  EXPECT_NE(app_page.find("<td>all (aggregate)</td>"), std::string::npos);
  EXPECT_NE(app_page.find("/dev/nvme2n1"), std::string::npos) << "each instance's device";
  EXPECT_NE(app_page.find("99.9 %"), std::string::npos);
  EXPECT_NE(app_page.find("device (capture of the measured period"), std::string::npos);
  EXPECT_NE(app_page.find("PostgreSQL) 15.20"), std::string::npos) << "the server that ran";

  const std::string text = scenario_text(d);
  const std::string section = text.substr(text.find("\ndb (app)"));
  EXPECT_NE(section.find("TPS"), std::string::npos) << section;
  EXPECT_NE(section.find(tps1), std::string::npos) << section;
  EXPECT_NE(section.find("all (aggregate)"), std::string::npos) << section;
  EXPECT_NE(section.find("IOPS"), std::string::npos) << "the device figures: " << section;

  const std::string csv = scenario_csv(d);
  EXPECT_EQ(count(csv, "db,app,,pgbench,,app,tpcb-like,"), 3u) << csv.substr(csv.find("db,app"));
  EXPECT_EQ(count(csv, "db,app,,pgbench,,device,"), 1u);
  EXPECT_NE(csv.find("db,app,,pgbench,,app,tpcb-like,1,combined,,," + std::to_string(app.instances[0].transactions) +
                     ",," + csv_number(app.instances[0].tps)),
            std::string::npos)
      << csv.substr(csv.find("db,app"));
}

TEST(ScenarioReport, CompareOverlaysEveryLatencyStatisticPerDirection) {
  const json doc = test_support::scenario_txq_sweep(2, 2);
  const compare::ValueExtractor* x = compare::find_extractor("ptsuite.scenario");
  ASSERT_NE(x, nullptr);
  std::set<std::string> metrics;
  for (const compare::Group& g : x->read(std::make_shared<const json>(doc), "sweep")->groups("8k-7030"))
    metrics.insert(g.metric);
  for (const char* m : {"iops", "mb_per_s", "read_latency_mean_ns", "read_latency_stddev_ns", "read_latency_p99_ns",
                        "read_latency_p99_9_ns", "read_latency_p99_99_ns", "read_latency_max_ns",
                        "write_latency_stddev_ns", "write_latency_max_ns", "write_latency_p99_9_ns"}) {
    EXPECT_TRUE(metrics.count(m)) << m;
  }
  const json wp = test_support::scenario_write_pressure(3);
  std::set<std::string> pressure;
  for (const compare::Group& g : x->read(std::make_shared<const json>(wp), "pressure")->groups("pressure"))
    pressure.insert(g.metric);
  EXPECT_TRUE(pressure.count("read_latency_stddev_ns"));
  EXPECT_TRUE(pressure.count("read_latency_max_ns"));
  EXPECT_TRUE(pressure.count("read_latency_p99_9_ns"));
}

}  // namespace
}  // namespace ptsuite::report
