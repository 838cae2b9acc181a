// The HTML report rendered from the checked-in fixture results (steady, not-attained, quick):
// its page structure, the SNIA header on every page, the charts and tables every test needs,
// the numbers it shows against the fixture, the verdicts, no external references, and
// determinism.
#include <gtest/gtest.h>

#include <locale>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/report/html_report.hpp>

#include "support/report_of_json.hpp"
#include "unit/report/html/report_check.hpp"

namespace ptsuite::report::html {
namespace {

using nlohmann::json;
using testing::chart_titles;
using testing::check_document;
using testing::count_of;
using testing::fixture;
using testing::page_titled;
using testing::pages_of;
using testing::rendered;

class ReportOfFixture : public ::testing::TestWithParam<std::string> {
 protected:
  const json& results() const { return fixture(GetParam()); }
  const std::string& html() const { return rendered(GetParam()); }
};

std::string fixture_test_name(const ::testing::TestParamInfo<std::string>& param) {
  return param.param == "not-attained" ? std::string("not_attained") : param.param;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, ReportOfFixture,
                         ::testing::Values("steady", "not-attained", "quick", "dirth", "rww"), fixture_test_name);

const json& test_of(const json& results, const std::string& id) {
  static const json k_null;
  for (const json& t : results.at("tests")) {
    if (t.at("id") == id) {
      return t;
    }
  }
  return k_null;
}

TEST_P(ReportOfFixture, IsWellFormedWithUniqueIds) {
  const auto doc = check_document(html());
  ASSERT_TRUE(doc.ok) << doc.error;
  std::set<std::string> ids;
  for (const auto& e : doc.elements) {
    const auto id = e.attributes.find("id");
    if (id != e.attributes.end()) {
      EXPECT_TRUE(ids.insert(id->second).second) << "duplicate id " << id->second;
    }
  }
  EXPECT_EQ(doc.elements.front().name, "html");
}

TEST_P(ReportOfFixture, EveryPageCarriesTheSniaHeaderAndPageNOfM) {
  const std::vector<std::string> pages = pages_of(html());
  const size_t m = pages.size();
  ASSERT_GE(m, 5u);
  EXPECT_EQ(count_of(html(), "<section class=\"page\""), m);
  const std::string tested_by = results().at("config").at("tested_by");
  const std::string model = results().at("device").at("model");
  for (size_t i = 0; i < m; ++i) {
    const std::string& p = pages[i];
    SCOPED_TRACE("page " + std::to_string(i + 1));
    const std::string label = "Page " + std::to_string(i + 1) + " of " + std::to_string(m);
    EXPECT_EQ(count_of(p, label), 2u) << "header and footer";
    EXPECT_EQ(count_of(p, "<header class=\"snia\">"), 1u);
    const size_t platform = p.find("<th>Test Platform</th>");
    const size_t dut = p.find("<th>Device Under Test</th>");
    const size_t setup = p.find("<th>Set-up Parameters</th>");
    const size_t params = p.find("<th>Test Parameters</th>");
    ASSERT_NE(platform, std::string::npos);
    EXPECT_LT(platform, dut);
    EXPECT_LT(dut, setup);
    EXPECT_LT(setup, params);
    EXPECT_TRUE(p.find("Report Page</div>") != std::string::npos ||
                p.find("PTS Report Summary</div>") != std::string::npos);
    EXPECT_NE(p.find("Rev. <b>PTS 2.0.2</b>"), std::string::npos);
    EXPECT_NE(p.find("<th>Vendor</th>"), std::string::npos);
    EXPECT_NE(p.find("<th>SSD Model</th><td>" + text(model) + "</td>"), std::string::npos);
    EXPECT_NE(p.find("<th>Tested By</th><td>" + text(tested_by) + "</td>"), std::string::npos);
  }
  // No other page numbering anywhere.
  const std::regex numbering("Page ([0-9]+) of ([0-9]+)");
  size_t found = 0;
  for (auto it = std::sregex_iterator(html().begin(), html().end(), numbering); it != std::sregex_iterator(); ++it) {
    EXPECT_EQ((*it)[2].str(), std::to_string(m));
    ++found;
  }
  EXPECT_EQ(found, 2 * m);
}

TEST_P(ReportOfFixture, HasNoExternalReference) {
  const std::string& h = html();
  for (const char* banned :
       {"http", "//", "src=", "@import", "<script", "<link", "<img", "<iframe", "<object", "<embed", "href="}) {
    EXPECT_EQ(h.find(banned), std::string::npos) << banned;
  }
  for (size_t at = h.find("url("); at != std::string::npos; at = h.find("url(", at + 1)) {
    EXPECT_EQ(h.compare(at, 5, "url(#"), 0) << h.substr(at, 40);
  }
}

TEST_P(ReportOfFixture, RendersToTheSameBytesAgainAndUnderAnotherLocale) {
  struct CommaDecimal : std::numpunct<char> {
    char do_decimal_point() const override { return ','; }
    char do_thousands_sep() const override { return '.'; }
    std::string do_grouping() const override { return "\3"; }
  };
  EXPECT_EQ(render_html(results()), html());
  const std::locale previous = std::locale::global(std::locale(std::locale::classic(), new CommaDecimal));
  const std::string again = render_html(results());
  std::locale::global(previous);
  EXPECT_EQ(again, html());
}

TEST_P(ReportOfFixture, SummaryFirstWithEachTestsSteadyStateAndVerdict) {
  const std::vector<std::string> pages = pages_of(html());
  const std::string& summary = pages.front();
  EXPECT_NE(summary.find("PTS Report Summary"), std::string::npos);
  std::string overall = results().at("compliance").at("summary");
  for (char& c : overall) {
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  EXPECT_NE(summary.find("Overall: <span class=\"" +
                         std::string(results().at("compliance").at("compliant") ? "good" : "bad") + "\">" +
                         text(overall) + "</span>"),
            std::string::npos);
  for (const json& t : results().at("tests")) {
    SCOPED_TRACE(t.at("id").get<std::string>());
    EXPECT_NE(summary.find("<td>" + text(t.at("title").get<std::string>()) + "</td>"), std::string::npos);
    for (const json& p : t.at("phases")) {
      const json& ss = p.at("steady_state");
      const std::string expect =
          ss.at("attained").get<bool>()
              ? "reached</span> at Round " + std::to_string(ss.at("attained_round").get<int>())
              : "NOT ACHIEVED</span> after " + std::to_string(ss.at("rounds_run").get<int>()) + " Rounds";
      EXPECT_NE(summary.find(expect), std::string::npos) << expect;
    }
  }
  // Every reason is listed on the reasons pages.
  for (const json& r : results().at("compliance").at("reasons")) {
    EXPECT_NE(html().find("<li>" + text(r.get<std::string>()) + "</li>"), std::string::npos) << r;
  }
  // Every changed setting and every [U] value a test of the run read is disclosed (the TOIO
  // settings are disclosed in each test's header); the others are not listed.
  std::set<std::string> read;
  for (const json& t : results().at("tests")) {
    for (const json& p : t.at("parameters")) {
      read.insert(p.value("setting", ""));
    }
  }
  for (const json& s : results().at("settings")) {
    const std::string name = s.at("name").get<std::string>();
    if ((s.at("changed").get<bool>() || s.at("tag") == "U") && read.count(name) > 0) {
      EXPECT_NE(html().find("<td>" + text(name) + "</td>"), std::string::npos) << name;
    }
    if (read.count(name) == 0 && name.find(".threads") == std::string::npos &&
        name.find(".queue_depth") == std::string::npos && name.rfind("device.", 0) != 0) {
      EXPECT_EQ(html().find("<td>" + text(name) + "</td>"), std::string::npos) << name << " no test read";
    }
  }
  for (const json& c : results().at("conventions")) {
    EXPECT_NE(html().find(text(c.at("convention").get<std::string>())), std::string::npos);
  }
}

// The charts each test's pages must hold (titles of pts-spec.md §3's plots).
std::vector<std::string> required_charts(const json& test) {
  const std::string id = test.at("id");
  const std::string title = test.at("title");
  std::vector<std::string> out;
  if (id == "iops") {
    out = {"IOPS Steady State Convergence", "IOPS vs Block Size", "IOPS \u2013 Block Size x R/W Mix"};
    for (size_t i = 0; i < test.at("phases")[0].at("tracking").size(); ++i) {
      out.push_back("IOPS \u2013 Steady State Measurement Window");
    }
  } else if (id == "throughput") {
    for (const json& p : test.at("phases")) {
      const std::string bs = kib_label(p.at("round_template")[0].at("block_sizes")[0].at("bytes").get<uint64_t>());
      out.insert(out.end(), {"Throughput SS Convergence \u2013 Write", "Throughput SS Convergence \u2013 Read",
                             "Throughput " + bs + " \u2013 Steady State Measurement Window"});
    }
    out.push_back("Throughput by Block Size");
  } else if (id == "latency") {
    out = {"Latency SS Convergence \u2013 Average Response Time", "Latency SS Convergence \u2013 Maximum Response Time",
           "Latency \u2013 Steady State Measurement Window", "Average Response Time", "Maximum Response Time"};
    if (!test.at("captures").empty()) {
      out.insert(out.end(), {"Response Time Histogram", "Response Time Confidence Levels"});
    }
  } else if (id == "wsat") {
    for (const char* x : {"Time", "TGBW", "Drive Fills"}) {
      out.push_back(std::string("WSAT IOPS vs ") + x + " (linear y)");
      out.push_back(std::string("WSAT IOPS vs ") + x + " (log y)");
    }
    out.push_back("WSAT Response Times vs Time");
    out.push_back("WSAT Response Times vs Drive Fills");  // Part A.6
    if (!test.at("captures").empty()) {
      out.insert(out.end(), {"WSAT Response Time Histogram", "WSAT Response Time Confidence Levels"});
    }
  } else if (id == "cbw" || id == "dirth" || id == "rww-sweep") {  // the CBW pages over one stimulus
    const std::string n = id == "cbw" ? "CBW" : id == "dirth" ? "DIRTH" : "RWW SWEEP";
    out = {n + " Preconditioning IOPS vs Round",
           title + " preconditioning \u2013 Steady State Measurement Window",
           n + " Inter-Round Pre-Write IOPS",
           n + " IOPS vs Round, TC 32",
           title + " demand variation \u2013 Steady State Measurement Window",
           n + " Demand Variation",
           n + " Demand Intensity",
           n + " IOPS vs Total OIO",
           n + " ART vs Total OIO",
           "Host CPU Use per TC x QD"};
    for (const char* p : {"MaxIOPS", "MidIOPS", "MinIOPS"}) {
      out.push_back(n + " " + p + " Pre-Write");
      out.push_back(n + " " + p + " Response Time Histogram");
      // A mixed capture: its reads' and writes' histograms apart.
      for (const json& c : test.at("captures")) {
        if (c.at("name") == std::string(p == std::string("MaxIOPS")   ? "max"
                                        : p == std::string("MidIOPS") ? "mid"
                                                                      : "min") +
                                "-iops-histogram" &&
            c.contains("histogram_bars_read")) {
          out.push_back(n + " " + p + " Read Response Times");
          out.push_back(n + " " + p + " Write Response Times");
        }
      }
    }
  } else if (id == "rww-streams" || id == "rww-replay") {  // per phase its measurement window
    const std::string n = id == "rww-streams" ? "RWW STREAMS " : "RWW REPLAY ";
    for (const json& p : test.at("phases")) {
      out.push_back(n + p.at("phase").get<std::string>() + " \u2013 Steady State Measurement Window");
    }
    if (id == "rww-replay") {
      out.insert(out.end(), {"RWW REPLAY IOPS per Step", "RWW REPLAY ART per Step"});
    }
  } else if (id == "xsr") {
    out = {"XSR Throughput vs Time", "XSR Throughput vs Time", "XSR Response Times vs Time"};
  } else if (id == "hir") {
    out = {"HIR Preconditioning IOPS vs Round", "HIR preconditioning \u2013 Steady State Measurement Window",
           "HIR IOPS vs Time", "HIR IOPS per Wait State"};
  }
  return out;
}

TEST_P(ReportOfFixture, EveryTestHasTheChartsOfItsSniaPages) {
  const auto doc = check_document(html());
  ASSERT_TRUE(doc.ok) << doc.error;
  std::multiset<std::string> titles;
  for (const std::string& t : chart_titles(doc)) {
    titles.insert(t);
  }
  std::multiset<std::string> expected;
  for (const json& t : results().at("tests")) {
    for (const std::string& c : required_charts(t)) {
      expected.insert(text(c));
    }
  }
  for (const std::string& c : std::set<std::string>(expected.begin(), expected.end())) {
    EXPECT_GE(titles.count(c), expected.count(c)) << c;
  }
  EXPECT_EQ(titles.size(), expected.size()) << "charts beyond the required ones";
}

// The tables each test's pages must hold, by the start of their caption.
std::vector<std::string> required_tables(const json& test) {
  const std::string id = test.at("id");
  std::vector<std::string> out = {test.at("title").get<std::string>() + " compliance by clause: "};
  for (const json& p : test.at("phases")) {
    for (const json& t : p.at("tracking")) {
      out.push_back("SS determination: " + t.at("name").get<std::string>());
    }
  }
  if (id == "iops") {
    out.push_back("IOPS by block size (rows) and R/W mix");
  } else if (id == "throughput") {
    out.push_back("Throughput per block size, MB/s");
  } else if (id == "latency") {
    out.insert(out.end(), {"IOPS per block size and R/W mix", "Average response time (ms) per block size",
                           "99.999 % response time (5 nines, ms)", "Maximum response time (ms) per block size"});
  } else if (id == "wsat") {
    out.push_back("WSAT run: how it stopped");
  } else if (id == "cbw" || id == "dirth" || id == "rww-sweep") {
    out.insert(out.end(), {"Operating points (", "Response-time captures at the operating points"});
  } else if (id == "xsr") {
    out.push_back("Access groups: throughput");
  }
  if (id == "rww-sweep" || id == "rww-streams" || id == "rww-replay") {
    out.push_back("Applied test workload: IO streams and their shares");
  }
  if (id == "rww-streams") {
    out.push_back("Each stream alone at TC ");
  }
  if (id == "rww-replay") {
    out.push_back("Per capture step of ");
  }
  if (!test.at("captures").empty() && id != "cbw" && id != "dirth" && id != "rww-sweep") {
    out.push_back("Response-time capture statistics");
  }
  return out;
}

// Whether some table's caption ("Table k – ...") starts with `caption`.
bool has_table_caption(const std::string& h, const std::string& caption) {
  const std::string open = "<figcaption>Table ";
  for (size_t at = h.find(open); at != std::string::npos; at = h.find(open, at + 1)) {
    const size_t dash = h.find(" \u2013 ", at);
    if (dash != std::string::npos && h.compare(dash + 5, caption.size(), caption) == 0) {
      return true;
    }
  }
  return false;
}

TEST_P(ReportOfFixture, EveryTestHasTheTablesOfItsSniaPages) {
  for (const json& t : results().at("tests")) {
    for (const std::string& caption : required_tables(t)) {
      EXPECT_TRUE(has_table_caption(html(), text(caption))) << t.at("id") << ": " << caption;
    }
  }
}

TEST_P(ReportOfFixture, ChartsCarryTheirData) {
  const std::vector<std::string> pages = pages_of(html());
  const json& iops = test_of(results(), "iops");
  if (!iops.is_null()) {
    const size_t conv = page_titled(pages, "IOPS \u2013 Steady State Convergence");
    ASSERT_NE(conv, std::string::npos);
    const size_t rounds = iops.at("phases")[0].at("rounds").size();
    const size_t sizes = iops.at("matrix").at("rows").size();
    EXPECT_EQ(count_of(pages[conv], "class=\"pt\""), rounds * sizes);
    const size_t bars = page_titled(pages, "IOPS \u2013 3D Plot");
    ASSERT_NE(bars, std::string::npos);
    EXPECT_EQ(count_of(pages[bars], "class=\"bar3d\""), sizes * iops.at("matrix").at("columns").size());
  }
  // Histograms have bins, pre-write and WSAT plots have points.
  for (size_t i = 0; i < pages.size(); ++i) {
    const bool histogram = pages[i].find("Response Time Histogram</title>") != std::string::npos;
    const bool prewrite = pages[i].find("Pre-Write</title>") != std::string::npos;
    if (histogram) {
      EXPECT_GT(count_of(pages[i], "class=\"bin\""), 5u) << "page " << i + 1;
    }
    if (prewrite || histogram) {
      EXPECT_EQ(pages[i].find("No data"), std::string::npos) << "page " << i + 1;
    }
  }
}

TEST_P(ReportOfFixture, TablesShowTheFixturesNumbers) {
  const std::string& h = html();
  auto cell = [](const std::string& v) { return "<td class=\"num\">" + text(v) + "</td>"; };
  for (const json& t : results().at("tests")) {
    const std::string id = t.at("id");
    SCOPED_TRACE(id);
    if (t.contains("matrix")) {
      const json& m = t.at("matrix");
      for (size_t r = 0; r < m.at("rows").size(); ++r) {
        for (size_t c = 0; c < m.at("columns").size(); ++c) {
          EXPECT_NE(h.find(cell(fmt_iops(m.at("iops")[r][c].get<double>()))), std::string::npos);
          if (id == "latency") {
            for (const char* k : {"latency_mean_ns", "latency_p99_999_ns", "latency_max_ns"}) {
              EXPECT_NE(h.find(cell(grouped(m.at(k)[r][c].get<double>() / 1e6, 3))), std::string::npos) << k;
            }
          }
        }
      }
    }
    if (id == "throughput") {
      for (const json& row : t.at("table")) {
        EXPECT_NE(h.find(cell(fmt_mbps(row.at("read_mb_per_s").get<double>()))), std::string::npos);
        EXPECT_NE(h.find(cell(fmt_mbps(row.at("write_mb_per_s").get<double>()))), std::string::npos);
      }
    }
    if (id == "cbw" || id == "dirth") {
      for (const json& p : t.at(id).at("operating_points")) {
        EXPECT_NE(h.find(cell(fmt_iops(p.at("iops").get<double>()))), std::string::npos);
        EXPECT_NE(h.find(cell(fmt_ms(p.at("latency_mean_ns").get<double>()))), std::string::npos);
      }
    }
    // SS determination: average, allowed and measured excursions, fit and band of every verdict.
    for (const json& p : t.at("phases")) {
      for (const json& v : p.at("steady_state").at("verdicts").at("variables")) {
        const double div = v.at("tracking_variable").get<std::string>().find("ART") != std::string::npos ? 1e6 : 1;
        for (const double x :
             {v.at("average").get<double>(), v.at("data_excursion").at("allowed").get<double>(),
              v.at("data_excursion").at("measured").get<double>(), v.at("slope_excursion").at("allowed").get<double>(),
              v.at("slope_excursion").at("measured").get<double>()}) {
          EXPECT_NE(h.find(cell(fmt_number(x / div))), std::string::npos) << x;
        }
        EXPECT_NE(h.find(text(fmt_number(v.at("band").at("low").get<double>() / div) + " \u2013 " +
                              fmt_number(v.at("band").at("high").get<double>() / div))),
                  std::string::npos);
        if (div == 1) {
          std::string formula = v.at("fit").at("formula");
          formula.replace(formula.find("*R"), 1, "\u00b7");
          EXPECT_NE(h.find(text("y = " + formula)), std::string::npos) << formula;
        }
      }
    }
  }
}

TEST_P(ReportOfFixture, HeaderColumnsDiscloseEachTestsPurgeWriteCacheAndToio) {
  const std::vector<std::string> pages = pages_of(html());
  for (const json& t : results().at("tests")) {
    const std::string title = t.at("title");
    SCOPED_TRACE(title);
    size_t page = std::string::npos;
    for (size_t i = 0; i < pages.size() && page == std::string::npos; ++i) {
      if (pages[i].find(text(title) + " Test \u2013 Report Page") != std::string::npos) {
        page = i;
      }
    }
    ASSERT_NE(page, std::string::npos);
    const std::string& p = pages[page];
    for (const json& purge : t.at("purges")) {
      EXPECT_NE(p.find("Purge Method:</span> <span class=\"v\">" + text(purge.at("method").get<std::string>())),
                std::string::npos);
      EXPECT_NE(p.find(purge.at("pts_compliant").get<bool>() ? "(PTS purge)" : "(NOT a PTS purge)"), std::string::npos);
    }
    EXPECT_NE(p.find("Write Cache:</span> <span class=\"v\">required " +
                     text(t.at("write_cache_required").at("value").get<std::string>())),
              std::string::npos);
    if (t.at("toio").is_object()) {
      const int tc = t.at("toio").at("threads");
      const int qd = t.at("toio").at("queue_depth");
      EXPECT_NE(p.find("TC " + std::to_string(tc) + " / QD " + std::to_string(qd) + " (TOIO " +
                       std::to_string(tc * qd) + ")"),
                std::string::npos);
    }
    EXPECT_NE(p.find("Data Pattern:</span>"), std::string::npos);
    EXPECT_NE(p.find("AR &amp; Amount:</span>"), std::string::npos);
    // Part A.8: the AR Segments row (§2.3), the engine and the revision on every test's header.
    EXPECT_NE(p.find("AR Segments:</span> <span class=\"v\">" +
                     text(t.at("ar_segments").at("description").get<std::string>())),
              std::string::npos);
    EXPECT_NE(
        p.find("IO engine:</span> <span class=\"v\">" + text(results().at("config").at("engine").get<std::string>())),
        std::string::npos);
    EXPECT_NE(p.find("Rev. <b>" + text(revision_label(t.at("spec_revision").get<std::string>())) + "</b>"),
              std::string::npos);
  }
}

// Part A.1: a phase that ran to the Round cap without steady state is named prominently on
// the summary, below the verdict.
TEST(ReportVerdicts, SteadyStateNotAchievedIsNamedUnderTheVerdict) {
  const json& doc = fixture("not-attained");
  const std::string first = pages_of(rendered("not-attained")).front();
  ASSERT_FALSE(doc.at("compliance").at("notes").empty());
  for (const json& note : doc.at("compliance").at("notes")) {
    EXPECT_NE(first.find("<div class=\"why bad\">" + text(note.get<std::string>()) + "</div>"), std::string::npos)
        << note;
  }
}

TEST(ReportVerdicts, QuickRunSaysNotCompliantShortened) {
  const std::string& h = rendered("quick");
  const std::string summary = pages_of(h).front();
  EXPECT_NE(summary.find("Overall: <span class=\"bad\">NOT COMPLIANT: SHORTENED</span>"), std::string::npos);
  EXPECT_NE(h.find("SHORTENED (not compliant)"), std::string::npos);
  EXPECT_NE(h.find("<span class=\"bad\">quick</span>"), std::string::npos);  // presets in the summary header
  EXPECT_NE(page_titled(pages_of(h), "Settings Changed from Their Defaults"), std::string::npos);
  EXPECT_NE(h.find("<td>preset:quick</td>"), std::string::npos);
}

// The DUT block names the NAND type the operator stated (device.nand_type), "not stated" else.
TEST(ReportHeader, TheDutBlockCarriesTheStatedNandType) {
  EXPECT_NE(rendered("steady").find("NAND Type:</span> <span class=\"v\">not stated"), std::string::npos);
  json doc = fixture("steady");
  bool found = false;
  for (json& s : doc.at("settings")) {
    if (s.at("name") == "device.nand_type") {
      s["value"] = "TLC";
      found = true;
    }
  }
  EXPECT_TRUE(found) << "the fixture discloses device.nand_type";
  EXPECT_NE(render_html(doc).find("NAND Type:</span> <span class=\"v\">TLC"), std::string::npos);
}

// The summary's steady-state cell of a test without a Round loop names what stopped its write
// stream, read from the record's block variant: WSAT and endurance-write alike.
TEST(ReportVerdicts, TheSummaryNamesWhatStoppedEachWriteStream) {
  json doc = fixture("quick");
  json wsat = test_of(doc, "wsat");
  ASSERT_TRUE(wsat.is_object());
  ASSERT_EQ(wsat.at("wsat").at("stop_reason"), "time_limit");
  json endurance = wsat;
  endurance["id"] = "endurance-write";
  endurance["title"] = "Endurance Write";
  endurance["endurance"] = endurance.at("wsat");
  endurance["endurance"]["stop_reason"] = "capacity";
  endurance.erase("wsat");
  doc["tests"] = json::array({wsat, endurance});
  const std::vector<std::string> pages = pages_of(render_html(doc));
  ASSERT_FALSE(pages.empty());
  EXPECT_EQ(count_of(pages.front(), "no round loop (stopped by time_limit)"), 1u);
  EXPECT_EQ(count_of(pages.front(), "no round loop (stopped by capacity)"), 1u);
}

// The Settings page lists the settings of the tests that ran only (the quick preset also
// changes HIR / DIRTH / claims durations that a five-test run never reads).
TEST(ReportVerdicts, TheSettingsPageListsOnlyTheTestsThatRan) {
  const std::string& h = rendered("quick");
  EXPECT_NE(h.find("<td>throughput.segment_duration</td>"), std::string::npos);
  EXPECT_EQ(h.find("<td>claims.measure_duration</td>"), std::string::npos);
  EXPECT_EQ(h.find("<td>latency-sweep.segment_duration</td>"), std::string::npos);
}

TEST(ReportVerdicts, NotAttainedRunSaysNotAchievedWhereItHappened) {
  const std::string& h = rendered("not-attained");
  const std::vector<std::string> pages = pages_of(h);
  EXPECT_NE(pages.front().find("NOT ACHIEVED</span> after 25 Rounds"), std::string::npos);
  // The Latency pages: header note, and the determination table's verdict.
  const size_t window = page_titled(pages, "Latency \u2013 Steady State Measurement Window");
  ASSERT_NE(window, std::string::npos);
  EXPECT_NE(pages[window].find("Notes:</span> <span class=\"v\"><span class=\"bad\">SS NOT ACHIEVED</span>"),
            std::string::npos);
  EXPECT_NE(pages[window].find("<span class=\"st-fail\">SS NOT ACHIEVED</span>"), std::string::npos);
  // The omitted block size is disclosed and absent from the tables.
  EXPECT_NE(pages[window].find("omitted 0.5KiB"), std::string::npos);
  const size_t tables = page_titled(pages, "Latency \u2013 Tabular Data");
  ASSERT_NE(tables, std::string::npos);
  EXPECT_EQ(pages[tables].find("<td>0.5 KiB</td>"), std::string::npos);
  EXPECT_NE(pages[tables].find("<td>4 KiB</td>"), std::string::npos);
}

TEST(ReportVerdicts, SteadyRunIsCompliantWithoutNotAchieved) {
  const std::string& h = rendered("steady");
  EXPECT_NE(pages_of(h).front().find("Overall: <span class=\"good\">COMPLIANT</span>"), std::string::npos);
  EXPECT_EQ(h.find("NOT ACHIEVED"), std::string::npos);
  EXPECT_EQ(h.find("SHORTENED"), std::string::npos);
}

TEST(ReportRobustness, RendersAnEmptyDocumentAndAnUnknownTest) {
  const std::string empty = render_html(json::object());
  EXPECT_TRUE(check_document(empty).ok) << check_document(empty).error;
  EXPECT_GE(pages_of(empty).size(), 1u);
  EXPECT_NE(empty.find("NO VERDICT"), std::string::npos);

  json doc = fixture("steady");
  doc["tests"] = json::array({json{{"id", "fob"}, {"title", "A Future Test"}, {"phases", json::array()}}});
  const std::string other = render_html(doc);
  const auto check = check_document(other);
  EXPECT_TRUE(check.ok) << check.error;
  EXPECT_NE(other.find("no page layout for test &quot;fob&quot;"), std::string::npos);
  // A record stripped of most keys still renders (missing values show as dashes).
  doc["tests"] = json::array({json{{"id", "iops"}}, json{{"id", "cbw"}}, json{{"id", "wsat"}}, json{{"id", "latency"}},
                              json{{"id", "throughput"}}, json{{"id", "hir"}}, json{{"id", "xsr"}}});
  EXPECT_TRUE(check_document(render_html(doc)).ok);
}

TEST(ReportRobustness, EscapesEveryStringTakenFromTheResults) {
  json doc = fixture("steady");
  doc["config"]["tested_by"] = "<b>Lab & Co</b> http://example.test";
  doc["device"]["model"] = "X\"Y'Z";
  const std::string h = render_html(doc);
  EXPECT_NE(h.find("&lt;b&gt;Lab &amp; Co&lt;/b&gt; http:/&#47;example.test"), std::string::npos);
  EXPECT_NE(h.find("X&quot;Y&#39;Z"), std::string::npos);
  EXPECT_EQ(h.find("<b>Lab"), std::string::npos);
  EXPECT_EQ(h.find("//"), std::string::npos);
  EXPECT_TRUE(check_document(h).ok);
}

}  // namespace
}  // namespace ptsuite::report::html
