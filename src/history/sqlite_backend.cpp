// The SQLite backend of the history (Debian's libsqlite3): one sqlite3 connection, statements
// prepared per call (the history runs a handful per command), parameters bound as text.
#include <sqlite3.h>

#include <fmt/format.h>
#include <filesystem>

#include <ptsuite/history/backend.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::history {

namespace {

namespace fs = std::filesystem;

constexpr int k_busy_timeout_ms = 10'000;

struct StatementFree {
  void operator()(sqlite3_stmt* s) const noexcept { sqlite3_finalize(s); }
};

class SqliteBackend final : public Backend {
 public:
  explicit SqliteBackend(const OutputPath& out) : m_path(out.string()) {
    check_destination(out);  // a regular file or nothing, again just before SQLite opens it
    std::error_code ec;
    const fs::path parent = fs::path(m_path).parent_path();
    if (!parent.empty()) {
      fs::create_directories(parent, ec);
    }
    if (sqlite3_open_v2(m_path.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
      const std::string why = m_db != nullptr ? sqlite3_errmsg(m_db) : "out of memory";
      sqlite3_close(m_db);
      m_db = nullptr;
      throw UsageError("--db", fmt::format("cannot open the history database {}: {}", m_path, why));
    }
    sqlite3_busy_timeout(m_db, k_busy_timeout_ms);
    (void)query("PRAGMA foreign_keys = ON", {});
  }
  // Read-only (`ptsuite serve`): an existing file, opened SQLITE_OPEN_READONLY, and every
  // statement refused a write (query_only).
  explicit SqliteBackend(const std::string& existing) : m_path(existing) {
    std::error_code ec;
    if (!fs::is_regular_file(m_path, ec)) {
      throw UsageError("--db", fmt::format("no history database at {} (not a regular file); give the lab's history "
                                           "with --db or PTSUITE_HISTORY_DB",
                                           m_path));
    }
    if (sqlite3_open_v2(m_path.c_str(), &m_db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
      const std::string why = m_db != nullptr ? sqlite3_errmsg(m_db) : "out of memory";
      sqlite3_close(m_db);
      m_db = nullptr;
      throw UsageError("--db", fmt::format("cannot open the history database {}: {}", m_path, why));
    }
    sqlite3_busy_timeout(m_db, k_busy_timeout_ms);
    (void)query("PRAGMA query_only = ON", {});
  }
  ~SqliteBackend() override { sqlite3_close(m_db); }
  SqliteBackend(const SqliteBackend&) = delete;
  SqliteBackend& operator=(const SqliteBackend&) = delete;

  [[nodiscard]] Dialect dialect() const noexcept override { return Dialect::sqlite; }
  [[nodiscard]] std::string describe() const override { return "SQLite " + m_path; }
  void begin_write() override { (void)query("BEGIN IMMEDIATE", {}); }

  std::vector<Row> query(std::string_view sql, const std::vector<Value>& params) override {
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(m_db, sql.data(), static_cast<int>(sql.size()), &raw, nullptr) != SQLITE_OK) {
      fail(sql);
    }
    const std::unique_ptr<sqlite3_stmt, StatementFree> statement(raw);
    for (size_t i = 0; i < params.size(); ++i) {
      const int index = static_cast<int>(i) + 1;
      const int rc = params[i] ? sqlite3_bind_text(raw, index, params[i]->data(), static_cast<int>(params[i]->size()),
                                                   SQLITE_TRANSIENT)
                               : sqlite3_bind_null(raw, index);
      if (rc != SQLITE_OK) {
        fail(sql);
      }
    }
    std::vector<Row> rows;
    for (;;) {
      const int rc = sqlite3_step(raw);
      if (rc == SQLITE_DONE) {
        return rows;
      }
      if (rc != SQLITE_ROW) {
        fail(sql);
      }
      Row row;
      for (int c = 0; c < sqlite3_column_count(raw); ++c) {
        // SQLite's own text form of a REAL has 15 significant digits; the shortest round-trip
        // form reads back exactly.
        if (sqlite3_column_type(raw, c) == SQLITE_FLOAT) {
          row.emplace_back(fmt::format("{}", sqlite3_column_double(raw, c)));
          continue;
        }
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(raw, c));
        row.push_back(text != nullptr ? Value(std::string(text, static_cast<size_t>(sqlite3_column_bytes(raw, c))))
                                      : std::nullopt);
      }
      rows.push_back(std::move(row));
    }
  }

 private:
  // The statement's error: still locked by another writer after the busy timeout is worth a
  // retry (exit 75); anything else is a failure (exit 5).
  [[noreturn]] void fail(std::string_view sql) const {
    const std::string first_line(sql.substr(0, sql.find('\n')));
    const std::string message =
        fmt::format("history database {}: {} (in: {})", m_path, sqlite3_errmsg(m_db), first_line);
    const int code = sqlite3_errcode(m_db) & 0xff;  // the primary result code
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED) {
      throw Unavailable(message + "; retry later");
    }
    throw SystemError(message);
  }

  std::string m_path;
  sqlite3* m_db = nullptr;
};

}  // namespace

std::unique_ptr<Backend> open_sqlite(const OutputPath& path) { return std::make_unique<SqliteBackend>(path); }

std::unique_ptr<Backend> open_backend_readonly(const HistoryDb& db) {
  if (db.sqlite) return std::make_unique<SqliteBackend>(db.sqlite->string());
  std::unique_ptr<Backend> backend = open_backend(db);
  (void)backend->query("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
  return backend;
}

bool is_postgresql_uri(std::string_view db) {
  return db.rfind("postgresql://", 0) == 0 || db.rfind("postgres://", 0) == 0;
}

bool is_postgresql(std::string_view db) { return is_postgresql_uri(db) || is_postgresql_keywords(db); }

std::unique_ptr<Backend> open_backend(const HistoryDb& db) {
  if (db.sqlite) return open_sqlite(*db.sqlite);
  if (!is_postgresql(db.name)) {
    throw UsageError("--db", "a SQLite history file must pass the output gate (internal: no token)");
  }
  return open_postgresql(db.name);
}

}  // namespace ptsuite::history
