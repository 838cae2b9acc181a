// Contract: what `ptsuite serve` reads from the results history (docs/serve.md): the pages'
// queries, written once against history/backend.hpp's SQL interface (SQLite and PostgreSQL),
// read-only (the server opens the database with open_backend_readonly()). Every list is bounded:
// a page holds at most k_max_page_rows rows, a download at most k_max_download_rows; the total
// is counted so the page can say how many there are. The lists read pages from the indexes of
// history migration 4 (runs by start time, and by device, host, tests or verdict then start
// time): their sort and filter expressions are the indexed ones, so a page does not sort every
// run. Every run row is read by one reader (catalog.cpp) into a history::RunRecord.
//
// Filters and sort keys come from a request: values travel only as bound parameters; a sort
// key is one of a fixed set (anything else is the default). Not thread-safe (one Backend is one
// connection): the server serializes requests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/history/backend.hpp>
#include <ptsuite/history/run_record.hpp>
#include <ptsuite/history/store.hpp>

namespace ptsuite::serve {

inline constexpr size_t k_default_page_rows = 50;
inline constexpr size_t k_max_page_rows = 200;
inline constexpr size_t k_max_download_rows = 10'000;
// Runs a compare or trend page reads at most (each compare run is a results document read
// and parsed: ~1-20 MB each, docs/performance.md).
inline constexpr size_t k_max_compare_runs = 12;
inline constexpr size_t k_max_trend_runs = 2'000;

// A run's kind (results/document_kinds.def: the kinds the history keeps), from its record's spec
// revision (history/run_record.hpp: "scenario NAME", "app NAME", "replay CAPTURE", "capture",
// a PTS run's revision otherwise): "pts", "scenario", "app", "replay" or "capture".
inline constexpr const char* k_run_kinds[] = {"pts", "scenario", "app", "replay", "capture"};
std::string run_kind(const history::RunRecord& r);
// Only a PTS run has a verdict: the other kinds are recorded "(no verdict)", never compliant.
inline bool has_verdict(const history::RunRecord& r) { return run_kind(r) == "pts"; }

struct RunQuery {
  std::string model, firmware, serial, host, test, campaign;
  std::string kind;  // one of k_run_kinds, "" = any
  // "compliant", "not" (a PTS run that is not compliant), "none" (a kind without a verdict), "" = any
  std::string verdict;
  std::string from, to;       // started_utc prefix bounds ("2026-11", "2026-11-30"), inclusive
  std::string sort = "date";  // date, id, test, model, firmware, serial, host, verdict
  bool descending = true;
  size_t offset = 0;
  size_t limit = k_default_page_rows;
};

// A page's runs: history records as one reader reads them (catalog.cpp): the run's columns
// and its campaign label (labels["campaign"]); tests, metrics and other labels only where a
// method says so.
struct RunPage {
  std::vector<history::RunRecord> rows;
  size_t total = 0;  // rows matching the filter
};

struct DriveQuery {
  std::string model, firmware, serial, host, label;  // label: "key=value"
  size_t offset = 0;
  size_t limit = k_default_page_rows;
};

struct DriveRow {
  // The drive's latest matching run (last.id == 0: registered by `fleet inventory` but never
  // run; then only the device fields and host are set).
  history::RunRecord last;
  size_t runs = 0;
  std::vector<history::Metric> headline;  // the last run's metrics (a few, see catalog.cpp)
};

struct DrivePage {
  std::vector<DriveRow> rows;
  size_t total = 0;
};

struct CampaignRow {
  std::string name;
  size_t runs = 0, drives = 0;
  std::string last_started_utc;
};

// A model's trend: each drive's latest run at each firmware version among the model's latest
// `max_runs` runs, with their metrics.
struct TrendRuns {
  size_t runs = 0;                         // the model's runs read
  std::vector<std::string> firmware;       // versions in the order first seen (oldest run first)
  std::vector<history::RunRecord> latest;  // one per (firmware, serial), with metrics
};

class Catalog {
 public:
  explicit Catalog(history::HistoryStore& store) : m_store(store), m_db(store.backend()) {}

  RunPage runs(const RunQuery& q);
  DrivePage drives(const DriveQuery& q);
  std::vector<CampaignRow> campaigns();
  // The full record (tests, metrics, labels), as `history show` reads it.
  std::optional<history::RunRecord> run(int64_t id);
  // The latest max_runs runs of one drive (column "device_serial"), of one model
  // ("device_model") or of one campaign ("campaign"), oldest first, with their labels and,
  // when `with_metrics`, their metrics.
  std::vector<history::RunRecord> runs_with_metrics(const std::string& column, const std::string& value,
                                                    size_t max_runs, bool with_metrics = true);
  TrendRuns trend(const std::string& model, size_t max_runs);
  // The run's results document text: from its stored bundle, else from results.json in its
  // recorded directory (the only path a request can reach, through the run's id). nullopt
  // when neither holds one.
  std::optional<std::string> results_text(const history::RunRecord& run);
  // The stored bundle's files (empty when none): for the run page's verification status.
  std::vector<history::BundleFile> bundle(int64_t id);

 private:
  history::HistoryStore& m_store;
  history::Backend& m_db;
};

}  // namespace ptsuite::serve
