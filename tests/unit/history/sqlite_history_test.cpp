// The results history on SQLite (history/store.hpp): round trips of the results fixtures,
// migrations (from 0, from version 1 with data, a newer database refused, a failing migration
// rolled back), headline metrics, run references for `compare`, the CSV export, and where the
// default database lives.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <ptsuite/history/export.hpp>
#include <ptsuite/history/location.hpp>
#include <ptsuite/history/resolve.hpp>
#include <ptsuite/util/error.hpp>
#include "support/temp_dir.hpp"
#include "support/test_outputs.hpp"
#include "unit/history/store_checks.hpp"

namespace ptsuite::history {
namespace {

namespace fs = std::filesystem;

class SqliteHistory : public ::testing::Test {
 protected:
  [[nodiscard]] std::string db() const { return m_temp.file("sub/dir/history.sqlite"); }
  test_support::ShmTempDir m_temp{"ptsuite-history"};
};

TEST_F(SqliteHistory, FixturesRoundTripAndReAddUpdates) {
  HistoryStore store = HistoryStore::open(test_support::sqlite_history(db()));  // creates the file and its directories
  EXPECT_TRUE(fs::exists(db()));
  EXPECT_NE(store.backend().describe().find(db()), std::string::npos);
  testing::exercise_store(store);
}

TEST_F(SqliteHistory, StoredRunsSurviveReopening) {
  const RunRecord steady = testing::fixture_record("steady", "/runs/steady");
  int64_t id = 0;
  {
    HistoryStore store = HistoryStore::open(test_support::sqlite_history(db()));
    id = store.add(steady).id;
  }
  HistoryStore again = HistoryStore::open(test_support::sqlite_history(db()));
  testing::expect_same_record(steady, again.get_or_throw(id));
}

TEST_F(SqliteHistory, MigratesAVersionOneDatabaseKeepingItsRuns) {
  testing::exercise_migration_from_v1(open_sqlite(test_support::database_path(db())),
                                      open_sqlite(test_support::database_path(db())));
}

TEST_F(SqliteHistory, FreshDatabaseGetsEveryMigrationOnce) {
  std::unique_ptr<Backend> backend = open_sqlite(test_support::database_path(db()));
  const MigrationResult r = apply_migrations(*backend, history_migrations());
  EXPECT_EQ(r.from_version, 0);
  EXPECT_EQ(r.to_version, static_cast<int>(history_migrations().size()));
  const std::vector<Row> rows = backend->query("SELECT version FROM ptsuite_schema ORDER BY version");
  ASSERT_EQ(rows.size(), history_migrations().size());
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][0], std::to_string(i + 1));
  }
}

TEST_F(SqliteHistory, NewerDatabaseIsRefusedUntouched) {
  {
    std::unique_ptr<Backend> backend = open_sqlite(test_support::database_path(db()));
    (void)apply_migrations(*backend, history_migrations());
    (void)backend->query("INSERT INTO ptsuite_schema (version, applied_utc) VALUES (99, 'x')");
  }
  try {
    HistoryStore store = HistoryStore::open(test_support::sqlite_history(db()));
    FAIL() << "a version-99 database was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("upgrade ptsuite"), std::string::npos) << e.what();
  }
  EXPECT_EQ(schema_version(*open_sqlite(test_support::database_path(db()))), 99);
}

TEST_F(SqliteHistory, FailingMigrationRollsBackWhole) {
  std::unique_ptr<Backend> backend = open_sqlite(test_support::database_path(db()));
  const std::vector<Migration> good = {{1, "t", {"CREATE TABLE t (a INTEGER)"}}};
  (void)apply_migrations(*backend, good);
  const std::vector<Migration> bad = {
      good[0], {2, "u and a broken statement", {"CREATE TABLE u (a INTEGER)", "CREATE TABLE broken ("}}};
  EXPECT_THROW((void)apply_migrations(*backend, bad), SystemError);
  EXPECT_EQ(schema_version(*backend), 1);
  EXPECT_THROW((void)backend->query("SELECT * FROM u"), SystemError);  // table u was rolled back too
}

TEST_F(SqliteHistory, UnopenableDatabaseIsBadInput) {
  EXPECT_THROW((void)HistoryStore::open(test_support::sqlite_history("/proc/ptsuite-no-such-dir/history.sqlite")),
               Error);
}

