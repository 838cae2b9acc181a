// Private: recording a finished `run` / `resume` in the results history from the cli layer
// (history/store.hpp). A history that cannot be written never fails the run: the problem is
// one warning line, with the command that adds the run later.
#pragma once

#include <functional>
#include <string>

namespace ptsuite::cli {

// Adds (or updates) the run in `dir` to the history named by `db_option` (resolve_history_db()
// rules) and reports the outcome through `message`, one line either way.
void record_run_in_history(const std::string& dir, const std::string& db_option,
                           const std::function<void(const std::string&)>& message);

}  // namespace ptsuite::cli
