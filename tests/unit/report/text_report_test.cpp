// The text summary over the checked-in fixtures: verdicts and reasons, steady-state outcomes,
// and key numbers copied from the fixture JSON.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <sstream>

#include <ptsuite/report/text_report.hpp>

#include "support/report_of_json.hpp"
#include "support/results_fixture.hpp"

namespace ptsuite::report {
namespace {

using nlohmann::json;
using test_support::load_results_fixture;

using test_support::test_of;

// The section of one test ("== <title> (<id>, ...") up to the next section.
std::string section(const std::string& text, const std::string& id) {
  const size_t start = text.find("(" + id + ", PTS");
  if (start == std::string::npos) {
    return {};
  }
  const size_t end = text.find("\n== ", start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// The line of `text` that starts (after indentation) with `head`.
std::string line_starting(const std::string& text, const std::string& head) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const size_t first = line.find_first_not_of(' ');
    if (first != std::string::npos && line.compare(first, head.size(), head) == 0) {
      return line;
    }
  }
  return {};
}

std::string ms(const json& ns) { return fmt::format("{:.3f}", ns.get<double>() / 1e6); }

TEST(TextReport, SteadyRunIsCompliantWithItsNumbers) {
  const json& doc = load_results_fixture("steady");
  const std::string text = render_text(doc);
  EXPECT_NE(text.find("SNIA SSS PTS 2.0.2"), std::string::npos) << text;
  EXPECT_NE(text.find("Device:      Fixture Storage FX-3840 Fixture NVMe SSD, serial FX0000000001"), std::string::npos);
  EXPECT_NE(text.find("Tested by:   Fixture Labs, Inc."), std::string::npos);
  EXPECT_NE(text.find("Settings:    spec defaults"), std::string::npos);
  EXPECT_EQ(
      text.rfind("Compliance: compliant\n", 0) == 0 || text.find("\nCompliance: compliant\n") != std::string::npos,
      true);
  EXPECT_EQ(text.find("NOT ACHIEVED"), std::string::npos);

  // IOPS: steady state and the 4KiB row of the matrix (0/100 is its last column).
  const std::string iops = section(text, "iops");
  const json& rec = test_of(doc, "iops");
  const json& window = rec.at("phases")[0].at("measurement_window");
  EXPECT_NE(iops.find(fmt::format("Steady state (main): attained in Rounds {}-{}", window.at("first_round").get<int>(),
                                  window.at("last_round").get<int>())),
            std::string::npos)
      << iops;
  const std::string row = line_starting(iops, "4KiB ");
  ASSERT_FALSE(row.empty()) << iops;
  EXPECT_EQ(row.substr(row.size() - fmt::format("{:.0f}", rec.at("matrix").at("iops")[6][6].get<double>()).size()),
            fmt::format("{:.0f}", rec.at("matrix").at("iops")[6][6].get<double>()))
      << row;
  EXPECT_NE(row.find(fmt::format("{:.0f}", rec.at("matrix").at("iops")[6][0].get<double>())), std::string::npos) << row;
  EXPECT_NE(iops.find("RND 4KiB 0/100 IOPS"), std::string::npos);
  EXPECT_NE(iops.find("  Compliance: compliant"), std::string::npos);

  // Latency: ART, 99.999 % and MRT of RND 4KiB 0/100 (row 1, column 2 of the matrix).
  const std::string lat = section(text, "latency");
  const json& m = test_of(doc, "latency").at("matrix");
  const std::string lat_row = line_starting(lat, "0/100    4KiB");
  ASSERT_FALSE(lat_row.empty()) << lat;
  EXPECT_NE(lat_row.find(ms(m.at("latency_mean_ns")[1][2])), std::string::npos) << lat_row;
  EXPECT_NE(lat_row.find(ms(m.at("latency_p99_999_ns")[1][2])), std::string::npos) << lat_row;
  EXPECT_NE(lat_row.find(ms(m.at("latency_max_ns")[1][2])), std::string::npos) << lat_row;
  EXPECT_NE(lat.find("ART (ms)"), std::string::npos);
  EXPECT_NE(lat.find("99.999 % (ms)"), std::string::npos);
  EXPECT_NE(lat.find("MRT (ms)"), std::string::npos);
  EXPECT_NE(lat.find("response-time-histogram"), std::string::npos) << lat;
}

TEST(TextReport, NotAttainedRunSaysNotAchievedWithReasons) {
  const json& doc = load_results_fixture("not-attained");
  const std::string text = render_text(doc);
  // Part A.1: stopping at the Round cap is disclosed, prominently, not a failure.
  EXPECT_NE(text.find("\nCompliance: compliant: SS NOT ACHIEVED (disclosed)\n"), std::string::npos) << text;
  for (const json& note : doc.at("compliance").at("notes")) {
    EXPECT_NE(text.find("  ! " + note.get<std::string>() + "\n"), std::string::npos) << note;
  }
  const std::string lat = section(text, "latency");
  EXPECT_NE(lat.find("Steady state (main): NOT ACHIEVED after 25 Rounds"), std::string::npos) << lat;
  EXPECT_NE(lat.find("NOT ATTAINED"), std::string::npos) << lat;
  EXPECT_NE(lat.find("Omitted: 0.5KiB"), std::string::npos) << lat;
  // Every reason of the run verdict is listed.
  for (const json& reason : doc.at("compliance").at("reasons")) {
    EXPECT_NE(text.find("  - " + reason.get<std::string>() + "\n"), std::string::npos) << reason;
  }
  const std::string tp = section(text, "throughput");
  EXPECT_NE(tp.find("Steady state (1MiB): attained"), std::string::npos) << tp;
  EXPECT_NE(tp.find("Steady state (128KiB): NOT ACHIEVED"), std::string::npos) << tp;

  // WSAT: final sample IOPS and TGBW.
  const std::string wsat = section(text, "wsat");
  const json& w = test_of(doc, "wsat").at("wsat");
  const json& last = w.at("samples").back();
  EXPECT_NE(wsat.find(fmt::format("Final IOPS {:.0f}, TGBW {:.1f} GB", last.at("iops").get<double>(),
                                  w.at("written_bytes").get<double>() / 1e9)),
            std::string::npos)
      << wsat;
  EXPECT_NE(wsat.find("stopped by the capacity multiple written"), std::string::npos) << wsat;
  const std::string final_row = line_starting(wsat, "final #");
  EXPECT_NE(final_row.find(fmt::format("{:.2f}", last.at("drive_fills").get<double>())), std::string::npos)
      << final_row;
}

TEST(TextReport, QuickRunIsNotCompliantShortened) {
  const json& doc = load_results_fixture("quick");
  const std::string text = render_text(doc);
  EXPECT_NE(text.find("\nCompliance: not compliant: shortened\n"), std::string::npos) << text;
  EXPECT_NE(text.find("(preset quick)"), std::string::npos);
  EXPECT_NE(text.find("max_rounds = 5 (preset:quick)"), std::string::npos);
  for (const std::string id : {"throughput", "wsat", "cbw"}) {
    EXPECT_NE(section(text, id).find("  Compliance: not compliant: shortened"), std::string::npos) << id;
  }
  EXPECT_NE(section(text, "wsat").find("stopped by the time limit"), std::string::npos);

  // Throughput MB/s per block size.
  const std::string tp = section(text, "throughput");
  const json& table = test_of(doc, "throughput").at("table");
  const std::string tp_row = line_starting(tp, "128KiB");
  EXPECT_NE(tp_row.find(fmt::format("{:.1f}", table[1].at("read_mb_per_s").get<double>())), std::string::npos) << tp;
  EXPECT_NE(tp_row.find(fmt::format("{:.1f}", table[1].at("write_mb_per_s").get<double>())), std::string::npos) << tp;

  // CBW operating points.
  const std::string cbw = section(text, "cbw");
  for (const json& p : test_of(doc, "cbw").at("cbw").at("operating_points")) {
    const std::string name = p.at("name") == "max" ? "MaxIOPS" : p.at("name") == "mid" ? "MidIOPS" : "MinIOPS";
    const std::string row = line_starting(cbw, name);
    ASSERT_FALSE(row.empty()) << cbw;
    EXPECT_NE(row.find(fmt::format("{:.0f}", p.at("iops").get<double>())), std::string::npos) << row;
    EXPECT_NE(row.find(ms(p.at("latency_mean_ns"))), std::string::npos) << row;
  }
  EXPECT_NE(cbw.find("max-iops-histogram"), std::string::npos);
}

// summary.txt lists only the settings of the tests that ran: the quick preset also changes the
// HIR, DIRTH, claims and latency-sweep durations, which a run of these tests never read.
TEST(TextReport, TheSettingsListHoldsOnlyTheTestsThatRan) {
  const json& doc = load_results_fixture("quick");
  const std::string text = render_text(doc);
  EXPECT_NE(text.find("throughput.segment_duration = 0.5s (preset:quick)"), std::string::npos) << text;
  for (const char* unused : {"dirth.", "claims.", "latency-sweep.", "endurance-write.", "ecw.", "iops."}) {
    EXPECT_EQ(text.find(std::string("\n    ") + unused), std::string::npos) << unused;
    EXPECT_EQ(text.find(std::string(unused) + "segment_duration ="), std::string::npos) << unused;
  }
}

// The window table says what its ART and MRT are (window.art / window.mrt) and that 5 9s is a
// percentile of every IO, never an average.
TEST(TextReport, WindowTablesSayWhatTheirStatisticsAre) {
  const json& doc = load_results_fixture("steady");
  const std::string lat = section(render_text(doc), "latency");
  EXPECT_NE(lat.find("ART mean of the window Rounds' ARTs (window.art=round-mean)"), std::string::npos) << lat;
  EXPECT_NE(lat.find("MRT mean of the window Rounds' maxima (window.mrt=round-mean; a percentile may exceed it)"),
            std::string::npos)
      << lat;
  EXPECT_NE(lat.find("not an average"), std::string::npos);
  // A document written before the settings existed held the IO-weighted ART and the maximum.
  json old = doc;
  for (json& t : old.at("tests")) {
    json kept = json::array();
    for (const json& p : t.at("parameters")) {
      if (p.value("setting", "").rfind("window.", 0) != 0) kept.push_back(p);
    }
    t["parameters"] = kept;
  }
  const std::string old_lat = section(render_text(old), "latency");
  EXPECT_NE(old_lat.find("window.art=io-weighted"), std::string::npos) << old_lat;
  EXPECT_NE(old_lat.find("window.mrt=max"), std::string::npos) << old_lat;
}

TEST(TextReport, IsDeterministicAndTolerant) {
  const json& doc = load_results_fixture("quick");
  EXPECT_EQ(render_text(doc), render_text(doc));
  EXPECT_NO_THROW(render_text(json::object()));
  EXPECT_NO_THROW(
      render_text(json{{"tests", json::array({json{{"id", "iops"}, {"matrix", 3}, {"phases", json::array({1})}},
                                              json{{"id", "wsat"}, {"wsat", json{{"samples", json::array()}}}}})}}));
}

}  // namespace
}  // namespace ptsuite::report
