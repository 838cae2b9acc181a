// Every kind of the document kinds list (results/document_kinds.def) is wired into every consumer
// of the list: it is found by its "kind", its schema is embedded, a document of it (even an empty
// one: the readers are tolerant) reads into its record and renders in each format its kind has,
// `history add` records it exactly when it is a run, and `compare` has an extractor exactly when
// the list says it compares. A line added to the list without its renderers, history record or
// extractor fails here (or does not compile).
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <filesystem>
#include <string>
#include <vector>

#include <ptsuite/history/run_record.hpp>
#include <ptsuite/report/compare_extractor.hpp>
#include <ptsuite/report/report_writer.hpp>
#include <ptsuite/results/document.hpp>
#include <ptsuite/util/error.hpp>

#include "support/json_schema.hpp"
#include "support/temp_dir.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::report {
namespace {

namespace fs = std::filesystem;

TEST(DocumentKindsList, EveryKindIsFoundByItsNameAndHasItsSchema) {
  ASSERT_GE(results::document_kinds().size(), 6u);
  for (const results::DocumentKindInfo& info : results::document_kinds()) {
    SCOPED_TRACE(std::string(info.kind));
    EXPECT_EQ(results::find_document_kind(info.kind), &info);
    EXPECT_TRUE(embedded_schema(info.schema).is_object()) << "pts/schema/" << info.schema << ".schema.json";
    EXPECT_NE(results::document_kind_names().find(info.kind), std::string::npos);
  }
  EXPECT_EQ(results::find_document_kind("ptsuite.nothing"), nullptr);
}

TEST(DocumentKindsList, AnEmptyDocumentOfEveryKindRendersInEachOfItsFormats) {
  const test_support::ShmTempDir tmp("ptsuite-kinds-list");
  for (const results::DocumentKindInfo& info : results::document_kinds()) {
    SCOPED_TRACE(std::string(info.kind));
    const results::Document doc = results::read_document(nlohmann::json{{"kind", info.kind}}, "test");
    ASSERT_EQ(doc.info, &info);
    const fs::path dir = fs::path(tmp.path()) / info.name;
    fs::create_directories(dir);
    std::vector<std::string> formats = report_formats_of(info);
    std::erase(formats, "pdf");  // Chromium: tested in the PDF tests
    std::erase(formats, "json");
    const std::vector<std::string> written = write_reports(test_support::output_dir(dir.string()), doc, formats);
    EXPECT_TRUE(fs::is_regular_file(dir / info.html_file)) << info.html_file;
    EXPECT_EQ(fs::is_regular_file(dir / "summary.txt"), info.name != "comparison");
    // The CSV of every kind but a PTS run (a <test>.csv per test: none here) is one file.
    EXPECT_EQ(written.size(), formats.size() - (info.name == "results" ? 1 : 0)) << fmt::format("{}", written.size());
  }
}

TEST(DocumentKindsList, TheHistoryRecordsRunsAndCompareHasAnExtractorWhereTheListSays) {
  for (const results::DocumentKindInfo& info : results::document_kinds()) {
    SCOPED_TRACE(std::string(info.kind));
    const results::Document doc = results::read_document(nlohmann::json{{"kind", info.kind}}, "test");
    if (info.history) {
      EXPECT_NO_THROW((void)history::record_of(doc, "/nonexistent/run"));
    } else {
      EXPECT_THROW((void)history::record_of(doc, "/nonexistent/run"), UsageError);
    }
    EXPECT_EQ(compare::find_extractor(info.kind) != nullptr, info.compare);
  }
  // compare.json's results_kind names exactly the kinds that compare.
  std::vector<std::string> compared;
  for (const results::DocumentKindInfo& info : results::document_kinds()) {
    if (info.compare) compared.emplace_back(info.kind);
  }
  EXPECT_EQ(embedded_schema("compare").at("properties").at("results_kind").at("enum"), nlohmann::json(compared));
}

}  // namespace
}  // namespace ptsuite::report
