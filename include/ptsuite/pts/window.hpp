// Contract: aggregation of one segment's results over the Rounds of a measurement window
// (pure; reporters never aggregate). Per direction and combined:
//   ios, bytes           sums over the window
//   iops, mb_per_s       the AVERAGE of the per-Round values (PTS: reported value = average
//                        over the measurement window; same average the steady-state check uses)
//   latency mean         IO-weighted: sum(mean_r * ios_r) / sum(ios_r), i.e. the mean
//                        response time of every IO in the window, never a mean of means
//   latency stddev       pooled: sqrt(sum((n_r - 1) s_r^2 + n_r (mean_r - mean)^2) / (N - 1))
//   latency min / max    min / max over the window (MRT = the window's maximum)
//   percentiles          from the MERGED histogram of the window, clamped into [min, max]
#pragma once

#include <span>
#include <vector>

#include <ptsuite/pts/segment.hpp>

namespace ptsuite::pts {

stats::IoSummary aggregate_window(std::span<const SegmentResult* const> rounds);

}  // namespace ptsuite::pts
