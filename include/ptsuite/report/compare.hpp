// Contract: `ptsuite compare` without IO beyond reading the runs: loads two or more runs'
// results documents, checks that they can be overlaid, and builds the comparison document
// (kind "ptsuite.compare", docs/compare.md) that compare_render.hpp renders to HTML and CSV.
//
//   load_run()          reads and hashes (SHA-256) one results document and reads it once
//                       through the extractor of its kind (compare_extractor.hpp);
//   find_differences()  every run-level field, setting and per-test workload field whose value
//                       is not the same in every run, workload ones flagged;
//   build_comparison()  refuses (UsageError, exit 2, one line naming the two runs and the first
//                       difference) fewer than two runs, runs of different kinds, no test in
//                       common, or a workload difference unless `force`; then the document.
//
// Matching: tests by id; a test is compared when every run has it. Values are copied from the
// documents; the only arithmetic is the relative difference of each run to the first run
// (delta_pct = (run - run 1) / run 1 x 100), unit conversions the extractor documents, and the
// delta tables at the chosen x values (--at): a run's value at a step of exactly that x, else
// linearly interpolated between its two neighbouring points (said per value), never
// extrapolated. Rankings order the runs of a test by the figures its extractor names.
// Deterministic (no clock): the same runs give the same document. Thread-safe.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/report/compare_extractor.hpp>
#include <ptsuite/results/comparison.hpp>

namespace ptsuite::report::compare {

inline constexpr int k_compare_schema_version = 2;
inline constexpr const char* k_compare_kind = "ptsuite.compare";

struct RunSource {
  std::string argument;  // as the user gave it: a directory or a history ID
  std::filesystem::path dir;
  std::filesystem::path results_path;
  std::optional<int64_t> history_id;
};

struct LoadedRun {
  RunSource source;
  std::string results_sha256;                // hex, of the file's bytes
  std::shared_ptr<const ComparableRun> run;  // the document, read once by its extractor
  std::string kind;                          // the document's "kind", which that extractor reads
};

// UsageError naming the argument when the file cannot be read, is not JSON, has a kind no
// extractor reads, or is a document of that kind the extractor cannot read.
LoadedRun load_run(const RunSource& source);
// The same from the document's text (a history's stored bundle: `ptsuite serve`).
LoadedRun load_run_text(const RunSource& source, const std::string& text);

struct Difference {
  std::string scope;                // "run", or the test id
  std::string field;                // "spec revision", "iops.segment_duration", "block sizes"
  std::vector<std::string> values;  // one per run, "" when the run has no such field
  bool workload = false;            // a workload difference: refuses the overlay unless forced
};

// Runs are given with their facts (extractor->facts()); `common_tests` are the ids in every run.
std::vector<Difference> find_differences(const std::vector<RunFacts>& facts,
                                         const std::vector<std::string>& common_tests);
// Ids of the tests every run has, in the first run's order.
std::vector<std::string> common_tests(const std::vector<RunFacts>& facts);

// A chosen x of the delta tables: "800MB/s", "800 MB/s", "50%", "20000IOPS", "10min", "800".
struct AtValue {
  double value = 0;
  std::string unit;  // "MB/s", "IOPS", "%", "min", "s", "Round"; "" = any linear axis
  std::string text;  // as given
};
// UsageError naming --at for anything else.
AtValue parse_at(const std::string& text);

struct Options {
  bool force = false;                      // overlay runs whose workloads differ, marking every difference
  results::CompareReportOptions report{};  // --series, --plot-targets
  std::vector<std::string> at{};           // --at, parsed by build_comparison
};

// The comparison document (results/comparison.hpp; results::to_json() writes compare.json).
// UsageError (before anything is written) for a bad --at, --series or a --plot-targets drive
// that no run has, and for an --at that matches no group of any compared test.
results::Comparison build_comparison(const std::vector<LoadedRun>& runs, const Options& options);

// The delta table of one group at one x (empty rows when the group's x axis does not take it).
results::ComparedDelta delta_at(const results::ComparedTest& test, const results::ComparedGroup& group,
                                const std::vector<results::ComparedRun>& runs, const AtValue& at);
// The ranking of one test from each run's figures (empty order when a run has none).
results::Ranking rank_runs(const std::string& test, const std::string& title, const std::string& basis,
                           const std::vector<std::vector<RankValue>>& per_run);

}  // namespace ptsuite::report::compare
