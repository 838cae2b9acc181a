#include <ptsuite/results/response_times.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

void write_response_times(nlohmann::json& j, const ResponseTimes& t) {
  j["latency_mean_ns"] = t.latency_mean_ns;
  j["latency_p99_ns"] = t.latency_p99_ns;
  j["latency_p99_9_ns"] = t.latency_p99_9_ns;
  j["latency_p99_99_ns"] = t.latency_p99_99_ns;
  j["latency_p99_999_ns"] = t.latency_p99_999_ns;
  j["latency_max_ns"] = t.latency_max_ns;
}

ResponseTimes read_response_times(const nlohmann::json& j) {
  return {num(at(j, "latency_mean_ns")),     count(at(j, "latency_p99_ns")),     count(at(j, "latency_p99_9_ns")),
          count(at(j, "latency_p99_99_ns")), count(at(j, "latency_p99_999_ns")), count(at(j, "latency_max_ns"))};
}

}  // namespace ptsuite::results
