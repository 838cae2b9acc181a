// Contract: the storage interface of the results history: one SQL connection, with two
// backends behind it, SQLite (Debian's libsqlite3; a file, the default) and PostgreSQL
// (Debian's libpq; `postgresql://...` or `postgres://...` URIs, or libpq's keyword form
// `host=... dbname=...`, for labs with many hosts).
// The store (store.hpp) is written once against this interface.
//
// SQL passed to query() uses '?' placeholders (the PostgreSQL backend numbers them $1, $2, ...)
// and only the SQL both engines accept; every parameter and every result value travels as
// text (nullopt = NULL): SQLite converts by column affinity, PostgreSQL by the column's type.
// One Backend is one connection: not thread-safe, used by one thread at a time.
//
// Errors: UsageError (exit 2) for a database that cannot be opened or reached (the message
// names it without any password); SystemError (exit 5) for a statement that fails.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <ptsuite/util/output_file.hpp>

namespace ptsuite::history {

enum class Dialect { sqlite, postgresql };

using Value = std::optional<std::string>;
using Row = std::vector<Value>;

class Backend {
 public:
  virtual ~Backend() = default;
  [[nodiscard]] virtual Dialect dialect() const noexcept = 0;
  // "SQLite /home/lab/.local/share/ptsuite/history.sqlite", "PostgreSQL lab@db1:5432/ptsuite".
  [[nodiscard]] virtual std::string describe() const = 0;
  // One statement; returns its rows (empty for statements that return none).
  virtual std::vector<Row> query(std::string_view sql, const std::vector<Value>& params = {}) = 0;
  // Starts a transaction that holds the database's write lock until commit/rollback, so that
  // concurrent writers (two runs finishing together, two migrating processes) serialise.
  virtual void begin_write() = 0;
  void commit() { (void)query("COMMIT"); }
  void rollback() { (void)query("ROLLBACK"); }
};

// True for "postgresql://..." and "postgres://..." (libpq connection URIs).
bool is_postgresql_uri(std::string_view db);
// True for libpq's keyword form, "host=db1 dbname=ptsuite user=lab password=...": its first word
// is one of libpq's connection keywords (PQconndefaults()) followed by '='. No file path a
// person writes starts so; a file of such a name is given as ./host=x.
bool is_postgresql_keywords(std::string_view db);
// Either form: what open_backend() opens with libpq.
bool is_postgresql(std::string_view db);
// Whether libpq accepts the keyword form `db` (PQconninfoParse: known keywords, '=' after each,
// quotes closed). Says nothing of why, so no part of the string (a password) is ever quoted.
bool valid_postgresql_keywords(const std::string& db);

// A history database as a command names it: a PostgreSQL URI, or a SQLite file that the
// command's output gate let through (device/output_gate.hpp's database(): never a device node,
// a special file, a loop device's backing file or another of the command's paths).
struct HistoryDb {
  std::string name;                  // the URI or the file path (resolve_history_db())
  std::optional<OutputPath> sqlite;  // the SQLite file's token; nullopt for PostgreSQL
};

// SQLite database file: created (with its directory) when missing. Foreign keys on, 10 s busy
// timeout.
std::unique_ptr<Backend> open_sqlite(const OutputPath& path);
// PostgreSQL server via libpq; `uri` as libpq accepts it.
std::unique_ptr<Backend> open_postgresql(const std::string& uri);
// Either, by the form of `db`.
std::unique_ptr<Backend> open_backend(const HistoryDb& db);
// Either, read-only (`ptsuite serve`): a SQLite file that must exist, opened read-only with
// query_only on; a PostgreSQL session whose transactions are READ ONLY. A write through it
// fails (SystemError), whatever the SQL.
std::unique_ptr<Backend> open_backend_readonly(const HistoryDb& db);

// A transaction that rolls back unless committed (begin_write() on construction).
class WriteTransaction {
 public:
  explicit WriteTransaction(Backend& backend) : m_backend(backend) { m_backend.begin_write(); }
  ~WriteTransaction() {
    if (m_open) {
      try {
        m_backend.rollback();
      } catch (...) {
        // The error that unwound us is the one to report.
      }
    }
  }
  WriteTransaction(const WriteTransaction&) = delete;
  WriteTransaction& operator=(const WriteTransaction&) = delete;
  void commit() {
    m_backend.commit();
    m_open = false;
  }

 private:
  Backend& m_backend;
  bool m_open = true;
};

}  // namespace ptsuite::history
