// Contract: the results history (docs/history.md): runs recorded in one database, listed,
// shown and exported, written once against the storage interface (backend.hpp) so that the
// same code serves SQLite and PostgreSQL. Opening a store brings its schema up to date
// (migrations.hpp).
//
// add() is an upsert by run_uid: the same run added again (after `resume`, after `sign`, from
// a moved directory) updates its record, keeps its ID, and replaces its tests, metrics and
// labels, all in one transaction. With `files` it stores the run's bundle too (replacing a
// stored one); without, a stored bundle whose manifest is not the record's is dropped (stale). A record from another
// run directory is never replaced silently. IDs are positive integers assigned by the database, never reused for
// another run while the record exists.
//
// Errors: as backend.hpp; UsageError for an unknown ID in get_or_throw().
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/history/backend.hpp>
#include <ptsuite/history/run_record.hpp>

namespace ptsuite::history {

struct RunFilter {
  std::string model;   // exact device model; empty = any
  std::string serial;  // exact device serial; empty = any
  Labels labels = {};  // every label must match exactly; empty = any
};

struct AddResult {
  int64_t id = 0;
  bool updated = false;  // the run was already recorded
};

class HistoryStore {
 public:
  explicit HistoryStore(std::unique_ptr<Backend> backend);
  struct NoMigration {};
  HistoryStore(std::unique_ptr<Backend> backend, NoMigration) : m_backend(std::move(backend)) {}
  // open_backend(db) and migrate.
  static HistoryStore open(const HistoryDb& db);
  // A read-only store over open_backend_readonly(db): never migrates; a database at another
  // schema version than this ptsuite's is UsageError (older: "open it once with `ptsuite
  // history list`", newer: "upgrade ptsuite"). add() fails (the connection refuses writes).
  static HistoryStore open_readonly(const HistoryDb& db);

  // A run recorded from another directory is replaced only with `replace` (`history add
  // --replace`, e.g. after moving the directory): otherwise UsageError (exit 2) naming both.
  AddResult add(const RunRecord& record, bool replace = false, const std::vector<BundleFile>* files = nullptr);
  // Runs matching `filter`, oldest first (by start time, then ID), with test summaries but
  // without metrics (`with_metrics` adds them).
  std::vector<RunRecord> list(const RunFilter& filter, bool with_metrics = false);
  std::optional<RunRecord> get(int64_t id);
  RunRecord get_or_throw(int64_t id);
  // The bundle stored with run `id` (empty when none was), contents decoded.
  std::vector<BundleFile> bundle_files(int64_t id);
  // The ID of the run with this run_uid, when recorded.
  std::optional<int64_t> id_of(const std::string& run_uid);

  [[nodiscard]] Backend& backend() noexcept { return *m_backend; }

 private:
  void load_details(RunRecord& record, bool with_metrics);
  void store_details(const RunRecord& record, const std::string& id, const std::vector<BundleFile>* files);
  std::unique_ptr<Backend> m_backend;
};

}  // namespace ptsuite::history
