// `ptsuite report` as a user runs it (the built binary, PTSUITE_BINARY) on copies of the
// checked-in fixtures, and the reports `ptsuite run` writes at its end.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include <ptsuite/report/csv_report.hpp>
#include <ptsuite/report/pdf.hpp>
#include <ptsuite/report/text_report.hpp>
#include <ptsuite/util/output_file.hpp>

#include "integration/workload_process.hpp"
#include "support/report_of_json.hpp"
#include "support/results_fixture.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"

namespace ptsuite {
namespace {

using nlohmann::json;
using workload::test::ProcessResult;
using workload::test::run_ptsuite;
namespace fs = std::filesystem;

class ReportCli : public ::testing::Test {
 protected:
  // A run directory holding a copy of a fixture as results.json.
  std::string results(const std::string& fixture = "steady") {
    const fs::path dir = fs::path(m_dir.path()) / fixture;
    fs::create_directories(dir);
    fs::copy_file(test_support::results_fixture_path(fixture), dir / "results.json",
                  fs::copy_options::overwrite_existing);
    return (dir / "results.json").string();
  }
  [[nodiscard]] std::string file(const std::string& name) const { return m_dir.file(name); }
  [[nodiscard]] size_t entries(const std::string& dir) const {
    return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}));
  }

  test_support::ShmTempDir m_dir{"ptsuite-report-cli"};
};

TEST_F(ReportCli, HtmlNextToTheResultsByDefault) {
  const std::string in = results();
  const ProcessResult r = run_ptsuite({"report", in});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = file("steady/report.html");
  EXPECT_EQ(r.out, html + "\n");
  EXPECT_NE(read_file(html).find("<html"), std::string::npos);
  EXPECT_EQ(entries(file("steady")), 2u);  // results.json + report.html, no staging left over
}

