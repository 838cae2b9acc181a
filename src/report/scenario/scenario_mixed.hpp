// A mixed phase (an app phase with streams: the application on some targets, the synthetic
// streams on the others over its measured period) on one time axis, for the scenario HTML,
// summary.txt and CSV: per interval of the application's progress series (seconds since its
// measured period began; the aggregate's series with several instances) the application's
// TPS, mean and 99 % transaction latency (what its driver reports, NaN otherwise) and the
// streams' IOs in that interval summed over every stream instance: IOPS, MB/s, mean and exact
// maximum response time. A stream interval belongs to the application interval holding its
// midpoint (its end shifted by the phase's streams_start_ns), so the two series line up
// whatever the streams' period; stream intervals past the application's last one (the few ms
// after its end) are left out and counted. Private to report/scenario.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <ptsuite/report/chart/model.hpp>
#include <ptsuite/results/scenario.hpp>

namespace ptsuite::report::scenario_detail {

struct MixedRow {
  double end_s = 0;  // the application interval's end, since its measured period began
  double length_s = 0;
  const results::AppInterval* app = nullptr;
  uint64_t stream_ios = 0;
  uint64_t stream_bytes = 0;
  double stream_iops = 0;
  double stream_mb_per_s = 0;
  double stream_mean_ns = 0;  // NaN without IOs
  double stream_max_ns = 0;   // NaN without IOs or when not recorded
};

struct MixedSeries {
  std::vector<MixedRow> rows;
  size_t left_out = 0;  // stream intervals past the application's last interval
};

// A phase the application ran in next to streams: kind app with a step.
bool is_mixed(const results::PhaseRecord& p);
MixedSeries mixed_series(const results::PhaseRecord& p);

// The time charts of a mixed phase: the application's TPS and the streams' IOPS over time
// (two charts, one x axis), and both sides' latency over time in one chart.
std::vector<chart::Chart> mixed_charts(const results::PhaseRecord& p, const MixedSeries& s, const std::string& id);

}  // namespace ptsuite::report::scenario_detail
