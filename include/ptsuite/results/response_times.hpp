// Contract: the response times a per-sample or per-cell record reports (WSAT and
// endurance-write samples, latency-sweep cells): the mean, the 99 / 99.9 / 99.99 / 99.999 %
// percentiles and the maximum, in ns, written flat into the record that holds them
// ("latency_mean_ns", "latency_p99_ns", ...). Percentiles and the maximum are histogram
// bounds, whole ns; the mean is a double. The reader is tolerant (missing: 0 / NaN).
#pragma once

#include <cstdint>

#include <nlohmann/json_fwd.hpp>

namespace ptsuite::results {

struct ResponseTimes {
  double latency_mean_ns = 0;
  uint64_t latency_p99_ns = 0;
  uint64_t latency_p99_9_ns = 0;
  uint64_t latency_p99_99_ns = 0;
  uint64_t latency_p99_999_ns = 0;
  uint64_t latency_max_ns = 0;
};

// Adds the six members to the object `j`.
void write_response_times(nlohmann::json& j, const ResponseTimes& t);
ResponseTimes read_response_times(const nlohmann::json& j);

}  // namespace ptsuite::results