TEST(HistoryRecord, HeadlineMetricsComeFromTheRecordedCells) {
  const nlohmann::json& doc = test_support::load_results_fixture("steady");
  const RunRecord r = record_from_results(doc, "/runs/x");
  EXPECT_EQ(r.tests, (std::vector<std::string>{"iops", "latency"}));
  const nlohmann::json& iops = doc.at("tests")[0].at("matrix");
  const auto row = std::find(iops.at("rows").begin(), iops.at("rows").end(), "4KiB") - iops.at("rows").begin();
  const auto col =
      std::find(iops.at("columns").begin(), iops.at("columns").end(), "0/100") - iops.at("columns").begin();
  const auto it =
      std::find_if(r.metrics.begin(), r.metrics.end(), [](const Metric& m) { return m.name == "rnd_4KiB_write_iops"; });
  ASSERT_NE(it, r.metrics.end());
  EXPECT_EQ(it->value, iops.at("iops")[row][col].get<double>());
  EXPECT_EQ(it->unit, "IOPS");
  EXPECT_EQ(r.test_summaries[0].steady_state.rfind("main: attained at Round", 0), 0u)
      << r.test_summaries[0].steady_state;
  const RunRecord na = record_from_results(test_support::load_results_fixture("not-attained"), "/runs/y");
  EXPECT_NE(na.test_summaries[0].steady_state.find("NOT attained (25 Rounds)"), std::string::npos);
  EXPECT_EQ(na.test_summaries[1].steady_state, "1MiB: attained at Round 5; 128KiB: NOT attained (25 Rounds)");
  const RunRecord quick = record_from_results(test_support::load_results_fixture("quick"), "/runs/z");
  for (const char* name : {"max_iops", "mid_mean_ns", "final_iops", "drive_fills", "seq_1MiB_read_mb_per_s"}) {
    EXPECT_TRUE(std::any_of(quick.metrics.begin(), quick.metrics.end(), [&](const Metric& m) {
      return m.name == name;
    })) << name;
  }
  EXPECT_THROW((void)record_from_results(nlohmann::json::object(), "/x"), UsageError);
  // Preflight warnings: null for a run without a preflight record, else the warning findings.
  nlohmann::json no_preflight = doc;
  no_preflight.erase("preflight");
  EXPECT_FALSE(record_from_results(no_preflight, "/runs/x").preflight_warnings.has_value());
  nlohmann::json warned = doc;
  warned["preflight"] = nlohmann::json::array({{{"findings", {{{"severity", "warning"}}, {{"severity", "info"}}}}},
                                               {{"findings", {{{"severity", "warning"}}}}}});
  EXPECT_EQ(record_from_results(warned, "/runs/x").preflight_warnings, std::optional<int64_t>(2));
}

TEST_F(SqliteHistory, RunReferencesResolveIdsAndDirectories) {
  const fs::path run_dir = fs::path(m_temp.path()) / "run-1";
  fs::create_directories(run_dir);
  std::ofstream(run_dir / "results.json") << test_support::load_results_fixture("steady").dump();
  HistoryStore store = HistoryStore::open(test_support::sqlite_history(db()));
  const int64_t id = store.add(record_from_run_dir(run_dir)).id;

  for (const std::string& ref : {std::to_string(id), "#" + std::to_string(id), "h" + std::to_string(id)}) {
    const ResolvedRun r = resolve_run(ref, &store);
    EXPECT_EQ(r.dir, run_dir) << ref;
    EXPECT_EQ(r.results_path, run_dir / "results.json");
    ASSERT_TRUE(r.record.has_value());
    EXPECT_EQ(r.record->id, id);
  }
  const ResolvedRun by_dir = resolve_run(run_dir.string(), &store);
  EXPECT_FALSE(by_dir.record.has_value());
  EXPECT_THROW((void)resolve_run(std::to_string(id + 7), &store), UsageError);
  EXPECT_THROW((void)resolve_run(std::to_string(id), static_cast<HistoryStore*>(nullptr)), UsageError);
  EXPECT_THROW((void)resolve_run(m_temp.file("no-such-run"), &store), UsageError);
  fs::remove_all(run_dir);
  EXPECT_THROW((void)resolve_run(std::to_string(id), &store), UsageError);  // the directory is gone
  // By database name, opened only for IDs.
  EXPECT_THROW((void)resolve_run(std::to_string(id), test_support::sqlite_history(db())), UsageError);
  EXPECT_EQ(parse_history_id("12"), 12);
  EXPECT_FALSE(parse_history_id("0").has_value());
  EXPECT_FALSE(parse_history_id("12a").has_value());
  EXPECT_FALSE(parse_history_id("").has_value());
}

TEST_F(SqliteHistory, CsvExportHasOneRowPerMetricAndQuotesFields) {
  HistoryStore store = HistoryStore::open(test_support::sqlite_history(db()));
  RunRecord steady = testing::fixture_record("steady", "/runs/with,comma");
  steady.tested_by = "Lab \"A\"";
  (void)store.add(steady);
  const std::string csv = export_csv(store.list({}, true));
  std::vector<std::string> lines;
  for (size_t start = 0; start < csv.size();) {
    const size_t nl = csv.find('\n', start);
    lines.push_back(csv.substr(start, nl - start));
    start = nl + 1;
  }
  ASSERT_EQ(lines.size(), 1 + steady.metrics.size());
  EXPECT_EQ(lines[0].rfind("id,run_uid,run_dir,", 0), 0u);
  EXPECT_NE(lines[1].find("\"/runs/with,comma\""), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find("\"Lab \"\"A\"\"\""), std::string::npos) << lines[1];
  EXPECT_NE(csv.find(",rnd_4KiB_read_iops,"), std::string::npos);
  // A run without tests still gets its row.
  RunRecord empty = steady;
  empty.run_uid = "no-tests";
  empty.tests.clear();
  empty.test_summaries.clear();
  empty.metrics.clear();
  (void)store.add(empty);
  const std::string with_empty = export_csv(store.list({}, true));
  EXPECT_EQ(std::count(with_empty.begin(), with_empty.end(), '\n'),
            static_cast<std::ptrdiff_t>(2 + steady.metrics.size()));
}

