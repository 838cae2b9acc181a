// Every kind a run produces goes through the same lifecycle on the real binary (issue 39,
// results/document_kinds.def): a replay, a scenario run and an app run each end with their
// directory (results.json, run.log, reports, manifest) and their history record, and then pass
// `ptsuite report DIR`, `verify`, `sign` (and verify --pubkey), `history add` and `compare`; a
// capture passes the same but compare (a characterization is not compared: docs/compare.md).
// The replay needs no root (an O_DIRECT file in /dev/shm); the scenario runs on scratch loop
// devices (root); the app run is the quick pgbench (root, PostgreSQL) and is compared with itself
// (two app runs would double the test's ~20 s).
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "integration/workload_process.hpp"
#include "support/json_schema.hpp"
#include "support/loop_support.hpp"
#include "support/synthetic_capture.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"

namespace ptsuite::cli {
namespace {

namespace fs = std::filesystem;
using workload::test::ProcessResult;
using workload::test::run_ptsuite;

class DocumentKinds : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(run_ptsuite({"keygen", m_dir.file("lab.key")}).exit_code, 0);
    m_db = m_dir.file("history.sqlite");
  }

  // The run's directory as every kind leaves it, then report, verify, sign, verify --pubkey and
  // history add on it. `schema` validates its document.
  void expect_lifecycle(const std::string& dir, const std::string& schema, const std::string& kind) {
    SCOPED_TRACE(dir);
    for (const char* file : {"results.json", "run.log", "MANIFEST.sha256.json", "report.html", "summary.txt"}) {
      EXPECT_TRUE(fs::is_regular_file(fs::path(dir) / file)) << file;
    }
    const nlohmann::json doc = nlohmann::json::parse(workload::test::slurp(dir + "/results.json"));
    EXPECT_EQ(doc.value("kind", ""), kind);
    EXPECT_EQ(validate_json(doc, embedded_schema(schema)), std::vector<std::string>{});
    // The run ended with its history record (--db) and the reports' lines in run.log.
    EXPECT_NE(workload::test::slurp(dir + "/run.log").find("report written: "), std::string::npos);
    const ProcessResult listed = run_ptsuite({"history", "list", "--db", m_db, "--json"});
    ASSERT_EQ(listed.exit_code, 0) << listed.err;
    EXPECT_NE(listed.out.find(fs::absolute(dir).lexically_normal().string()), std::string::npos) << listed.out;
    // Re-rendered from the document alone, into another directory.
    const std::string again = m_dir.file(fs::path(dir).filename().string() + "-again");
    const ProcessResult report = run_ptsuite({"report", dir, "--format", "html,text,csv,json", "--out", again});
    ASSERT_EQ(report.exit_code, 0) << report.err;
    EXPECT_EQ(workload::test::slurp(again + "/report.html"), workload::test::slurp(dir + "/report.html"));
    EXPECT_EQ(workload::test::slurp(again + "/summary.txt"), workload::test::slurp(dir + "/summary.txt"));
    const ProcessResult verified = run_ptsuite({"verify", dir});
    EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
    const ProcessResult signed_run = run_ptsuite({"sign", dir, "--key", m_dir.file("lab.key")});
    ASSERT_EQ(signed_run.exit_code, 0) << signed_run.out << signed_run.err;
    EXPECT_NE(signed_run.out.find("re-rendered: "), std::string::npos) << signed_run.out;
    const ProcessResult checked = run_ptsuite({"verify", dir, "--pubkey", m_dir.file("lab.key.pub")});
    EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
    EXPECT_NE(checked.out.find("signature: valid"), std::string::npos) << checked.out;
    EXPECT_TRUE(nlohmann::json::parse(workload::test::slurp(dir + "/results.json")).contains("attestation"));
    const ProcessResult added = run_ptsuite({"history", "add", dir, "--db", m_db});
    EXPECT_EQ(added.exit_code, 0) << added.err;
    EXPECT_NE(added.out.find("updated run"), std::string::npos) << added.out;  // the run recorded itself
  }

