// Private: the history database a command names (--db), let through by its output gate before
// anything is touched (the run's ending, lifecycle/finish_run.hpp, records the run in it).
#pragma once

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

}  // namespace ptsuite::cli
