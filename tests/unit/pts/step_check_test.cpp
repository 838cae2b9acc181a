// pts/step_check.hpp: every step of the worst-case plan resolved against the target before the
// first write, whatever makes a step impossible (a target too small for a block, an ActiveRange
// smaller than one); the plan it returns is make_plan's.
#include <gtest/gtest.h>

#include <string>

#include <ptsuite/pts/plan.hpp>
#include <ptsuite/pts/run.hpp>
#include <ptsuite/pts/step_check.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {
namespace {

using units::k_gib;

Settings settings_with(std::vector<std::pair<std::string, std::string>> overrides = {}) {
  return Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, {}, std::move(overrides));
}

std::string refusal(const std::string& test, const Settings& settings, engine::TargetGeometry geometry,
                    DeviceRunParams shape = {}) {
  try {
    (void)checked_worst_plan({test}, DefinitionSet::embedded(), {"2.0.2", "enterprise"}, settings, geometry, shape);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(StepCheck, ThePlanIsMakePlansWorstCase) {
  const Settings s = settings_with();
  const engine::TargetGeometry g{100 * k_gib, 512, 4096, 512};
  const Plan checked = checked_worst_plan({"iops", "throughput"}, DefinitionSet::embedded(), {"2.0.2", "enterprise"}, s,
                                          g, DeviceRunParams{});
  const Plan plain = make_plan({"iops", "throughput"}, DefinitionSet::embedded(), {"2.0.2", "enterprise"}, s,
                               {100 * k_gib, 512}, PlanCase::worst, {});
  ASSERT_EQ(checked.steps.size(), plain.steps.size());
  EXPECT_EQ(checked.total_ns, plain.total_ns);
  for (size_t i = 0; i < plain.steps.size(); ++i) EXPECT_EQ(checked.steps[i].id, plain.steps[i].id);
}

TEST(StepCheck, AStepThatCannotRunOnThisTargetIsNamedBeforeAnythingRuns) {
  // 512 KiB of capacity cannot hold the IOPS test's 1024 KiB random blocks.
  const std::string small = refusal("iops", settings_with(), {512 * 1024, 512, 512, 512});
  EXPECT_EQ(small.rfind("step iops/", 0), 0u) << small;
  EXPECT_NE(small.find("nothing was written"), std::string::npos) << small;
  // The whole-run parameters count too: an ActiveRange of 0.5 % of 64 MiB holds no 1 MiB block.
  DeviceRunParams shape;
  shape.active_range_pct = 0.5;
  const std::string ar = refusal("throughput", settings_with(), {64ULL << 20, 512, 512, 512}, shape);
  EXPECT_EQ(ar.rfind("step throughput/", 0), 0u) << ar;
}

}  // namespace
}  // namespace ptsuite::pts
