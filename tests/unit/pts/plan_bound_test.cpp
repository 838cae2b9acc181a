// The end-to-end runs' plan bound (tests/support/plan_bound.hpp) holds when a time sync steps the
// wall clock during the run (the stamps' span is then too long, the process's monotonic span is
// not) and still fails a run that overran its plan by both measures.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/plan_bound.hpp"

namespace ptsuite::test_support {
namespace {

nlohmann::json results_with(const std::string& started, const std::string& finished, double worst_case_ns) {
  return {{"run", {{"started_utc", started}, {"finished_utc", finished}}},
          {"plan", {{"worst_case_ns", worst_case_ns}}}};
}

constexpr uint64_t k_ns_per_s = 1'000'000'000;

TEST(PlanBound, AWallClockStepDuringTheRunIsNotAnOverrun) {
  // CI of 2026-12-03: a 12.4 s run stamped 28 s apart, plan 14.7 s.
  const nlohmann::json results = results_with("2026-12-03T03:00:00Z", "2026-12-03T03:00:28Z", 14.7e9);
  expect_within_worst_case(results, 12'400'000'000);
}

TEST(PlanBound, ARunOverItsPlanByBothClocksFails) {
  const nlohmann::json results = results_with("2026-12-03T03:00:00Z", "2026-12-03T03:00:28Z", 14.7e9);
  EXPECT_NONFATAL_FAILURE(expect_within_worst_case(results, 28 * k_ns_per_s), "longer than its planned worst case");
}

TEST(PlanBound, StampsWithinThePlanPassWhateverTheProcessAddedAroundTheRun) {
  // The process span contains start-up and the last reports; the stamps do not.
  const nlohmann::json results = results_with("2026-12-03T03:00:00Z", "2026-12-03T03:00:15Z", 14.7e9);
  expect_within_worst_case(results, 40 * k_ns_per_s);
}

}  // namespace
}  // namespace ptsuite::test_support
