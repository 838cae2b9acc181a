// Private: recording a finished `run` / `resume` in the results history from the cli layer
// (history/store.hpp). A history that cannot be written never fails the run: the problem is
// one warning line, with the command that adds the run later.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/history/backend.hpp>

namespace ptsuite::cli {

// The history database named by `db_option` (resolve_history_db() rules; `flag` names it in
// errors): a PostgreSQL URI, or a SQLite file let through by the command's output gate (before
// anything is touched: a device node or a loop device's backing file is exit 3, a bad URI 2).
history::HistoryDb gate_history_db(device::OutputGate& gate, const std::string& db_option,
                                   const std::string& flag = "--db");
// The same for a command that records a run unless --no-history.
std::optional<history::HistoryDb> gate_run_history(device::OutputGate& gate, bool no_history,
                                                   const std::string& history_db);

// Adds (or updates) the run in `dir` to the history `db` and reports the outcome through
// `message`, one line either way.
void record_run_in_history(const std::string& dir, const history::HistoryDb& db,
                           const std::function<void(const std::string&)>& message);

}  // namespace ptsuite::cli
