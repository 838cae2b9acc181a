// Contract: the check every end-to-end run test makes that the plan's worst case is a bound
// (issue 37 item 4): a run's wall time from its start to its end, as results.json records them
// (run.started_utc .. run.finished_utc, each to the second), never exceeds the worst case the
// run planned before it started (results.json plan.worst_case_ns). Not a timing assertion: the
// bound is the run's own prediction, measured on its target under the machine's load
// (pts/plan_probe.hpp), and a loaded machine stretches both. Header-only; test code only.
// The stamps are wall-clock time, which a time sync may step while the run goes (CI of
// 2026-12-03: a fresh VM's clock jumped ~16 s, a 12.4 s run read 28 s and failed). So the span
// checked is the smaller of the stamps' span and the child process's span on the monotonic clock
// (fork to reap: it contains the run, so it bounds it from above); a run that truly overran its
// plan exceeds both.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <string>

#include <nlohmann/json.hpp>

namespace ptsuite::test_support {

// Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ"; -1 when it is not that.
inline int64_t utc_seconds(const std::string& text) {
  std::tm t{};
  if (strptime(text.c_str(), "%Y-%m-%dT%H:%M:%SZ", &t) == nullptr) {
    return -1;
  }
  return static_cast<int64_t>(timegm(&t));
}

// Both stamps are truncated to the second, so the measured span may read up to 1 s long.
// `process_wall_ns`: the ptsuite child's monotonic span (ProcessResult::wall_ns).
inline void expect_within_worst_case(const nlohmann::json& results, uint64_t process_wall_ns) {
  const nlohmann::json& run = results.at("run");
  const int64_t started = utc_seconds(run.at("started_utc").get<std::string>());
  const int64_t finished = utc_seconds(run.at("finished_utc").get<std::string>());
  ASSERT_GE(started, 0);
  ASSERT_GE(finished, started);
  ASSERT_GT(process_wall_ns, 0u) << "pass the child's ProcessResult::wall_ns";
  const double stamps_s = static_cast<double>(finished - started);
  const double monotonic_s = static_cast<double>(process_wall_ns) / 1e9;
  const double worst_s = results.at("plan").at("worst_case_ns").get<double>() / 1e9;
  EXPECT_LE(std::min(stamps_s, monotonic_s), std::ceil(worst_s) + 1.0)
      << "the run took longer than its planned worst case (stamps " << stamps_s << " s, process " << monotonic_s
      << " s on the monotonic clock); plan: " << results.at("plan").dump();
}

}  // namespace ptsuite::test_support
