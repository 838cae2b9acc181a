// Contract: where the results history lives. In order of precedence:
//   1. an explicit --db value (a file path, or a postgresql:// / postgres:// URI);
//   2. the environment variable PTSUITE_HISTORY_DB (same forms);
//   3. $XDG_DATA_HOME/ptsuite/history.sqlite, with XDG_DATA_HOME defaulting to
//      $HOME/.local/share (XDG Base Directory Specification).
// UsageError (exit 2) when none applies (no HOME and no XDG_DATA_HOME), or for a URI that is
// not PostgreSQL's. Reads the environment only; creates nothing.
#pragma once

#include <string>

namespace ptsuite::history {

inline constexpr const char* k_history_db_env = "PTSUITE_HISTORY_DB";

std::string default_history_db();
// `option` = the --db value as given ("" when not given); `flag` names it in errors. Only file
// paths and postgresql:// / postgres:// URIs are accepted: anything else with "://" (a mistyped
// scheme, mysql://) is UsageError (exit 2) naming the flag or PTSUITE_HISTORY_DB, the password
// redacted, so that it never silently becomes a SQLite file named after the URI.
std::string resolve_history_db(const std::string& option, const std::string& flag = "--db");
// The database named for people: a file path as is, a URI with any password replaced by ***
// (user:***@host, password=***), whatever its scheme.
std::string display_db(const std::string& db);

}  // namespace ptsuite::history
