// The results history on a real PostgreSQL server that the test starts (support/
// postgres_server.hpp): the same round trips and migrations as on SQLite, concurrent writers,
// and connection errors. Skipped with a one-line reason where no server can start.
#include <gtest/gtest.h>

#include <thread>

#include <ptsuite/history/location.hpp>
#include <ptsuite/util/error.hpp>
#include "support/postgres_server.hpp"
#include "unit/history/store_checks.hpp"

namespace ptsuite::history {
namespace {

class PostgresHistory : public ::testing::Test {
 protected:
  void SetUp() override {
    m_server = test_support::PostgresServer::start();
    if (!m_server) {
      GTEST_SKIP() << test_support::PostgresServer::last_skip_reason();
    }
  }
  std::unique_ptr<test_support::PostgresServer> m_server;
};

TEST_F(PostgresHistory, FixturesRoundTripAndReAddUpdates) {
  HistoryStore store = HistoryStore::open(history::HistoryDb{m_server->uri(), std::nullopt});
  EXPECT_EQ(store.backend().dialect(), Dialect::postgresql);
  EXPECT_NE(store.backend().describe().find("PostgreSQL ptsuite@"), std::string::npos) << store.backend().describe();
  testing::exercise_store(store);
}

TEST_F(PostgresHistory, MigratesAVersionOneDatabaseKeepingItsRuns) {
  m_server->create_database("migrate");
  testing::exercise_migration_from_v1(open_postgresql(m_server->uri_for("migrate")),
                                      open_postgresql(m_server->uri_for("migrate")));
}

// Two connections adding runs at once (two runs finishing together on two hosts): both land,
// with distinct IDs, and the schema is migrated once.
TEST_F(PostgresHistory, ConcurrentWritersBothLand) {
  const RunRecord a = testing::fixture_record("steady", "/host-a/run");
  const RunRecord b = testing::fixture_record("quick", "/host-b/run");
  AddResult ra;
  AddResult rb;
  std::thread ta([&] { ra = HistoryStore::open(history::HistoryDb{m_server->uri(), std::nullopt}).add(a); });
  std::thread tb([&] { rb = HistoryStore::open(history::HistoryDb{m_server->uri(), std::nullopt}).add(b); });
  ta.join();
  tb.join();
  EXPECT_NE(ra.id, rb.id);
  HistoryStore store = HistoryStore::open(history::HistoryDb{m_server->uri(), std::nullopt});
  EXPECT_EQ(store.list({}).size(), 2u);
  const std::vector<Row> versions = store.backend().query("SELECT COUNT(*) FROM ptsuite_schema");
  EXPECT_EQ(versions[0][0], std::to_string(history_migrations().size()));
}

// libpq's keyword form reaches the same server (and is never an SQLite file); the password in it
// (ignored by the test server's trust authentication) is not in its description.
TEST_F(PostgresHistory, AKeywordConnectionStringOpensTheServer) {
  const std::string& uri = m_server->uri();  // postgresql://ptsuite@/postgres?host=DIR&port=PORT
  const size_t host = uri.find("host=");
  const size_t amp = uri.find('&', host);
  const std::string keywords = "host=" + uri.substr(host + 5, amp - host - 5) + " port=" + uri.substr(amp + 6) +
                               " user=ptsuite password='not used' dbname=postgres";
  HistoryStore store = HistoryStore::open(history::HistoryDb{resolve_history_db(keywords), std::nullopt});
  EXPECT_EQ(store.backend().dialect(), Dialect::postgresql);
  EXPECT_EQ(store.backend().describe().find("not used"), std::string::npos) << store.backend().describe();
  EXPECT_TRUE(store.list({}).empty());
}

TEST_F(PostgresHistory, UnreachableDatabaseIsOneLineBadInput) {
  try {
    (void)HistoryStore::open(history::HistoryDb{m_server->uri_for("no_such_database"), std::nullopt});
    FAIL() << "connected to a database that does not exist";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cannot connect to the PostgreSQL history database"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace ptsuite::history
