// What the fleet needs of the history, on both backends (history/store.hpp migration 3,
// history/drives.hpp): runs filed under their labels and host and filtered by them, a run's
// bundle stored and read back byte for byte (and dropped when the run's manifest moves on),
// the fleet's registered drives, and an unreachable database told apart from bad input by its
// exit code (75: retry; 2: the URI must change).
#include <gtest/gtest.h>

#include <filesystem>

#include <ptsuite/history/drives.hpp>
#include <ptsuite/history/store.hpp>
#include <ptsuite/util/error.hpp>
#include "support/postgres_server.hpp"
#include "support/temp_dir.hpp"
#include "support/test_outputs.hpp"
#include "unit/history/store_checks.hpp"

namespace ptsuite::history {
namespace {

RunRecord labelled(const std::string& fixture, const std::string& dir, const std::string& uid, const Labels& labels) {
  RunRecord r = testing::fixture_record(fixture, dir);
  r.run_uid = uid;
  r.labels = labels;
  r.host = "rack3-node7";
  return r;
}

void check_labels_and_filters(HistoryStore& store) {
  (void)store.add(labelled("steady", "/runs/a", std::string(32, 'a'), {{"campaign", "q4"}, {"slot", "1"}}));
  (void)store.add(labelled("quick", "/runs/b", std::string(32, 'b'), {{"campaign", "q4"}, {"slot", "2"}}));
  (void)store.add(labelled("quick", "/runs/c", std::string(32, 'c'), {{"campaign", "q3"}}));
  EXPECT_EQ(store.list({"", "", {{"campaign", "q4"}}}).size(), 2u);
  const std::vector<RunRecord> one = store.list({"", "", {{"campaign", "q4"}, {"slot", "2"}}});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].run_dir, "/runs/b");
  EXPECT_EQ(one[0].labels, (Labels{{"campaign", "q4"}, {"slot", "2"}}));
  EXPECT_EQ(one[0].host, "rack3-node7");
  EXPECT_TRUE(store.list({"", "", {{"campaign", "q5"}}}).empty());
  // Labels are replaced with the record, not added to.
  (void)store.add(labelled("quick", "/runs/b", std::string(32, 'b'), {{"campaign", "q4"}}));
  EXPECT_EQ(store.list({"", "", {{"slot", "2"}}}).size(), 0u);
  EXPECT_EQ(store.id_of(std::string(32, 'c')), std::optional<int64_t>(3));
  EXPECT_EQ(store.id_of(std::string(32, 'z')), std::nullopt);
}

void check_bundles(HistoryStore& store) {
  RunRecord r = labelled("steady", "/runs/d", std::string(32, 'd'), {});
  const std::string binary("\0\xff\x01 PDF?\n", 10);
  const std::vector<BundleFile> files = {
      {"results.json", 2, "x", "{}"}, {"journal/steps/00000001.json", 3, "y", "[1]"}, {"report.pdf", 10, "z", binary}};
  const AddResult added = store.add(r, false, &files);
  EXPECT_TRUE(store.get_or_throw(added.id).bundle_stored);
  const std::vector<BundleFile> back = store.bundle_files(added.id);
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[0].path, "journal/steps/00000001.json");  // by path
  EXPECT_EQ(back[1].path, "report.pdf");
  EXPECT_EQ(back[2].path, "results.json");
  EXPECT_EQ(back[1].content, binary) << "bytes survive the TEXT column";
  EXPECT_EQ(back[1].size_bytes, 10u);
  (void)store.add(r);  // the same manifest again, without a bundle: kept
  EXPECT_EQ(store.bundle_files(added.id).size(), 3u);
  r.manifest_sha256 = std::string(64, 'e');  // the run moved on (resumed, re-rendered)
  (void)store.add(r);
  EXPECT_TRUE(store.bundle_files(added.id).empty()) << "a stale bundle is dropped";
  EXPECT_FALSE(store.get_or_throw(added.id).bundle_stored);
}

void check_registered_drives(Backend& backend) {
  register_drive(backend,
                 {"S1", "h1", "PM9A3", "GDC5602Q", "nvme", uint64_t{1} << 40, "S1", "/dev/x", {{"rack", "r1"}}, ""});
  register_drive(backend,
                 {"S2", "h1", "PM9A3", "GDC5702Q", "nvme", std::nullopt, "S2", "/dev/y", {{"rack", "r2"}}, ""});
  register_drive(backend, {"S3", "h2", "OTHER", "1.0", "ata", std::nullopt, "S3", "/dev/z", {}, ""});
  EXPECT_EQ(registered_drives(backend, "PM9A3", "", {}).size(), 2u);
  EXPECT_EQ(registered_drives(backend, "PM9A3", "GDC5702Q", {}).size(), 1u);
  const std::vector<FleetDrive> r1 = registered_drives(backend, "", "", {{"rack", "r1"}});
  ASSERT_EQ(r1.size(), 1u);
  EXPECT_EQ(r1[0].capacity_bytes, std::optional<uint64_t>(uint64_t{1} << 40));
  EXPECT_FALSE(r1[0].seen_utc.empty());
  // Moved to another host: registered again, one row.
  register_drive(backend, {"S1", "h3", "PM9A3", "GDC5602Q", "nvme", uint64_t{1} << 40, "S1", "/dev/x", {}, ""});
  const std::vector<FleetDrive> all = registered_drives(backend, "", "", {});
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].node, "h3");
}

class FleetSqliteHistory : public ::testing::Test {
 protected:
  [[nodiscard]] std::string db() const { return m_temp.file("history.sqlite"); }
  test_support::ShmTempDir m_temp{"ptsuite-fleet-history"};
};

TEST_F(FleetSqliteHistory, LabelsHostBundlesAndDrives) {
  HistoryStore store = HistoryStore::open(test_support::sqlite_history(db()));
  check_labels_and_filters(store);
  check_bundles(store);
  check_registered_drives(store.backend());
}

class FleetPostgresHistory : public ::testing::Test {
 protected:
  void SetUp() override {
    m_server = test_support::PostgresServer::start();
    if (!m_server) GTEST_SKIP() << test_support::PostgresServer::last_skip_reason();
  }
  std::unique_ptr<test_support::PostgresServer> m_server;
};

TEST_F(FleetPostgresHistory, LabelsHostBundlesAndDrives) {
  HistoryStore store = HistoryStore::open(history::HistoryDb{m_server->uri(), std::nullopt});
  check_labels_and_filters(store);
  check_bundles(store);
  check_registered_drives(store.backend());
}

TEST_F(FleetPostgresHistory, AServerThatIsDownIsUnavailableAndComesBack) {
  (void)HistoryStore::open(history::HistoryDb{m_server->uri(), std::nullopt});
  m_server->stop();
  try {
    (void)HistoryStore::open(history::HistoryDb{m_server->uri(), std::nullopt});
    FAIL() << "connected to a stopped server";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::unavailable) << e.what();
    EXPECT_NE(std::string(e.what()).find("retry later"), std::string::npos) << e.what();
  }
  m_server->restart();
  HistoryStore store = HistoryStore::open(history::HistoryDb{m_server->uri(), std::nullopt});
  EXPECT_TRUE(store.list({}).empty());
}

TEST_F(FleetPostgresHistory, AConnectionLostMidSessionIsUnavailable) {
  HistoryStore store = HistoryStore::open(history::HistoryDb{m_server->uri(), std::nullopt});
  m_server->stop();
  try {
    (void)store.list({});
    FAIL() << "a query on a dead connection succeeded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::unavailable) << e.what();
  }
  m_server->restart();
}

}  // namespace
}  // namespace ptsuite::history
