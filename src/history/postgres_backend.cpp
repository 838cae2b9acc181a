// The PostgreSQL backend of the history (Debian's libpq): one connection, PQexecParams with
// text parameters and text results; '?' placeholders become $1, $2, ... The SQL the store
// sends has no string literals containing '?', so the rewrite is a plain scan.
#include <libpq-fe.h>

#include <fmt/format.h>

#include <cctype>
#include <string_view>

#include <ptsuite/history/backend.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::history {

namespace {

// Any constant identifies the history's write lock among the server's advisory locks; this
// one spells "ptsuit" in ASCII.
constexpr const char* k_advisory_lock_key = "123715371443572";

// A failed result that says the session is gone, though libpq may not have marked the
// connection bad yet: no SQLSTATE at all (libpq's own communication failure, e.g. "server
// closed the connection unexpectedly"), class 08 (connection exception) or 57P01-57P03 (the
// server shutting down or restarting).
bool connection_lost(const PGresult* result) {
  const char* state = result != nullptr ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  if (state == nullptr || *state == '\0') return true;
  const std::string_view code(state);
  return code.substr(0, 2) == "08" || code == "57P01" || code == "57P02" || code == "57P03";
}

std::string first_line(const char* message) {
  std::string text = message != nullptr ? message : "";
  const size_t nl = text.find('\n');
  return nl == std::string::npos ? text : text.substr(0, nl);
}

std::string numbered_placeholders(std::string_view sql) {
  std::string out;
  int n = 0;
  for (const char c : sql) {
    if (c == '?') {
      out += "$" + std::to_string(++n);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

struct ResultFree {
  void operator()(PGresult* r) const noexcept { PQclear(r); }
};

class PostgresBackend final : public Backend {
 public:
  explicit PostgresBackend(const std::string& uri) {
    // connect_timeout comes before dbname so that one given in the URI wins.
    const char* keys[] = {"connect_timeout", "application_name", "dbname", nullptr};
    const char* values[] = {"10", "ptsuite", uri.c_str(), nullptr};
    m_conn = PQconnectdbParams(keys, values, /*expand_dbname=*/1);
    if (m_conn == nullptr || PQstatus(m_conn) != CONNECTION_OK) {
      const std::string why = m_conn != nullptr ? first_line(PQerrorMessage(m_conn)) : "out of memory";
      PQfinish(m_conn);
      m_conn = nullptr;
      // No answer, or a server that refuses connections for now (starting, shutting down,
      // recovering): a later attempt can succeed (exit 75). Bad parameters, an unknown database,
      // a failed login: the URI must change (exit 2).
      const PGPing ping = PQpingParams(keys, values, /*expand_dbname=*/1);
      if (ping == PQPING_NO_RESPONSE || ping == PQPING_REJECT) {
        throw Unavailable(fmt::format("the PostgreSQL history database cannot be reached: {}; retry later", why));
      }
      throw UsageError("--db", fmt::format("cannot connect to the PostgreSQL history database: {}", why));
    }
    PQsetNoticeProcessor(
        m_conn, [](void*, const char*) {}, nullptr);  // "already exists, skipping"
    m_description = fmt::format("PostgreSQL {}@{}:{}/{}", PQuser(m_conn), PQhost(m_conn), PQport(m_conn), PQdb(m_conn));
  }
  ~PostgresBackend() override { PQfinish(m_conn); }
  PostgresBackend(const PostgresBackend&) = delete;
  PostgresBackend& operator=(const PostgresBackend&) = delete;

  [[nodiscard]] Dialect dialect() const noexcept override { return Dialect::postgresql; }
  [[nodiscard]] std::string describe() const override { return m_description; }
  void begin_write() override {
    (void)query("BEGIN", {});
    (void)query(std::string("SELECT pg_advisory_xact_lock(") + k_advisory_lock_key + ")", {});
  }

  std::vector<Row> query(std::string_view sql, const std::vector<Value>& params) override {
    std::vector<const char*> values;
    for (const Value& v : params) {
      values.push_back(v ? v->c_str() : nullptr);
    }
    const std::string text = numbered_placeholders(sql);
    const std::unique_ptr<PGresult, ResultFree> result(PQexecParams(
        m_conn, text.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr, nullptr, 0));
    const ExecStatusType status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      const std::string statement(sql.substr(0, sql.find('\n')));
      if (PQstatus(m_conn) == CONNECTION_BAD || connection_lost(result.get())) {  // the server went away mid-session
        throw Unavailable(fmt::format("history database {}: the connection was lost ({}); retry later", m_description,
                                      first_line(PQerrorMessage(m_conn))));
      }
      throw SystemError(fmt::format("history database {}: {} (in: {})", m_description,
                                    first_line(PQerrorMessage(m_conn)), statement));
    }
    std::vector<Row> rows;
    for (int r = 0; r < PQntuples(result.get()); ++r) {
      Row row;
      for (int c = 0; c < PQnfields(result.get()); ++c) {
        row.push_back(PQgetisnull(result.get(), r, c) != 0 ? std::nullopt
                                                           : Value(std::string(PQgetvalue(result.get(), r, c))));
      }
      rows.push_back(std::move(row));
    }
    return rows;
  }

 private:
  PGconn* m_conn = nullptr;
  std::string m_description;
};

}  // namespace

std::unique_ptr<Backend> open_postgresql(const std::string& uri) { return std::make_unique<PostgresBackend>(uri); }

namespace {

bool is_keyword_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

}  // namespace

bool is_postgresql_keywords(std::string_view db) {
  size_t i = 0;
  while (i < db.size() && std::isspace(static_cast<unsigned char>(db[i])) != 0) ++i;
  const size_t start = i;
  while (i < db.size() && is_keyword_char(db[i])) ++i;
  const std::string_view word = db.substr(start, i - start);
  while (i < db.size() && std::isspace(static_cast<unsigned char>(db[i])) != 0) ++i;
  if (word.empty() || i >= db.size() || db[i] != '=') return false;
  PQconninfoOption* options = PQconndefaults();
  if (options == nullptr) return false;
  bool known = false;
  for (const PQconninfoOption* o = options; o->keyword != nullptr; ++o) known = known || word == o->keyword;
  PQconninfoFree(options);
  return known;
}

bool valid_postgresql_keywords(const std::string& db) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(db.c_str(), &error);
  PQfreemem(error);  // never shown: it can quote a word of the string (a password)
  if (options == nullptr) return false;
  PQconninfoFree(options);
  return true;
}

}  // namespace ptsuite::history
