// Contract: run references for commands that take runs (e.g. `ptsuite compare`): an argument
// is a history ID when it is all digits (optionally "#12" or "h12") and no directory of that
// name exists; otherwise a run directory. resolve_run() returns the run directory and its
// results.json, checking that they exist, and the history record when the argument was an ID.
// Errors: UsageError (exit 2) for an unknown ID, a directory that is gone, or a directory
// without results.json.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include <ptsuite/history/backend.hpp>
#include <ptsuite/history/run_record.hpp>

namespace ptsuite::history {

class HistoryStore;

struct ResolvedRun {
  std::filesystem::path dir;
  std::filesystem::path results_path;
  std::optional<RunRecord> record;  // when resolved through the history
};

// The ID an argument names, if it is an ID reference ("12", "#12", "h12").
std::optional<int64_t> parse_history_id(const std::string& argument);

// With an open history (`store` may be nullptr when there is none: an ID is then an error).
ResolvedRun resolve_run(const std::string& argument, HistoryStore* store);
// The same, opening the history `db` only for IDs.
ResolvedRun resolve_run(const std::string& argument, const HistoryDb& db);

}  // namespace ptsuite::history
