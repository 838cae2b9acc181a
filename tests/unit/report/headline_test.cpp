// The console's headline figures (report/headline.hpp) from the checked-in fixtures.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <ptsuite/report/headline.hpp>

#include "support/results_fixture.hpp"

namespace ptsuite::report {
namespace {

using nlohmann::json;

using test_support::test_of;

std::string line_of(const std::vector<std::string>& lines, const std::string& id) {
  for (const std::string& l : lines) {
    if (l.rfind("  " + id + " ", 0) == 0) return l;
  }
  return "";
}

TEST(Headline, EveryCoreTestGivesTheFiguresALabQuotes) {
  const json& doc = test_support::load_results_fixture("quick");
  const std::vector<std::string> lines = headline_lines(results::read_run_document(doc));
  // Throughput: the window MB/s of each block size, as the table holds them.
  const json& table = test_of(doc, "throughput").at("table");
  const std::string tp = line_of(lines, "throughput");
  EXPECT_NE(
      tp.find(fmt::format("SEQ 1MiB read {:.0f} MB/s, write {:.0f} MB/s", table[0].at("read_mb_per_s").get<double>(),
                          table[0].at("write_mb_per_s").get<double>())),
      std::string::npos)
      << tp;
  EXPECT_NE(line_of(lines, "wsat").find("final "), std::string::npos);
  const std::string cbw = line_of(lines, "cbw");
  EXPECT_NE(cbw.find("MaxIOPS "), std::string::npos) << cbw;
  for (const json& p : test_of(doc, "cbw").at("cbw").at("operating_points")) {
    if (p.at("name") == "max") {
      EXPECT_NE(cbw.find(fmt::format("{:.0f} IOPS", p.at("iops").get<double>())), std::string::npos) << cbw;
    }
  }
}

TEST(Headline, IopsAndLatencyCellsComeFromTheWindowMatrix) {
  const json& doc = test_support::load_results_fixture("steady");
  const std::vector<std::string> lines = headline_lines(results::read_run_document(doc));
  const std::string iops = line_of(lines, "iops");
  ASSERT_FALSE(iops.empty());
  EXPECT_NE(iops.find("RND 4KiB read "), std::string::npos) << iops;
  EXPECT_EQ(iops.find("read -"), std::string::npos) << iops;  // the cell exists
  const std::string lat = line_of(lines, "latency");
  EXPECT_NE(lat.find("5 9s "), std::string::npos) << lat;
  EXPECT_TRUE(headline_lines(results::read_run_document(json::object())).empty());
  // A record without its block prints "-" for the cells it lacks, never throws.
  const std::vector<std::string> bare =
      headline_lines(results::read_run_document(json{{"tests", json::array({json{{"id", "iops"}}})}}));
  ASSERT_EQ(bare.size(), 1u);
  EXPECT_NE(bare[0].find("read -"), std::string::npos) << bare[0];
}

}  // namespace
}  // namespace ptsuite::report
