// Private to report/replay: the replay report's sections that show what the replay measured of
// the target (replay_report.hpp): the response times per step and the rate ramp's load curve.
// Each lays its charts and tables onto pages through html::PageFlow (tables split with their
// heading on every page). Latencies are shown in the unit their table's largest value calls
// for (html::latency_unit: us below 1 ms).
#pragma once

#include <string>

#include <ptsuite/report/html/page_flow.hpp>
#include <ptsuite/results/replay.hpp>

namespace ptsuite::report::replay_detail {

// "read", "write", "R+W": the directions of a latency record with IOs, each with its label.
struct DirectionRow {
  const char* label;
  const results::ReplayDirectionLatency* figures;
};
std::vector<DirectionRow> directions_of(const results::ReplayLatency& l);

// Per step: a chart of the mean, 99, 99.9 % and maximum response time of all replayed IOs, and
// a table per step and direction (IOs, IOPS, mean, stddev, 50 / 99 / 99.9 / 99.99 %, max).
void latency_section(html::PageFlow& flow, const results::ReplayRecord& r);
// The rate ramp: the load curves (response time vs IOPS achieved) and the table of its points.
void ramp_section(html::PageFlow& flow, const results::ReplayRecord& r);
// One line per direction of the whole replay's response times (the summary and the text), in
// microseconds when its maximum is below 1 ms, else milliseconds; `ascii` spells us for the
// console, the HTML \u00b5s.
std::string latency_line(const results::ReplayDirectionLatency& d, const char* label, bool ascii);

}  // namespace ptsuite::report::replay_detail
