// The reports render from the typed records, which never read the per-segment "histograms":
// `ptsuite report` leaves them out of the tree it parses (util/json_input.hpp drop_key), and
// this proves that changes nothing. Every fixture's HTML, text and CSV from the lean tree are
// byte-identical to those from the full document, and the lean tree really lost the histograms.
#include <gtest/gtest.h>

#include <string>

#include <ptsuite/report/csv_report.hpp>
#include <ptsuite/report/html_report.hpp>
#include <ptsuite/report/text_report.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/output_file.hpp>
#include "support/report_of_json.hpp"
#include "support/results_fixture.hpp"

namespace ptsuite::report {
namespace {

bool holds_key(const nlohmann::json& j, const std::string& key) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      if (k == key || holds_key(v, key)) return true;
    }
  } else if (j.is_array()) {
    for (const nlohmann::json& v : j) {
      if (holds_key(v, key)) return true;
    }
  }
  return false;
}

TEST(LeanParse, ReportsFromADocumentWithoutSegmentHistogramsAreByteIdentical) {
  for (const std::string& name : test_support::results_fixture_names()) {
    SCOPED_TRACE(name);
    const std::string text = read_file(test_support::results_fixture_path(name));
    const nlohmann::json full = parse_json_input(text, name, k_document_json_limits);
    const nlohmann::json lean = parse_json_input(text, name, k_document_json_limits, "histograms");
    ASSERT_TRUE(holds_key(full, "histograms"));  // the check below would prove nothing otherwise
    EXPECT_FALSE(holds_key(lean, "histograms"));
    EXPECT_LT(lean.dump().size(), full.dump().size());
    EXPECT_EQ(render_html(lean), render_html(full));
    EXPECT_EQ(render_text(lean), render_text(full));
    const std::vector<CsvFile> lean_csv = render_csv(lean);
    const std::vector<CsvFile> full_csv = render_csv(full);
    ASSERT_EQ(lean_csv.size(), full_csv.size());
    for (size_t i = 0; i < full_csv.size(); ++i) {
      EXPECT_EQ(lean_csv[i].file_name, full_csv[i].file_name);
      EXPECT_EQ(lean_csv[i].content, full_csv[i].content) << full_csv[i].file_name;
    }
  }
}

}  // namespace
}  // namespace ptsuite::report