TEST(HistoryLocation, OptionThenEnvironmentThenXdgDataHome) {
  const char* saved_env = std::getenv(k_history_db_env);
  const std::string saved = saved_env != nullptr ? saved_env : "";
  ::setenv(k_history_db_env, "/env/history.sqlite", 1);
  EXPECT_EQ(resolve_history_db("/opt/h.sqlite"), "/opt/h.sqlite");
  EXPECT_EQ(resolve_history_db(""), "/env/history.sqlite");
  ::unsetenv(k_history_db_env);
  ::setenv("XDG_DATA_HOME", "/xdg", 1);
  EXPECT_EQ(resolve_history_db(""), "/xdg/ptsuite/history.sqlite");
  ::setenv("XDG_DATA_HOME", "relative/ignored", 1);
  ::setenv("HOME", "/home/lab", 1);
  EXPECT_EQ(resolve_history_db(""), "/home/lab/.local/share/ptsuite/history.sqlite");
  ::unsetenv("XDG_DATA_HOME");
  EXPECT_EQ(default_history_db(), "/home/lab/.local/share/ptsuite/history.sqlite");
  ::setenv(k_history_db_env, saved.c_str(), 1);
  EXPECT_EQ(display_db("postgresql://lab:secret@db1/ptsuite"), "postgresql://lab:***@db1/ptsuite");
  EXPECT_EQ(display_db("postgresql://lab@db1/ptsuite"), "postgresql://lab@db1/ptsuite");
  // Any scheme's password is redacted (a mistyped one too), and password= parameters.
  EXPECT_EQ(display_db("postgressql://user:secret@host/db"), "postgressql://user:***@host/db");
  EXPECT_EQ(display_db("postgresql://h/db?user=u&password=secret&sslmode=require"),
            "postgresql://h/db?user=u&password=***&sslmode=require");
  // Only file paths and PostgreSQL URIs are history databases: nothing else becomes a file.
  for (const char* bad : {"postgressql://user:secret@host/db", "mysql://root:secret@db/x", "sqlite:///x.db"}) {
    try {
      (void)resolve_history_db(bad, "--history-db");
      ADD_FAILURE() << bad << " was accepted";
    } catch (const UsageError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("--history-db: ", 0), 0u) << what;
      EXPECT_EQ(what.find("secret"), std::string::npos) << what;
    }
  }
  ::setenv(k_history_db_env, "mysql://u:secret@h/x", 1);
  EXPECT_THROW((void)resolve_history_db(""), UsageError);
  ::setenv(k_history_db_env, saved.c_str(), 1);
  EXPECT_EQ(resolve_history_db("postgres://h/db"), "postgres://h/db");
  EXPECT_TRUE(is_postgresql_uri("postgres://x"));
  EXPECT_FALSE(is_postgresql_uri("/var/lib/postgresql.sqlite"));
}

// libpq's keyword form is PostgreSQL's, never a file name; its password never printed; a
// malformed or mistyped one is refused (issue 36).
TEST(HistoryLocation, KeywordConnectionStringsArePostgresqlAndTheirPasswordsHidden) {
  const std::string good = "host=127.0.0.1 port=5432 password='s3cret pass' dbname=ptsuite";
  EXPECT_TRUE(is_postgresql_keywords(good));
  EXPECT_TRUE(is_postgresql(good));
  EXPECT_TRUE(is_postgresql_keywords("  dbname = lab"));
  EXPECT_FALSE(is_postgresql_keywords("/tmp/a=b.sqlite"));
  EXPECT_FALSE(is_postgresql_keywords("history.sqlite"));
  EXPECT_FALSE(is_postgresql_keywords("hots=db1 password=x"));  // no libpq keyword
  EXPECT_EQ(resolve_history_db(good), good);
  EXPECT_EQ(display_db(good), "host=127.0.0.1 port=5432 password=*** dbname=ptsuite");
  EXPECT_EQ(display_db("password=abc\\ def user=u"), "password=*** user=u");
  EXPECT_EQ(display_db("user=u password = 'it\\'s' host=h"), "user=u password = *** host=h");
  EXPECT_EQ(resolve_history_db("/tmp/a=b.sqlite"), "/tmp/a=b.sqlite");
  for (const char* bad : {"host=db1 password=s3cret nosuchkey=1", "host=db1 password='s3cret",
                          "hots=db1 password=s3cret", "host=db1 s3cret"}) {
    try {
      (void)resolve_history_db(bad, "--db");
      ADD_FAILURE() << bad << " was accepted";
    } catch (const UsageError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("--db: ", 0), 0u) << what;
      EXPECT_EQ(what.find("s3cret"), std::string::npos) << what;
    }
  }
}

}  // namespace
}  // namespace ptsuite::history