TEST_F(ReportCli, RunDirectoryAndExplicitOutFile) {
  (void)results("quick");
  const ProcessResult r = run_ptsuite({"report", file("quick"), "--format", "html", "--out", file("q.html")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, file("q.html") + "\n");
  EXPECT_TRUE(fs::exists(file("q.html")));
}

TEST_F(ReportCli, CsvWritesOneFilePerTestIntoADirectory) {
  const std::string in = results("quick");
  const ProcessResult r = run_ptsuite({"report", in, "--format", "csv", "--out", file("csv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const std::string id : {"throughput", "wsat", "cbw", "hir", "xsr"}) {
    const std::string path = file("csv/" + id + ".csv");
    EXPECT_NE(r.out.find(path + "\n"), std::string::npos) << r.out;
    EXPECT_EQ(read_file(path).rfind("test,phase,record,", 0), 0u) << path;
  }
  EXPECT_EQ(entries(file("csv")), 5u);
  // Default: next to the results.
  const ProcessResult d = run_ptsuite({"report", in, "--format", "csv"});
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_TRUE(fs::exists(file("quick/cbw.csv")));
}

TEST_F(ReportCli, TextToAFileOrStdout) {
  const std::string in = results("not-attained");
  const json doc = json::parse(read_file(in));
  const ProcessResult r = run_ptsuite({"report", in, "--format", "text"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(file("not-attained/summary.txt")), report::render_text(doc));
  const ProcessResult out = run_ptsuite({"report", in, "--format", "text", "--out", "-"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_EQ(out.out, report::render_text(doc));
  EXPECT_NE(out.out.find("NOT ACHIEVED"), std::string::npos);
}

TEST_F(ReportCli, JsonIsANormalisedCopyNeverTheInputItself) {
  const std::string in = results();
  const ProcessResult r = run_ptsuite({"report", in, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, file("steady/results.normalised.json") + "\n");
  EXPECT_EQ(json::parse(read_file(file("steady/results.normalised.json"))), json::parse(read_file(in)));
  const std::string before = read_file(in);
  const ProcessResult self = run_ptsuite({"report", in, "--format", "json", "--out", in});
  EXPECT_EQ(self.exit_code, 2);
  EXPECT_NE(self.err.find("is also this command's input (RESULTS)"), std::string::npos) << self.err;
  EXPECT_EQ(read_file(in), before);
}

TEST_F(ReportCli, PdfIsPrintedByChromium) {
  if (report::find_chromium().empty()) {
    GTEST_SKIP() << "Chromium (Debian package chromium) is not installed";
  }
  const std::string in = results();
  const ProcessResult r = run_ptsuite({"report", in, "--format", "pdf", "--out", file("r.pdf")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, file("r.pdf") + "\n");
  EXPECT_EQ(read_file(file("r.pdf")).rfind("%PDF", 0), 0u);
  EXPECT_NE(read_file(file("r.pdf")).find("/MediaBox [0 0 612 792]"), std::string::npos);  // Letter
  // --paper a4: every page on A4 (210 x 297 mm = 595.3 x 841.9 pt; Chromium writes 594.96).
  const ProcessResult a4 = run_ptsuite({"report", in, "--format", "pdf", "--paper", "A4", "--out", file("a4.pdf")});
  ASSERT_EQ(a4.exit_code, 0) << a4.err;
  const std::string pdf = read_file(file("a4.pdf"));
  EXPECT_NE(pdf.find("/MediaBox [0 0 594.9"), std::string::npos);
  EXPECT_EQ(pdf.find("/MediaBox [0 0 612 792]"), std::string::npos);
}

TEST_F(ReportCli, AnUnknownPaperIsExitTwoBeforeAnythingIsWritten) {
  const ProcessResult r =
      run_ptsuite({"report", results(), "--format", "pdf", "--paper", "b5", "--out", file("b5.pdf")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--paper: unknown paper \"b5\"; known: a4, letter, auto"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(file("b5.pdf")));
}

// PATH without Chromium for the scope (find_chromium() searches PATH), restored after.
class NoChromiumOnPath {
 public:
  explicit NoChromiumOnPath(const std::string& empty_dir) {
    const char* old = std::getenv("PATH");
    m_old = old == nullptr ? std::nullopt : std::optional<std::string>(old);
    ::setenv("PATH", empty_dir.c_str(), 1);
  }
  ~NoChromiumOnPath() {
    if (m_old) {
      ::setenv("PATH", m_old->c_str(), 1);
    } else {
      ::unsetenv("PATH");
    }
  }
  NoChromiumOnPath(const NoChromiumOnPath&) = delete;
  NoChromiumOnPath& operator=(const NoChromiumOnPath&) = delete;

 private:
  std::optional<std::string> m_old;
};

TEST_F(ReportCli, PdfWithoutChromiumExitsFiveNamingThePackage) {
  const std::string in = results();
  fs::create_directories(file("empty-bin"));
  const NoChromiumOnPath no_chromium(file("empty-bin"));
  const ProcessResult r = run_ptsuite({"report", in, "--format", "pdf"});
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_NE(r.err.find("apt-get install chromium"), std::string::npos) << r.err;
  EXPECT_EQ(entries(file("steady")), 1u);  // no PDF, no HTML, no staging directory left

  // `ptsuite run --reports pdf` refuses before anything is touched.
  const ProcessResult run = run_ptsuite({"run", "throughput", "--out", file("run"), "--format", "html,pdf", "--quick"});
  EXPECT_EQ(run.exit_code, 5) << run.err;
  EXPECT_NE(run.err.find("apt-get install chromium"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(file("run")));
}

TEST_F(ReportCli, BadInputExitsTwoAndWritesNothing) {
  const std::string in = results();
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  test_support::write_file(file("garbage.json"), "{not json");
  test_support::write_file(file("other.json"), R"({"kind": "ptsuite.workload", "schema_version": 1})");
  test_support::write_file(file("newer.json"), R"({"kind": "ptsuite.results", "schema_version": 7, "tests": []})");
  const std::vector<Case> cases = {
      {{"report", file("missing.json")}, "does not exist"},
      {{"report", file("garbage.json")}, "not valid JSON"},
      {{"report", file("other.json")}, "not a ptsuite document"},
      {{"report", file("newer.json")}, "schema_version 7"},
      {{"report", in, "--format", "docx"}, "unknown report format \"docx\""},
      {{"report", in, "--format", "html", "--out", file("no/such/dir/r.html")}, "does not exist"},
      {{"report", in, "--format", "html", "--out", "-"}, "\"-\" (stdout) is for one text or json format"},
      {{"report", in, "--format", "csv", "--out", in}, "is a file"},
      {{"report"}, "RESULTS is required"},
  };
  for (const Case& c : cases) {
    const ProcessResult r = run_ptsuite(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args.back() << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(r.err.rfind("ptsuite: ", 0), 0u) << r.err;
  }
  EXPECT_EQ(entries(file("steady")), 1u);  // still only results.json
}

TEST_F(ReportCli, UnreadableResultsExitTwo) {
  if (::geteuid() == 0) {
    GTEST_SKIP() << "root reads files whatever their mode";
  }
  const std::string in = results();
  fs::permissions(in, fs::perms::none);
  const ProcessResult r = run_ptsuite({"report", in, "--format", "text"});
  fs::permissions(in, fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("cannot read"), std::string::npos) << r.err;
}

// `ptsuite run` writes html, csv and text into the run directory by default, lists them, ends
// on the HTML report, and the bundle manifest covers them.
TEST_F(ReportCli, RunWritesDefaultReportsAndEndsOnTheHtmlPath) {
  const std::string out = file("run");
  const ProcessResult r = run_ptsuite({"run", "throughput", "--out", out, "--scratch-size", "64MiB", "--quiet",
                                       "--quick", "--set", "max_rounds=5", "--set", "throughput.segment_duration=0.05s",
                                       "--set", "wipc.capacity_multiple=0.1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const std::string name :
       {"results.json", "report.html", "summary.txt", "throughput.csv", "MANIFEST.sha256.json"}) {
    EXPECT_TRUE(fs::exists(out + "/" + name)) << name;
  }
  EXPECT_FALSE(fs::exists(out + "/report.pdf"));
  EXPECT_NE(r.err.find("report: " + out + "/summary.txt\n"), std::string::npos) << r.err;
  // --quiet: no progress, but the result lines: the headline figures, the findings folded into
  // one line (summary.txt lists each), where the results are.
  EXPECT_EQ(r.err.find("ETA"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("discard completed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("headline (measurement-window values of a SHORTENED run"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\n  throughput  SEQ 1MiB read "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" findings, every one in summary.txt and the report: "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("\n  - throughput: durations"), std::string::npos) << r.err;
  const std::string last_line = "HTML report: " + out + "/report.html\n";
  ASSERT_GE(r.err.size(), last_line.size());
  EXPECT_EQ(r.err.substr(r.err.size() - last_line.size()), last_line) << r.err;
  const json doc = json::parse(read_file(out + "/results.json"));
  EXPECT_EQ(read_file(out + "/summary.txt"), report::render_text(doc));
  EXPECT_EQ(read_file(out + "/throughput.csv"), report::render_csv(doc).front().content);
  const ProcessResult v = run_ptsuite({"verify", out});
  EXPECT_EQ(v.exit_code, 0) << v.out;
  EXPECT_EQ(v.out.rfind("OK: ", 0), 0u) << v.out;
  const std::string manifest = read_file(out + "/MANIFEST.sha256.json");
  for (const std::string name : {"\"report.html\"", "\"summary.txt\"", "\"throughput.csv\""}) {
    EXPECT_NE(manifest.find(name), std::string::npos) << name;
  }
}

TEST_F(ReportCli, RunRefusesUnknownReportFormatsBeforeStarting) {
  const std::string out = file("run");
  const ProcessResult r = run_ptsuite({"run", "throughput", "--out", out, "--format", "html,docx", "--quick"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--format: unknown report format \"docx\""), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
  const ProcessResult none = run_ptsuite({"run", "throughput", "--out", out, "--format", "none,html", "--quick"});
  EXPECT_EQ(none.exit_code, 2) << none.err;
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace ptsuite
