// Contract: the comparison document of `ptsuite compare` (kind "ptsuite.compare", compare.json,
// pts/schema/compare.schema.json; docs/compare.md), typed: the runs with their drive identity,
// the differences between them, and per compared test the merged value groups (a cells group:
// the union of the runs' cells, each run's value per cell and its difference to run 1 in %; a
// series group: each run's own points; for runs of several drives each drive's values too),
// the rankings of the runs (tests whose runs can be ordered, e.g. replays of one capture), the
// delta tables at the steps the user chose (--at: each run's value there, per group and per
// drive, and its difference to run 1) and the chart options (--series, --plot-targets). report/compare.hpp's
// build_comparison() fills it, the HTML and CSV renderers (report/compare_render.hpp) take it, and to_json() is the one
// writer of compare.json. read_comparison() is tolerant like every results reader (results/json_read.hpp): a missing or
// mistyped member reads as "" / NaN / nullopt / empty, never throws. Numbers: a missing value is NaN (written as null);
// latency stays in ns as the runs hold it. Plain values, no state; thread-safe.
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
// The x axis of a group: category labels, block sizes in bytes (log), numbers (linear), or
// numbers on a log axis (response times of histogram bars).
enum class XAxis { category, block_size, linear, log };

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
  bool simulated = false;          // a simulated drive's run (results/simulation.hpp): the report says so
};

// "SIMULATED: Run 2 is a simulated drive's run (...)": the banner of a comparison any of whose
// runs is simulated; "" when none is.
std::string simulation_banner(const std::vector<ComparedRun>& runs);

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

// One drive of a run of several drives (a scenario run's target) in a group: its value per cell
// of the group (cells) or its own finite points (series).
struct ComparedDrive {
  uint32_t target = 0;  // the target's index in its run
  std::string name;     // "target 1"
  std::vector<double> values;
  std::vector<ComparedPoint> points;
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
  std::string x_unit;  // the unit of x on a linear axis ("MB/s", "IOPS", "%", "min", "Round"); "" = none
  bool lines = false;  // "draw": "lines" - each run's points joined in x order (curves, steps over a rate)
  // drives[run]: that run's drives (empty for a run of one drive).
  std::vector<std::vector<ComparedDrive>> drives;
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

// What the charts of runs of several drives draw ("report", docs/compare.md): "drives" (each
// plotted drive), "aggregate" (each run's group), "both", or "auto" (both for up to 4 plotted
// drives per run, else aggregate); plot_targets picks the drives drawn (empty = all).
struct CompareReportOptions {
  std::string series = "auto";
  std::vector<uint32_t> plot_targets;
};

// One row of a delta table: a run's group ("group") or one drive index of every run ("drive").
struct DeltaRow {
  std::string scope;  // "group" or "drive"
  std::optional<uint32_t> target;
  std::string label;              // "group", "target 1"
  std::vector<double> values;     // per run, in the group's unit; NaN = none
  std::vector<std::string> how;   // per run: "step" (a step at exactly that x), "interpolated", "missing"
  std::vector<double> delta;      // per run: value - run 1's value of the row (NaN for run 1)
  std::vector<double> delta_pct;  // the same in % of run 1's
};

// A delta table: the values of one group at one chosen x (--at 800MB/s), the way the reviews
// quote them ("at 800 MB/s one group had a 108 us lead").
struct ComparedDelta {
  std::string test;
  std::string group;  // the group's id
  std::string title;
  std::string metric;
  std::string unit;    // of the values: "ns", "IOPS", "MB/s"
  std::string x_unit;  // of `at`
  double at = 0;
  std::string at_label;  // "800 MB/s"
  std::string better;    // "lower" (latency) or "higher" (IOPS, MB/s)
  std::vector<DeltaRow> rows;
  std::string summary;  // the sentence: "At 800 MB/s Run 1 ... had a 108 us lead ..."
};

// One figure a ranking orders the runs by, with each run's value.
struct RankFigure {
  std::string metric;          // "steps_fell_behind", "latency_mean_ns", "iops"
  std::string label;           // "steps that could not keep up"
  std::string unit;            // "steps", "ns", "IOPS"
  std::string better;          // "lower" or "higher"
  std::vector<double> values;  // per run; NaN = none (ranked last)
};

// The runs of one test ranked: by the first figure, ties broken by the next.
struct Ranking {
  std::string test;
  std::string title;
  std::string basis;  // what is ranked on, in words
  std::vector<RankFigure> figures;
  std::vector<uint32_t> order;  // run indexes, best first
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
  CompareReportOptions report;
  std::vector<std::string> at;  // the --at values asked, as given
  std::vector<ComparedDelta> deltas;
  std::vector<Ranking> rankings;
};

// compare.json as `ptsuite compare` writes it (every member; non-finite numbers as null).
nlohmann::json to_json(const Comparison& comparison);
Comparison read_comparison(const nlohmann::json& document);
}  // namespace ptsuite::results
