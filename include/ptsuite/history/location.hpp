// Contract: where the results history lives. In order of precedence:
//   1. an explicit --db value (a file path, or a postgresql:// / postgres:// URI);
//   2. the environment variable PTSUITE_HISTORY_DB (same forms);
//   3. $XDG_DATA_HOME/ptsuite/history.sqlite, with XDG_DATA_HOME defaulting to
//      $HOME/.local/share (XDG Base Directory Specification).
// UsageError (exit 2) when none applies (no HOME and no XDG_DATA_HOME). Reads the environment
// only; creates nothing.
#pragma once

#include <string>

namespace ptsuite::history {

inline constexpr const char* k_history_db_env = "PTSUITE_HISTORY_DB";

std::string default_history_db();
// `option` = the --db value as given ("" when not given).
std::string resolve_history_db(const std::string& option);
// The database named for people: a file path as is, a URI without its password.
std::string display_db(const std::string& db);

}  // namespace ptsuite::history
