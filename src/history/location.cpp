#include <ptsuite/history/location.hpp>

#include <fmt/format.h>
#include <cstdlib>
#include <filesystem>

#include <ptsuite/history/backend.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::history {

namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

// "word=" at the start (spaces allowed around the word): the keyword form, or a mistyped one.
bool looks_like_keywords(std::string_view db) {
  const size_t eq = db.find('=');
  if (eq == std::string_view::npos || eq == 0) return false;
  const std::string_view word = db.substr(0, eq);
  return word.find_first_of("/.") == std::string_view::npos && word.find_first_not_of(" \t") != std::string_view::npos;
}

// The keyword form with every password value replaced by ***: KEYWORD = VALUE pairs, a value in
// single quotes (backslash escapes) or up to the next space, as libpq reads them. A word that is
// neither a keyword nor a value (a malformed string: perhaps a password without its keyword) is
// *** too.
std::string redact_keywords(std::string_view db) {
  std::string out;
  size_t i = 0;
  while (i < db.size()) {
    const size_t eq = db.find('=', i);
    const std::string_view words = db.substr(i, eq == std::string_view::npos ? db.size() - i : eq - i);
    const size_t last_start = words.find_last_of(' ', words.find_last_not_of(' '));
    const std::string_view key_part = eq == std::string_view::npos ? std::string_view{} : words;
    // Every word before the keyword (and all of them when no '=' follows) is masked.
    const size_t junk_end = eq == std::string_view::npos           ? words.size()
                            : last_start == std::string_view::npos ? 0
                                                                   : last_start;
    if (words.substr(0, junk_end).find_first_not_of(' ') != std::string_view::npos) out += " *** ";
    if (eq == std::string_view::npos) break;
    const std::string_view key = key_part.substr(junk_end);
    out.append(key);
    out.push_back('=');
    size_t v = eq + 1;
    while (v < db.size() && db[v] == ' ') out.push_back(db[v++]);
    size_t end = v;
    if (end < db.size() && db[end] == '\'') {
      for (++end; end < db.size() && db[end] != '\''; ++end) {
        if (db[end] == '\\') ++end;
      }
      end = std::min(end + 1, db.size());
    } else {
      while (end < db.size() && db[end] != ' ') end += db[end] == '\\' ? 2 : 1;
      end = std::min(end, db.size());
    }
    const size_t first = key.find_first_not_of(' ');
    const std::string_view name = first == std::string_view::npos ? key : key.substr(first);
    out.append(name.substr(0, name.find_last_not_of(' ') + 1) == "password" ? "***" : db.substr(v, end - v));
    i = end;
  }
  return out;
}

}  // namespace

std::string default_history_db() {
  std::filesystem::path base = env("XDG_DATA_HOME");
  // The XDG spec: a relative XDG_DATA_HOME is invalid and must be ignored.
  if (base.empty() || base.is_relative()) {
    const std::string home = env("HOME");
    if (home.empty()) {
      throw UsageError("--db", "no history location: neither XDG_DATA_HOME nor HOME is set; pass --db PATH");
    }
    base = std::filesystem::path(home) / ".local" / "share";
  }
  return (base / "ptsuite" / "history.sqlite").string();
}

std::string resolve_history_db(const std::string& option, const std::string& flag) {
  std::string db = option;
  std::string source = flag;
  if (db.empty()) {
    db = env(k_history_db_env);
    source = k_history_db_env;
  }
  if (db.empty()) {
    return default_history_db();
  }
  if (db.find("://") != std::string::npos && !is_postgresql_uri(db)) {
    throw UsageError(source, fmt::format("\"{}\" is not a history database: give a file path or a postgresql:// "
                                         "(or postgres://) URI",
                                         display_db(db)));
  }
  // libpq's keyword form is PostgreSQL's (never a file named after it); a malformed one is
  // refused without libpq's reason, which can quote a word of it.
  if (is_postgresql_keywords(db) && !valid_postgresql_keywords(db)) {
    throw UsageError(source, fmt::format("\"{}\" is not a valid PostgreSQL connection string: libpq's keyword form "
                                         "is KEYWORD=VALUE pairs with libpq's keywords (host, port, dbname, user, "
                                         "password, ...), values with spaces in single quotes",
                                         display_db(db)));
  }
  // Anything else with a '=' in its first word looks like a mistyped keyword string: refused
  // rather than made a file named after it (a password in it would become a file name).
  if (!is_postgresql(db) && looks_like_keywords(db)) {
    throw UsageError(source, fmt::format("\"{}\" is neither a file path nor a PostgreSQL connection string (its "
                                         "first word is no libpq keyword); a file of that name is given as ./NAME",
                                         display_db(db)));
  }
  return db;
}

std::string display_db(const std::string& db) {
  if (looks_like_keywords(db)) return redact_keywords(db);
  std::string out = db;
  // scheme://user:password@host/... -> scheme://user:***@host/... (any scheme: a mistyped one too)
  if (const size_t scheme = out.find("://"); scheme != std::string::npos) {
    const size_t start = scheme + 3;
    const size_t end = out.find_first_of("/?#", start);
    const size_t at = out.rfind('@', end == std::string::npos ? out.size() : end);
    const size_t colon = out.find(':', start);
    if (at != std::string::npos && at >= start && colon != std::string::npos && colon < at) {
      out = out.substr(0, colon + 1) + "***" + out.substr(at);
    }
  }
  // ...?password=secret&... -> ...?password=***&...
  for (size_t p = out.find("password="); p != std::string::npos; p = out.find("password=", p + 1)) {
    const size_t value = p + 9;
    const size_t end = out.find_first_of("& ", value);
    out = out.substr(0, value) + "***" + (end == std::string::npos ? "" : out.substr(end));
  }
  return out;
}

}  // namespace ptsuite::history
