// Contract: the JSON forms of the statistics written to and read back from results files
// (nlohmann::json; found by ADL, so `json j = summary;` and `j.get<DirectionSummary>()` work).
// Pure functions, thread-safe.
//
// DirectionSummary (every key carries its unit; MB is decimal, 10^6 bytes):
//   {"ios": 1000, "bytes": 4096000, "iops": 10000.0, "mb_per_s": 40.96,
//    "latency_ns": {"min": 80, "max": 9000, "mean": 95.5, "stddev": 12.25,
//                   "percentiles": {"1": 81, "50": 95, "99.9": 500, ...}}}
//   Percentile keys are the shortest decimal spelling of the percentile ("1", "99.9",
//   "99.9999"); from_json orders them numerically (JSON objects carry no order).
// IoSummary: {"read": DirectionSummary, "write": ..., "combined": ...}.
// LatencyHistogram, exact, as runs of consecutive buckets (long stretches of empty buckets
// are omitted):
//   {"layout": "log-linear", "sub_bucket_bits": 7, "buckets": [[lower_ns, count, count, ...], ...]}
//   lower_ns is the inclusive lower bound of a bucket of the layout in latency_histogram.hpp;
//   the counts are of that bucket and the ones after it, in order (zeros only inside a run, for
//   a few empty buckets between occupied ones); runs ascending and disjoint. A run of one count,
//   [lower_ns, count], is the earlier pairs form, which is read the same way. from_json
//   rebuilds the identical histogram.
//
// from_json throws ptsuite::UsageError naming the field for input that is not of this form:
// a different layout or sub_bucket_bits, a lower_ns that is not a bucket bound, runs out of
// order or overlapping, a run starting or ending with a zero count, missing keys or wrong types.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <ptsuite/stats/latency_histogram.hpp>
#include <ptsuite/stats/latency_stats.hpp>

namespace ptsuite::stats {

inline constexpr const char* k_histogram_layout_name = "log-linear";

void to_json(nlohmann::json& j, const DirectionSummary& summary);
void from_json(const nlohmann::json& j, DirectionSummary& summary);

void to_json(nlohmann::json& j, const IoSummary& summary);
void from_json(const nlohmann::json& j, IoSummary& summary);

void to_json(nlohmann::json& j, const LatencyHistogram& histogram);
void from_json(const nlohmann::json& j, LatencyHistogram& histogram);

}  // namespace ptsuite::stats
