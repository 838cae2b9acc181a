// write_reports(test_support::output_dir()) / check_report_formats(): which files each format writes, what it refuses.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include <ptsuite/report/pdf.hpp>
#include <ptsuite/report/report_writer.hpp>
#include <ptsuite/report/text_report.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>

#include "support/report_of_json.hpp"
#include "support/results_fixture.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::report {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::string usage_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no UsageError)";
}

std::vector<std::string> names(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    out.push_back(fs::path(p).filename().string());
  }
  return out;
}

TEST(ReportFormats, KnownNamesPassUnknownOnesAreNamed) {
  EXPECT_EQ(report_format_names(), (std::vector<std::string>{"html", "pdf", "csv", "text", "json"}));
  EXPECT_NO_THROW(check_report_formats({"html", "pdf", "csv", "text", "json"}));
  EXPECT_NO_THROW(check_report_formats({}));
  const std::string m = usage_message([] { check_report_formats({"html", "htm"}); });
  EXPECT_NE(m.find("--format"), std::string::npos) << m;
  EXPECT_NE(m.find("\"htm\""), std::string::npos) << m;
  EXPECT_NE(m.find("html, pdf, csv, text, json"), std::string::npos) << m;
  EXPECT_NE(usage_message([] { check_report_formats({""}); }).find("empty report format"), std::string::npos);
  EXPECT_NE(usage_message([] { check_report_formats({"HTML"}); }).find("\"HTML\""), std::string::npos);
}

TEST(WriteReports, CsvTextAndJsonFilesInTheDirectory) {
  const test_support::ShmTempDir dir("ptsuite-writer");
  const json& doc = test_support::load_results_fixture("not-attained");
  const std::vector<std::string> written =
      write_reports(test_support::output_dir(dir.path()), doc, {"text", "json", "csv"});
  // Canonical order (csv, text, json), whatever the order asked for.
  EXPECT_EQ(names(written),
            (std::vector<std::string>{"latency.csv", "throughput.csv", "wsat.csv", "summary.txt", "results.json"}));
  for (const std::string& p : written) {
    EXPECT_TRUE(fs::path(p).is_absolute() || p.rfind(dir.path(), 0) == 0) << p;
    EXPECT_GT(fs::file_size(p), 0u) << p;
  }
  EXPECT_EQ(read_file(dir.file("summary.txt")), render_text(doc));
  EXPECT_EQ(json::parse(read_file(dir.file("results.json"))), doc);
  EXPECT_EQ(read_file(dir.file("latency.csv")).rfind("test,phase,record,round,", 0), 0u);
}

TEST(WriteReports, DuplicatesAreWrittenOnceAndNothingElseIsWritten) {
  const test_support::ShmTempDir dir("ptsuite-writer");
  const std::vector<std::string> written = write_reports(
      test_support::output_dir(dir.file("sub/dir")), test_support::load_results_fixture("steady"), {"text", "text"});
  EXPECT_EQ(names(written), (std::vector<std::string>{"summary.txt"}));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.file("sub/dir")), fs::directory_iterator{}), 1);
  EXPECT_TRUE(
      write_reports(test_support::output_dir(dir.path()), test_support::load_results_fixture("steady"), {}).empty());
}

TEST(WriteReports, JsonNeverReplacesOtherResults) {
  const test_support::ShmTempDir dir("ptsuite-writer");
  const json& doc = test_support::load_results_fixture("steady");
  // The run directory's own results.json (same document): kept as it is, path returned.
  const std::string own = doc.dump();
  test_support::write_file(dir.file("results.json"), own);
  EXPECT_EQ(names(write_reports(test_support::output_dir(dir.path()), doc, {"json"})),
            (std::vector<std::string>{"results.json"}));
  EXPECT_EQ(read_file(dir.file("results.json")), own);
  // Another run's results: refused, untouched.
  const std::string other = test_support::load_results_fixture("quick").dump();
  test_support::write_file(dir.file("results.json"), other);
  const std::string m =
      usage_message([&] { (void)write_reports(test_support::output_dir(dir.path()), doc, {"json"}); });
  EXPECT_NE(m.find("already holds another document"), std::string::npos) << m;
  EXPECT_EQ(read_file(dir.file("results.json")), other);
}

