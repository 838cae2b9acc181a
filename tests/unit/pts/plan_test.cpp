#include <gtest/gtest.h>

#include <ptsuite/pts/plan.hpp>

namespace ptsuite::pts {
namespace {

constexpr uint64_t k_min_ns = 60'000'000'000ull;
constexpr uint64_t k_gib = 1ull << 30;

struct PlanFixture {
  Settings settings;
  explicit PlanFixture(std::vector<std::pair<std::string, std::string>> overrides = {},
                       std::vector<std::string> presets = {})
      : settings(Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, presets, overrides)) {}
  Plan plan(const std::vector<std::string>& tests, PlanCase c, uint64_t capacity = 100 * k_gib) {
    return make_plan(tests, DefinitionSet::embedded(), {"2.0.2", "enterprise"}, settings, {capacity, 512}, c,
                     PlanAssumptions{});
  }
};

size_t count(const Plan& p, const std::string& kind) {
  return static_cast<size_t>(
      std::count_if(p.steps.begin(), p.steps.end(), [&](const PlanStep& s) { return s.kind == kind; }));
}

TEST(Plan, IopsBestAndWorstCaseStepCountsAndDurations) {
  PlanFixture f;
  const Plan best = f.plan({"iops"}, PlanCase::best);
  const Plan worst = f.plan({"iops"}, PlanCase::worst);
  EXPECT_EQ(count(best, "segment"), 1u + 5u * 56u);    // WIPC + 5 Rounds
  EXPECT_EQ(count(worst, "segment"), 1u + 25u * 56u);  // WIPC + 25 Rounds
  EXPECT_EQ(count(worst, "purge"), 1u);
  EXPECT_EQ(count(worst, "health"), 25u);
  // WIPC: 2 x 100 GiB at 500 MB/s, estimated.
  const PlanStep& wipc = worst.steps[1];
  EXPECT_EQ(wipc.id, "iops/main/wipc");
  EXPECT_EQ(wipc.bytes, 200 * k_gib);
  EXPECT_TRUE(wipc.estimated);
  EXPECT_NEAR(static_cast<double>(wipc.duration_ns) / 1e9, 200.0 * k_gib / 500e6, 1.0);
  EXPECT_EQ(wipc.threads, 4u);
  EXPECT_EQ(wipc.queue_depth, 32u);
  // The 25-round worst case: 25 x 56 minutes of segments (the ~23.3 h of the spec) + WIPC + purge.
  EXPECT_EQ(worst.total_ns, 25 * 56 * k_min_ns + wipc.duration_ns + PlanAssumptions{}.purge_ns);
  EXPECT_EQ(best.total_ns, 5 * 56 * k_min_ns + wipc.duration_ns + PlanAssumptions{}.purge_ns);
}

TEST(Plan, WsatWorstCaseRunsToTheTimeLimitAndBestCaseStopsAtFourFills) {
  PlanFixture f;
  const Plan worst = f.plan({"wsat"}, PlanCase::worst);
  EXPECT_EQ(count(worst, "segment"), 360u + 1u);  // 6 h of 1-minute samples + the capture
  const Plan best = f.plan({"wsat"}, PlanCase::best, 10 * k_gib);
  // 4 x 10 GiB at 500 MB/s = 85.9 s of writing: 2 one-minute samples, then the capture.
  EXPECT_EQ(count(best, "segment"), 2u + 1u);
}

TEST(Plan, AllFiveTestsQuickPresetIsShort) {
  PlanFixture quick({}, {"quick"});
  const Plan worst = quick.plan({"iops", "throughput", "latency", "wsat", "cbw"}, PlanCase::worst, k_gib);
  const Plan best = quick.plan({"iops", "throughput", "latency", "wsat", "cbw"}, PlanCase::best, k_gib);
  EXPECT_LT(best.total_ns, worst.total_ns);
  EXPECT_EQ(count(worst, "purge"), 6u);  // iops, tp x2, latency, wsat, cbw
  // Quick worst case stays well under an hour even with assumed 2-minute purges.
  EXPECT_LT(worst.total_ns, 60 * k_min_ns);
}

TEST(Plan, PlanDoesNotDependOnAnyDevice) {
  PlanFixture f;
  const Plan a = f.plan({"latency"}, PlanCase::worst);
  const Plan b = f.plan({"latency"}, PlanCase::worst);
  ASSERT_EQ(a.steps.size(), b.steps.size());
  EXPECT_EQ(nlohmann::json(a.steps), nlohmann::json(b.steps));
  EXPECT_EQ(a.steps.back().id, "latency/capture/rt-histogram");
}

}  // namespace
}  // namespace ptsuite::pts
