// The fleet campaign document (results/campaign.hpp) and its reports (report/campaign_report.hpp):
// the document validates against its schema and reads back field for field; the HTML, text and
// CSV renderings carry every drive and keep hostile strings from the history inert (markup
// escaped, no forged line, no spreadsheet formula).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include <ptsuite/report/campaign_report.hpp>
#include <ptsuite/results/campaign.hpp>
#include <ptsuite/results/document.hpp>

#include "support/json_schema.hpp"

namespace ptsuite::report {
namespace {

using results::CampaignSummary;

CampaignSummary two_drives_one_outlier() {
  CampaignSummary s;
  s.tool = {"ptsuite", "9.9.9", "abc123"};
  s.campaign = "q4<b>";
  s.outlier_rule = {3.5, 5.0, 3};
  results::CampaignDrive a{"S1", "PM9A3", "GDC5", "h1", 11, "complete", true, "compliant", 2, {}};
  a.metrics["iops/rnd_4KiB_read_iops"] = {100000, "IOPS"};
  a.metrics["throughput/seq_1MiB_write_mb_per_s"] = {3000.5, "MB/s"};
  results::CampaignDrive b{"=HYPERLINK(\"x\")",
                           "<script>alert(1)</script>\nForged: line",
                           "F1",
                           "h2",
                           12,
                           "interrupted",
                           false,
                           "not compliant: interrupted",
                           1,
                           {}};
  b.metrics["iops/rnd_4KiB_read_iops"] = {50000, "IOPS"};
  s.drives = {a, b};
  s.spreads = {{"PM9A3", "iops/rnd_4KiB_read_iops", "IOPS", 2, 50000, 75000, 100000, 47.1}};
  s.outliers = {
      {"S1", "PM9A3", "iops/rnd_4KiB_read_iops", "IOPS", 100000, 75000, 33.3, std::numeric_limits<double>::infinity()}};
  return s;
}

TEST(CampaignDocument, ValidatesAndReadsBackFieldForField) {
  const CampaignSummary s = two_drives_one_outlier();
  const nlohmann::json j = s;
  EXPECT_EQ(validate_json(j, embedded_schema("campaign")), std::vector<std::string>{});
  EXPECT_TRUE(j.at("outliers").at(0).at("robust_z").is_null()) << "an infinite z (MAD 0) is written as null";
  const CampaignSummary back = results::read_campaign(j);
  EXPECT_EQ(nlohmann::json(back), j);
  EXPECT_TRUE(std::isinf(back.outliers.at(0).robust_z));
  EXPECT_EQ(back.drives.at(0).metrics.at("throughput/seq_1MiB_write_mb_per_s").unit, "MB/s");
  // Found by its kind like every document (results/document_kinds.def).
  const results::Document doc = results::read_document(j, "campaign.json");
  EXPECT_EQ(std::string(doc.info->name), "campaign");
  EXPECT_FALSE(doc.info->history) << "a campaign is not a run";
}

TEST(CampaignReport, EveryDriveInEachFormatAndHostileStringsInert) {
  const CampaignSummary s = two_drives_one_outlier();
  const std::string html = campaign_html(s);
  EXPECT_NE(html.find("<td>S1</td>"), std::string::npos);
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;"), std::string::npos);
  EXPECT_EQ(html.find("q4<b>"), std::string::npos);
  EXPECT_NE(html.find("beyond any: MAD 0"), std::string::npos);

  const std::string text = campaign_text(s);
  EXPECT_NE(text.find("Campaign q4<b>: 2 drive(s), 1 compliant, 1 outlier finding(s)"), std::string::npos) << text;
  EXPECT_EQ(text.find("\nForged: line"), std::string::npos) << "a newline from the history forged a line";
  EXPECT_NE(text.find("S1  PM9A3  GDC5  h1  11  complete  2: compliant"), std::string::npos) << text;

  const std::string csv = campaign_csv(s);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "campaign,serial,model,firmware,host,history_id,status,compliant,verdict,runs,"
            "iops/rnd_4KiB_read_iops (IOPS),throughput/seq_1MiB_write_mb_per_s (MB/s)");
  EXPECT_NE(csv.find("q4<b>,S1,PM9A3,GDC5,h1,11,complete,true,compliant,2,100000,3000.5\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",\"'=HYPERLINK(\"\"x\"\")\","), std::string::npos) << "a formula stays text: " << csv;
  EXPECT_NE(csv.find(",1,50000,\n"), std::string::npos) << "no figure: an empty field" << csv;
}

TEST(CampaignReport, NoOutlierStatesTheRuleFromTheDocument) {
  CampaignSummary s = two_drives_one_outlier();
  s.outliers.clear();
  s.outlier_rule = {4.0, 7.5, 5};
  EXPECT_NE(campaign_html(s).find("more than 4 robust z-scores and 7.5 % from its model's median on any headline "
                                  "metric (models of at least 5 drives)"),
            std::string::npos);
  EXPECT_NE(campaign_text(s).find("No outlier (rule: more than 4 robust z-scores and 7.5 %"), std::string::npos);
}

}  // namespace
}  // namespace ptsuite::report
