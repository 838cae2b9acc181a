// The rows every scenario report prints (HTML table, summary.txt, CSV): one per step, scope
// (each target, then the aggregate when there are several) and direction (read and write when
// both have IOs, then "R+W" with the combined values; else the one direction there is), and
// the latency statistics in the order the reviews print them. Private to report/scenario.
#pragma once

#include <string>
#include <vector>

#include <ptsuite/results/scenario.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::report::scenario_detail {

struct StepRow {
  size_t step = 0;    // index into the phase's steps
  std::string scope;  // "target 1", "all (aggregate)"
  std::string dir;    // "read", "write", "R+W"
  const results::DirectionRecord* values = nullptr;
  bool first_of_step = false;  // the step's first row (its label is printed there)
};

// `aggregate_only` (--compact): with several targets only the aggregate's rows.
std::vector<StepRow> step_rows(const results::PhaseRecord& phase, size_t targets, bool aggregate_only = false);

// "target 1" for index 0: what every report prints (people number targets from 1).
std::string target_name(size_t i);

// The latency columns: (heading, percentile key or "" for a moment, moment accessor).
struct LatencyColumn {
  const char* heading;  // "Mean", "StdDev", "99 %", ...
  const char* key;      // "mean", "stddev", "99", "99.9", "99.99", "max"
};
inline constexpr LatencyColumn k_latency_columns[] = {{"Mean", "mean"},   {"StdDev", "stddev"}, {"99 %", "99"},
                                                      {"99.9 %", "99.9"}, {"99.99 %", "99.99"}, {"Max", "max"}};
// The value of one latency column in ns (NaN when absent).
double latency_ns(const results::LatencyRecord& l, const char* key);
// The unit a table of these rows prints its latency columns in (units::latency_unit_for).
units::LatencyUnit latency_unit_of(const std::vector<StepRow>& rows);

}  // namespace ptsuite::report::scenario_detail
