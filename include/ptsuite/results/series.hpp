// Contract: an IOPS-vs-time series of one segment run with intervals ({"end_s": [...],
// "iops": [...]} in a record): one point per interval, its end in seconds since the segment
// started and its read + write IOPS over its own length. HIR's baselines and the CBW / DIRTH /
// ECW pre-writes carry one. Written by to_json(), read tolerantly by read_interval_series()
// (the shorter of the two arrays decides the length; non-numbers read NaN).
#pragma once

#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ptsuite::results {

struct IntervalSeries {
  std::vector<double> end_s;
  std::vector<double> iops;
};

void to_json(nlohmann::json& j, const IntervalSeries& series);
IntervalSeries read_interval_series(const nlohmann::json& series);

// The numbers of a JSON array (NaN for anything else); empty unless `j` is an array.
std::vector<double> read_numbers(const nlohmann::json& j);

}  // namespace ptsuite::results
