// Contract: the check every end-to-end run test makes that the plan's worst case is a bound
// (issue 37 item 4): a run's wall time from its start to its end, as results.json records them
// (run.started_utc .. run.finished_utc, each to the second), never exceeds the worst case the
// run planned before it started (results.json plan.worst_case_ns). Not a timing assertion: the
// bound is the run's own prediction, measured on its target under the machine's load
// (pts/plan_probe.hpp), and a loaded machine stretches both. Header-only; test code only.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
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
inline void expect_within_worst_case(const nlohmann::json& results) {
  const nlohmann::json& run = results.at("run");
  const int64_t started = utc_seconds(run.at("started_utc").get<std::string>());
  const int64_t finished = utc_seconds(run.at("finished_utc").get<std::string>());
  ASSERT_GE(started, 0);
  ASSERT_GE(finished, started);
  const double worst_s = results.at("plan").at("worst_case_ns").get<double>() / 1e9;
  EXPECT_LE(static_cast<double>(finished - started), std::ceil(worst_s) + 1.0)
      << "the run took longer than its planned worst case; plan: " << results.at("plan").dump();
}

}  // namespace ptsuite::test_support
