// `ptsuite history add|list|show|export` as a user runs them, on a SQLite file: one line per
// outcome, the same run added twice keeps its ID, IDs and formats are checked (exit 2).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/util/output_file.hpp>
#include "integration/workload_process.hpp"
#include "support/postgres_server.hpp"
#include "support/results_fixture.hpp"
#include "support/temp_dir.hpp"
#include "support/test_files.hpp"

namespace ptsuite {
namespace {

namespace fs = std::filesystem;
using workload::test::ProcessResult;
using workload::test::run_ptsuite;

class HistoryCli : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"steady", "not-attained"}) {
      fs::create_directories(fs::path(m_temp.path()) / name);
      test_support::write_file(fs::path(m_temp.path()) / name / "results.json",
                               test_support::load_results_fixture(name).dump());
    }
  }
  [[nodiscard]] ProcessResult history(std::vector<std::string> args) const {
    args.insert(args.begin(), "history");
    args.insert(args.end(), {"--db", m_temp.file("h.sqlite")});
    return run_ptsuite(args);
  }
  [[nodiscard]] std::string run(const char* name) const { return m_temp.file(name); }

  test_support::ShmTempDir m_temp{"ptsuite-history-cli"};
};

TEST_F(HistoryCli, AddListShowExport) {
  const ProcessResult a = history({"add", run("steady")});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out.rfind("added run 1: FX-3840 Fixture NVMe SSD FX0000000001 (iops,latency), compliant", 0), 0u)
      << a.out;
  ASSERT_EQ(history({"add", run("not-attained")}).exit_code, 0);
  const ProcessResult again = history({"add", run("steady")});
  EXPECT_EQ(again.out.rfind("updated run 1:", 0), 0u) << again.out;

  const ProcessResult list = history({"list"});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("2 run(s) in SQLite"), std::string::npos) << list.out;
  const ProcessResult one = history({"list", "--model", "FX-960 Fixture NVMe SSD (4Kn)"});
  EXPECT_NE(one.out.find("1 run(s)"), std::string::npos) << one.out;
  EXPECT_EQ(one.out.find("FX-3840"), std::string::npos) << one.out;
  EXPECT_NE(history({"list", "--serial", "nope"}).out.find("0 run(s)"), std::string::npos);

  const ProcessResult show = history({"show", "2"});
  EXPECT_EQ(show.exit_code, 0) << show.err;
  EXPECT_NE(show.out.find("run directory          " + run("not-attained")), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("test throughput: compliant: SS NOT ACHIEVED (disclosed)"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("seq_1MiB_read_mb_per_s"), std::string::npos) << show.out;

  const ProcessResult csv = history({"export", "--format", "csv"});
  EXPECT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("id,run_uid,run_dir,", 0), 0u) << csv.out;
  EXPECT_NE(csv.out.find(",rnd_4KiB_read_iops,"), std::string::npos);
  const std::string file = m_temp.file("out.csv");
  EXPECT_EQ(history({"export", "--format", "csv", "--out", file}).exit_code, 0);
  EXPECT_EQ(read_file(file), csv.out);
}

// --json on list and show, --format json on export: the stored fields as JSON, the same runs
// as the text forms; response times print in us / ms in `show`; list columns fit their cells.
TEST_F(HistoryCli, JsonFormsAndReadableUnits) {
  ASSERT_EQ(history({"add", run("steady")}).exit_code, 0);
  ASSERT_EQ(history({"add", run("not-attained")}).exit_code, 0);
  const ProcessResult list = history({"list", "--json"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  const nlohmann::json runs = nlohmann::json::parse(list.out);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].at("id"), 1);
  EXPECT_EQ(runs[0].at("device").at("serial"), "FX0000000001");
  EXPECT_EQ(runs[0].at("run_dir"), run("steady"));
  EXPECT_FALSE(runs[0].at("tests")[0].contains("metrics"));  // list: no metrics
  EXPECT_EQ(runs[0].at("simulated"), false);                 // a real drive's run (a simulated one: sim_run_cli_test)

  const ProcessResult show = history({"show", "1", "--json"});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  const nlohmann::json one = nlohmann::json::parse(show.out);
  EXPECT_EQ(one.at("id"), 1);
  EXPECT_FALSE(one.at("tests")[0].at("metrics").empty());
  EXPECT_EQ(one.at("simulated"), false);

  const ProcessResult exported = history({"export", "--format", "json"});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const nlohmann::json all = nlohmann::json::parse(exported.out);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].at("tests"), one.at("tests"));

  // Text: a latency metric (stored in ns) reads in us or ms, never as a bare 1.2345e+06.
  const ProcessResult text = history({"show", "1"});
  const size_t at = text.out.find("_ns ");
  ASSERT_NE(at, std::string::npos) << text.out;
  const std::string line = text.out.substr(at, text.out.find('\n', at) - at);
  EXPECT_TRUE(line.find(" \u00b5s") != std::string::npos || line.find(" ms") != std::string::npos) << line;
  // The list's columns are as wide as their widest cell: the ID column is not padded to 5.
  const ProcessResult table = history({"list"});
  EXPECT_EQ(table.out.rfind("ID  started (UTC)", 0), 0u) << table.out;
}

TEST_F(HistoryCli, BadInputExitsTwoWithOneLine) {
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"show", "7"},
                                              {"show", "seven"},
                                              {"export", "--format", "xml"},
                                              {"add", m_temp.file("no-such-dir")}}) {
    const ProcessResult r = history(bad);
    EXPECT_EQ(r.exit_code, 2) << bad[0] << " " << bad[1] << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// The same commands against a PostgreSQL server (started here; skipped where it cannot start).
TEST_F(HistoryCli, PostgresqlUriWorksTheSame) {
  const std::unique_ptr<test_support::PostgresServer> server = test_support::PostgresServer::start();
  if (!server) {
    GTEST_SKIP() << test_support::PostgresServer::last_skip_reason();
  }
  const ProcessResult a = run_ptsuite({"history", "add", run("steady"), "--db", server->uri()});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_NE(a.out.find("added run 1:"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find("(PostgreSQL ptsuite@"), std::string::npos) << a.out;
  const ProcessResult list = run_ptsuite({"history", "list", "--db", server->uri()});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("FX-3840 Fixture NVMe SSD"), std::string::npos) << list.out;
  const ProcessResult bad = run_ptsuite({"history", "list", "--db", server->uri_for("nope")});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
}

}  // namespace
}  // namespace ptsuite