TEST(WriteReports, RefusesWhatIsNotAResultsDocument) {
  const test_support::ShmTempDir dir("ptsuite-writer");
  json doc = test_support::load_results_fixture("steady");
  EXPECT_NE(usage_message([&] {
              (void)write_reports(test_support::output_dir(dir.path()), doc, {"csv", "xml"});
            }).find("\"xml\""),
            std::string::npos);

  json wrong_kind = doc;
  wrong_kind["kind"] = "ptsuite.workload";
  EXPECT_NE(usage_message([&] {
              (void)write_reports(test_support::output_dir(dir.path()), wrong_kind, {"text"});
            }).find("not a ptsuite document"),
            std::string::npos);
  json newer = doc;
  newer["schema_version"] = 99;
  EXPECT_NE(usage_message([&] {
              (void)write_reports(test_support::output_dir(dir.path()), newer, {"text"});
            }).find("schema_version 99"),
            std::string::npos);
  json no_version = doc;
  no_version.erase("schema_version");
  EXPECT_NE(usage_message([&] {
              (void)write_reports(test_support::output_dir(dir.path()), no_version, {"text"});
            }).find("(missing)"),
            std::string::npos);
  json no_tests = doc;
  no_tests["tests"] = json::object();
  EXPECT_NE(usage_message([&] {
              (void)write_reports(test_support::output_dir(dir.path()), no_tests, {"text"});
            }).find("\"tests\""),
            std::string::npos);
  EXPECT_NE(usage_message([&] {
              (void)write_reports(test_support::output_dir(dir.path()), json::array(), {"text"});
            }).find("not a ptsuite document"),
            std::string::npos);
  EXPECT_TRUE(fs::is_empty(dir.path()));  // nothing written for any of them
}

TEST(WriteReports, HtmlIsTheRenderedReport) {
  const test_support::ShmTempDir dir("ptsuite-writer");
  const json& doc = test_support::load_results_fixture("steady");
  const std::vector<std::string> written = write_reports(test_support::output_dir(dir.path()), doc, {"html", "text"});
  EXPECT_EQ(names(written), (std::vector<std::string>{"report.html", "summary.txt"}));
  const std::string html = read_file(dir.file("report.html"));
  EXPECT_NE(html.find("<html"), std::string::npos);
  EXPECT_NE(html.find("FX-3840 Fixture NVMe SSD"), std::string::npos);
}

TEST(WriteReports, PdfWithoutChromiumNamesThePackageAndLeavesNothing) {
  const test_support::ShmTempDir dir("ptsuite-writer");
  const test_support::ShmTempDir empty_bin("ptsuite-no-chromium");
  const char* old = std::getenv("PATH");
  const std::string saved = old == nullptr ? "" : old;
  ::setenv("PATH", empty_bin.path().c_str(), 1);  // find_chromium() searches PATH
  try {
    (void)write_reports(test_support::output_dir(dir.path()), test_support::load_results_fixture("steady"), {"pdf"});
    ADD_FAILURE() << "no error without Chromium";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("apt-get install chromium"), std::string::npos) << e.what();
    EXPECT_EQ(e.code(), ExitCode::system);
  }
  ::setenv("PATH", saved.c_str(), 1);
  EXPECT_TRUE(fs::is_empty(dir.path()));  // the temporary HTML is gone too
}

TEST(WriteReports, PdfIsPrintedByChromium) {
  const test_support::ShmTempDir dir("ptsuite-writer");
  const json& doc = test_support::load_results_fixture("steady");
  if (find_chromium().empty()) {
    GTEST_SKIP() << "Chromium (Debian package chromium) is not installed";
  }
  const std::vector<std::string> written = write_reports(test_support::output_dir(dir.path()), doc, {"pdf"});
  EXPECT_EQ(names(written), (std::vector<std::string>{"report.pdf"}));
  EXPECT_EQ(read_file(dir.file("report.pdf")).rfind("%PDF", 0), 0u);
  // Only the PDF was asked for: the HTML it was printed from is gone.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator{}), 1);
}

}  // namespace
}  // namespace ptsuite::report
