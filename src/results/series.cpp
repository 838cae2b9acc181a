#include <ptsuite/results/series.hpp>

#include <algorithm>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

void to_json(nlohmann::json& j, const IntervalSeries& series) { j = {{"end_s", series.end_s}, {"iops", series.iops}}; }

std::vector<double> read_numbers(const nlohmann::json& j) {
  std::vector<double> out;
  if (j.is_array()) {
    out.reserve(j.size());
    for (const nlohmann::json& v : j) {
      out.push_back(num(v));
    }
  }
  return out;
}

IntervalSeries read_interval_series(const nlohmann::json& series) {
  IntervalSeries s{read_numbers(at(series, "end_s")), read_numbers(at(series, "iops"))};
  const size_t n = std::min(s.end_s.size(), s.iops.size());
  s.end_s.resize(n);
  s.iops.resize(n);
  return s;
}

}  // namespace ptsuite::results
