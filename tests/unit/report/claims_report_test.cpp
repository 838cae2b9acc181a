// The spec-sheet validation in every report format (report/html/claims_pages.cpp,
// report/claims_sections.cpp), from a validation judged on the checked-in "steady" fixture:
// one claim that passes, one that fails and one that no run covers.
#include <gtest/gtest.h>

#include <ptsuite/pts/claims_from_runs.hpp>
#include <ptsuite/report/csv_report.hpp>
#include <ptsuite/report/html_report.hpp>
#include <ptsuite/report/text_report.hpp>

#include "support/report_of_json.hpp"
#include "support/results_fixture.hpp"

namespace ptsuite::report {
namespace {

using nlohmann::json;

json validation_document() {
  const json conditions{{"pattern", "random"}, {"block_size", "4KiB"}, {"rw_mix", "100/0"},
                        {"threads", 4},        {"queue_depth", 32},    {"state", "steady_state"}};
  json other = conditions;
  other["queue_depth"] = 64;
  const json sheet{
      {"format", "ptsuite-claims/1"},
      {"vendor", "ACME"},
      {"model", "E4 3.84TB"},
      {"claims", json::array({{{"id", "met"}, {"metric", "iops"}, {"value", 1}, {"conditions", conditions}},
                              {{"id", "unmet"}, {"metric", "iops"}, {"value", 1e12}, {"conditions", conditions}},
                              {{"id", "uncovered"}, {"metric", "iops"}, {"value", 1}, {"conditions", other}}})}};
  const pts::ClaimSheet parsed = pts::parse_claim_sheet(sheet, "sheet.json");
  const pts::SourceRun run{"/runs/steady", test_support::load_results_fixture("steady"), std::string(64, 'b')};
  return pts::results_from_runs(
      parsed, {run},
      {sheet, "sheet.json", {"ptsuite", "validate"}, "ACME Lab", "/out", {"html"}, "2026-11-25T00:00:00Z"});
}

TEST(ClaimsReport, HtmlOpensWithTheSheetVerdictAndListsEveryClaim) {
  const std::string html = render_html(validation_document());
  EXPECT_NE(html.find("Spec-sheet verdict"), std::string::npos);
  EXPECT_NE(html.find("ACME E4 3.84TB: 1 of 3 claims pass, 1 fail, 1 not covered"), std::string::npos);
  EXPECT_NE(html.find("Spec-Sheet Validation \u2013 Claims vs Measurement"), std::string::npos);
  EXPECT_NE(html.find("Spec-Sheet Validation \u2013 Measurement as % of Each Claim"), std::string::npos);
  EXPECT_NE(html.find("uncovered: no run measured RND 4KiB 100/0 TC 4 QD 64 SS"), std::string::npos);
  EXPECT_NE(html.find("iops main RND 4KiB 100/0 (/runs/steady)"), std::string::npos);  // the point's source
  EXPECT_EQ(html.find("(\u00a7-)"), std::string::npos);  // not a PTS test: no section number
}

// The validation report's first page is the claims verdict and table (what a reader of a
// spec-sheet check came for); the run summary follows. A latency miss far past the sheet reads
// as a ratio, never as "-9341.3 %".
TEST(ClaimsReport, TheFirstPageIsTheClaimsVerdictAndAMissReadsAsARatio) {
  json doc = validation_document();
  const std::string html = render_html(doc);
  const size_t first_page_end = html.find("</section>");
  ASSERT_NE(first_page_end, std::string::npos);
  const std::string first = html.substr(0, first_page_end);
  EXPECT_NE(first.find("Spec-Sheet Validation \u2013 Claims vs Measurement"), std::string::npos);
  EXPECT_NE(first.find("<td>unmet</td>"), std::string::npos);
  EXPECT_LT(html.find("Claims vs Measurement"), html.find("Spec-sheet verdict"));

  for (json& t : doc.at("tests")) {
    for (json& c : t.at("validation").at("claims")) {
      if (c.at("id") == "unmet") {
        c["margin_pct"] = -9341.3;
        c["measured"] = 94.413;
        c["declared"] = 1.0;
      }
    }
  }
  const std::string again = render_html(doc);
  EXPECT_EQ(again.find("-9341.3 %"), std::string::npos);
  EXPECT_NE(again.find("94.4\u00d7 the declared value"), std::string::npos);
}

TEST(ClaimsReport, TextAndCsvCarryTheVerdictPerClaim) {
  const json doc = validation_document();
  const std::string text = render_text(doc);
  EXPECT_NE(text.find("Spec sheet: ACME E4 3.84TB (judged on existing runs)"), std::string::npos) << text;
  EXPECT_NE(text.find("Verdict: fail (1 of 3 pass, 1 fail, 1 not covered)"), std::string::npos) << text;
  EXPECT_NE(text.find("(claims, not a PTS test)"), std::string::npos) << text;
  const std::string csv = render_test_csv(doc.at("tests").at(0));
  EXPECT_NE(csv.find("claims,p01,claim,,,met,random,100/0,4KiB,4,32,read,pass,1,bool"), std::string::npos) << csv;
  EXPECT_NE(csv.find("claims,p01,claim,,,unmet,random,100/0,4KiB,4,32,read,pass,0,bool"), std::string::npos) << csv;
  EXPECT_NE(csv.find("claims,,claim,,,uncovered,random,100/0,4KiB,4,64,read,declared,1,IOPS"), std::string::npos)
      << csv;
  EXPECT_EQ(csv.find("uncovered,random,100/0,4KiB,4,64,read,measured"), std::string::npos) << csv;  // no value
}

}  // namespace
}  // namespace ptsuite::report
