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
  return db;
}

std::string display_db(const std::string& db) {
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
