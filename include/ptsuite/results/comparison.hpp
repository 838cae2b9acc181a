// Contract: the comparison document of `ptsuite compare` (kind "ptsuite.compare", compare.json,
// pts/schema/compare.schema.json; docs/compare.md), typed: the runs with their drive identity,
// the differences between them, and per compared test the merged value groups (a cells group:
// the union of the runs' cells, each run's value per cell and its difference to run 1 in %; a
// series group: each run's own points). report/compare.hpp's build_comparison() fills it, the
// HTML and CSV renderers (report/compare_render.hpp) take it, and to_json() is the one writer of
// compare.json. read_comparison() is tolerant like every results reader (results/json_read.hpp):
// a missing or mistyped member reads as "" / NaN / nullopt / empty, never throws.
// Numbers: a missing value is NaN (written as null); latency stays in ns as the runs hold it.
// Plain values, no state; thread-safe.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <ptsuite/results/drive_identity.hpp>
#include <ptsuite/results/run_header.hpp>

namespace ptsuite::results {

// How a group is drawn: `cells` = one value per labelled cell (a table row; bars or a line over
// block sizes), `series` = a run's own points (x, y) such as IOPS vs time (no table).
enum class GroupKind { cells, series };
// The x axis of a group: category labels, block sizes in bytes (log), or numbers (linear).
enum class XAxis { category, block_size, linear };

// One compared run ("#/$defs/run").
struct ComparedRun {
  std::string label;     // "Run 1"
  std::string argument;  // as the user gave it: a directory or a history ID
  std::string dir;
  std::string results_path;
  std::string results_sha256;
  std::optional<int64_t> history_id;
  DriveIdentity identity;  // the drive it measured (target 0 of a scenario run)
  std::string revision;    // "spec": {"revision", "profile"}
  std::string profile;
  std::string started_utc;
  std::string tested_by;
  std::vector<std::string> tests;  // the run's test ids, in its order
};

// A field whose value is not the same in every run ("#/$defs/difference").
struct ComparisonDifference {
  std::string scope;                // "run", or the test id
  std::string field;                // "spec revision", "iops.segment_duration", "block sizes"
  std::vector<std::string> values;  // one per run, "" when the run has no such field
  bool workload = false;            // a workload difference (refused unless forced)
};

struct ComparedCell {
  std::string label;                                    // "4KiB", "65/35 8KiB"
  double x = std::numeric_limits<double>::quiet_NaN();  // on a block_size / linear axis
};

struct ComparedPoint {
  std::string cell;  // "sample 12"
  double x = 0;
  double y = 0;
};

// One group merged over every run ("#/$defs/group").
struct ComparedGroup {
  std::string id;      // "iops-65-35"
  std::string title;   // "IOPS \u2013 R/W 65/35"
  std::string metric;  // "iops", "latency_mean_ns"
  std::string unit;    // "IOPS", "MB/s", "ns"
  GroupKind kind = GroupKind::cells;
  XAxis x_axis = XAxis::category;
  std::string x_label;
  bool y_log = false;  // "y_scale": "log" / "linear"
  // kind cells: the union of the runs' cells, values[run][cell] and delta_pct[run][cell] (NaN =
  // missing; run 1's delta is always missing).
  std::vector<ComparedCell> cells;
  std::vector<std::vector<double>> values;
  std::vector<std::vector<double>> delta_pct;
  // kind series: each run's finite points, series[run].
  std::vector<std::vector<ComparedPoint>> series;
};

struct ComparedTest {
  std::string id;
  std::string title;
  std::vector<std::string> workload_differences;  // the test's workload fields that differ
  std::vector<ComparedGroup> groups;
};

// A test only some runs have: not compared.
struct UncomparedTest {
  std::string id;
  std::string run;  // "Run 2"
};

struct Comparison {
  int schema_version = 0;
  std::string kind;  // "ptsuite.compare"
  ToolRecord tool;
  std::string results_kind;  // the kind of the runs' documents: "ptsuite.results", ...
  bool forced = false;
  bool workloads_differ = false;
  std::vector<ComparedRun> runs;
  std::vector<ComparisonDifference> differences;
  std::vector<std::string> compared_tests;
  std::vector<UncomparedTest> tests_not_in_every_run;
  std::vector<ComparedTest> tests;
};

// compare.json as `ptsuite compare` writes it (every member; non-finite numbers as null).
nlohmann::json to_json(const Comparison& comparison);
Comparison read_comparison(const nlohmann::json& document);
}  // namespace ptsuite::results