  void expect_compared(const std::string& a, const std::string& b, const std::string& kind) {
    const std::string out = m_dir.file("cmp-" + fs::path(a).filename().string());
    const ProcessResult r = run_ptsuite({"compare", a, b, "--out", out});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json cmp = nlohmann::json::parse(workload::test::slurp(out + "/compare.json"));
    EXPECT_EQ(cmp.value("results_kind", ""), kind);
    EXPECT_FALSE(cmp.at("tests").empty());
    EXPECT_EQ(validate_json(cmp, embedded_schema("compare")), std::vector<std::string>{});
    // A comparison is a bundle too: verified, signed, re-rendered; not a run for the history.
    EXPECT_EQ(run_ptsuite({"verify", out}).exit_code, 0);
    EXPECT_EQ(run_ptsuite({"sign", out, "--key", m_dir.file("lab.key")}).exit_code, 0);
    EXPECT_EQ(run_ptsuite({"report", out, "--format", "html", "--out", out + "-again"}).exit_code, 0);
    const ProcessResult history = run_ptsuite({"history", "add", out, "--db", m_db});
    EXPECT_EQ(history.exit_code, 2);
    EXPECT_NE(history.err.find("not a run"), std::string::npos) << history.err;
  }

  test_support::ShmTempDir m_dir{"ptsuite-kinds-lifecycle"};
  std::string m_db;
};

TEST_F(DocumentKinds, AReplayEndsAsARunAndPassesReportVerifySignHistoryCompare) {
  const std::string capture = m_dir.file("synthetic.ptcap");
  test_support::write_synthetic_capture(capture);
  const std::string target = m_dir.create_file("target.img", 32ULL << 20);
  std::vector<std::string> dirs;
  for (const char* name : {"replay-a", "replay-b"}) {
    dirs.push_back(m_dir.file(name));
    const ProcessResult r = run_ptsuite({"replay", capture, "--target", target, "--allow-destructive", "--step",
                                         "200ms", "--mode", "closed", "--out", dirs.back(), "--db", m_db});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("HTML report: "), std::string::npos) << r.out;
  }
  EXPECT_TRUE(fs::is_regular_file(dirs[0] + "/replay.csv"));
  expect_lifecycle(dirs[0], "replay", "ptsuite.replay");
  expect_compared(dirs[0], dirs[1], "ptsuite.replay");
}

