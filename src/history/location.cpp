#include <ptsuite/history/location.hpp>

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

std::string resolve_history_db(const std::string& option) {
  if (!option.empty()) {
    return option;
  }
  const std::string from_env = env(k_history_db_env);
  return from_env.empty() ? default_history_db() : from_env;
}

std::string display_db(const std::string& db) {
  if (!is_postgresql_uri(db)) {
    return db;
  }
  // postgresql://user:password@host/... -> postgresql://user:***@host/...
  const size_t scheme_end = db.find("://") + 3;
  const size_t at = db.find('@', scheme_end);
  const size_t colon = db.find(':', scheme_end);
  if (at == std::string::npos || colon == std::string::npos || colon > at) {
    return db;
  }
  return db.substr(0, colon + 1) + "***" + db.substr(at);
}

}  // namespace ptsuite::history
