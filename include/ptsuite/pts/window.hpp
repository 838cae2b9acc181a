// Contract: aggregation of one segment's results over the Rounds of a measurement window
// (pure; reporters never aggregate). Per direction and combined:
//   ios, bytes           sums over the window
//   iops, mb_per_s       the AVERAGE of the per-Round values (PTS: reported value = average
//                        over the measurement window; same average the steady-state check uses)
//   latency mean (ART)   window.art ([U], pts/common.json "window_statistics"):
//                          round-mean   the arithmetic mean of the Rounds' ARTs, as CH and
//                                       ADATA report it, and as the steady-state table averages
//                                       a response-time tracking variable (the default);
//                          io-weighted  sum(mean_r * ios_r) / sum(ios_r): the mean response
//                                       time of every IO of the window
//   latency max (MRT)    window.mrt ([U]): round-mean, the mean of the Rounds' maxima (CH, ADATA;
//                        the default), or max, the window's maximum
//   latency stddev       pooled over every IO: sqrt(sum((n_r - 1) s_r^2 + n_r (mean_r - m)^2) /
//                        (N - 1)) with m the IO-weighted mean, whatever window.art says
//   latency min          the window's minimum
//   percentiles          from the MERGED histogram of the window ("5 9s" is a percentile of all
//                        the window's IOs, never an average), clamped into [min, the window's
//                        true maximum]
#pragma once

#include <span>
#include <vector>

#include <ptsuite/pts/segment.hpp>

namespace ptsuite::pts {

// window.art / window.mrt, read from the settings by apply_round_rules() (test_procedure.hpp).
struct WindowStatistics {
  bool art_round_mean = true;  // false: io-weighted
  bool mrt_round_mean = true;  // false: the window's maximum
};

stats::IoSummary aggregate_window(std::span<const SegmentResult* const> rounds, WindowStatistics rules);

}  // namespace ptsuite::pts