TEST_F(DocumentKinds, AScenarioRunEndsAsARunAndPassesReportVerifySignHistoryCompare) {
  PTSUITE_SKIP_WITHOUT_LOOP();
  std::vector<std::string> dirs;
  for (const char* name : {"scenario-a", "scenario-b"}) {
    dirs.push_back(m_dir.file(name));
    const ProcessResult r = run_ptsuite({"scenario", "run", "noisy-neighbour", "--quick", "--scratch-size", "64MiB",
                                         "--out", dirs.back(), "--db", m_db, "--quiet"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  expect_lifecycle(dirs[0], "scenario-results", "ptsuite.scenario");
  expect_compared(dirs[0], dirs[1], "ptsuite.scenario");
}

TEST_F(DocumentKinds, AnAppRunEndsAsARunAndPassesReportVerifySignHistoryCompare) {
  if (::geteuid() != 0) GTEST_SKIP() << "app runs need root";
  PTSUITE_SKIP_WITHOUT_LOOP();
  if (::access("/usr/lib/postgresql/15/bin/pgbench", X_OK) != 0) GTEST_SKIP() << "postgresql-15 is not installed";
  const test_support::ShmTempDir state{"ptsuite-kinds-appstate"};
  ::setenv("PTSUITE_APP_STATE_DIR", state.path().c_str(), 1);
  const std::string dir = m_dir.file("app-pg");
  const ProcessResult r = run_ptsuite({"app", "run", "pgbench", "--quick", "--set", "duration=4s", "--set", "warmup=1s",
                                       "--out", dir, "--db", m_db, "--quiet"});
  run_ptsuite({"app", "cleanup"});
  ::unsetenv("PTSUITE_APP_STATE_DIR");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(dir + "/app.csv"));
  expect_lifecycle(dir, "app", "ptsuite.app_run");
  expect_compared(dir, dir, "ptsuite.app_run");
}

// A fleet campaign's report is a document of the list too (kind "ptsuite.campaign"): `fleet
// report` ends like every document (reports and manifest; not a run: no run.log, no history
// record), and the directory verifies, signs, re-renders byte for byte and is refused by
// `history add`. Three short IOPS runs on O_DIRECT files, labelled with the campaign, make the
// history it summarizes.
TEST_F(DocumentKinds, AFleetCampaignReportVerifiesSignsAndReRendersButIsNoRun) {
  for (const char* serial : {"CAMP-A", "CAMP-B", "CAMP-C"}) {
    const std::string target = m_dir.create_file(std::string(serial) + ".img", 64ULL << 20);
    const ProcessResult r = run_ptsuite({"run",
                                         "iops",
                                         "--target",
                                         target,
                                         "--allow-destructive",
                                         "--asset-serial",
                                         serial,
                                         "--label",
                                         "campaign=q4",
                                         "--out",
                                         m_dir.file(std::string("run-") + serial),
                                         "--db",
                                         m_db,
                                         "--revision",
                                         "e1.1",
                                         "--quick",
                                         "--quiet",
                                         "--format",
                                         "text",
                                         "--set",
                                         "iops.block_sizes=4KiB",
                                         "--set",
                                         "iops.rw_mixes=100/0,0/100",
                                         "--set",
                                         "iops.segment_duration=0.1s"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const std::string dir = m_dir.file("campaign");
  const ProcessResult made = run_ptsuite({"fleet", "report", "--campaign", "q4", "--db", m_db, "--out", dir});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  for (const char* file : {"campaign.json", "campaign.html", "campaign.csv", "summary.txt", "MANIFEST.sha256.json"}) {
    EXPECT_TRUE(fs::is_regular_file(fs::path(dir) / file)) << file;
  }
  EXPECT_FALSE(fs::exists(fs::path(dir) / "run.log")) << "a campaign report is not a run";
  const nlohmann::json doc = nlohmann::json::parse(workload::test::slurp(dir + "/campaign.json"));
  EXPECT_EQ(doc.value("kind", ""), "ptsuite.campaign");
  EXPECT_EQ(validate_json(doc, embedded_schema("campaign")), std::vector<std::string>{});
  ASSERT_EQ(doc.at("drives").size(), 3u);
  EXPECT_NE(workload::test::slurp(dir + "/summary.txt").find("Campaign q4: 3 drive(s)"), std::string::npos);
  EXPECT_NE(made.err.find("campaign q4: 3 drive(s)"), std::string::npos) << made.err;

  const std::string again = m_dir.file("campaign-again");
  const ProcessResult report = run_ptsuite({"report", dir, "--format", "html,text,csv", "--out", again});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  for (const char* file : {"campaign.html", "summary.txt", "campaign.csv"}) {
    EXPECT_EQ(workload::test::slurp(again + "/" + file), workload::test::slurp(dir + "/" + file)) << file;
  }
  const ProcessResult verified = run_ptsuite({"verify", dir});
  EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
  const ProcessResult signed_report = run_ptsuite({"sign", dir, "--key", m_dir.file("lab.key")});
  ASSERT_EQ(signed_report.exit_code, 0) << signed_report.out << signed_report.err;
  const ProcessResult checked = run_ptsuite({"verify", dir, "--pubkey", m_dir.file("lab.key.pub")});
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  EXPECT_NE(checked.out.find("signature: valid"), std::string::npos) << checked.out;
  EXPECT_NE(workload::test::slurp(dir + "/campaign.html").find("Signed with key SHA256:"), std::string::npos)
      << "sign re-rendered the page with its signer";
  const ProcessResult history = run_ptsuite({"history", "add", dir, "--db", m_db});
  EXPECT_EQ(history.exit_code, 2);
  EXPECT_NE(history.err.find("not a run"), std::string::npos) << history.err;
  // One byte of a figure changed after signing: verify fails.
  std::string tampered = workload::test::slurp(dir + "/campaign.csv");
  tampered.back() = tampered.back() == '\n' ? ' ' : '\n';
  test_support::write_file(dir + "/campaign.csv", tampered);
  EXPECT_NE(run_ptsuite({"verify", dir, "--pubkey", m_dir.file("lab.key.pub")}).exit_code, 0);
}

}  // namespace
}  // namespace ptsuite::cli
