// The durations rule (pts/duration_rule.hpp) as a verdict table: every time-scaling setting of
// every revision and profile, lowered below its floor, raised above its default and (for a
// [U] value with its own floor) set at the floor, judged one by one; then whole tests judged
// end to end, including the 60-second XSR that a lab must never see called compliant.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include <ptsuite/pts/compliance.hpp>
#include <ptsuite/pts/duration_rule.hpp>
#include <ptsuite/pts/test_procedure.hpp>
#include <ptsuite/util/units.hpp>

#include "support/fake_step_executor.hpp"

namespace ptsuite::pts {
namespace {

using nlohmann::json;

// A value of the setting's type with the given magnitude (ns, count, number).
std::string text_for(const SettingRecord& r, double magnitude) {
  if (r.type == "duration") {
    return fmt::format("{}ms", static_cast<uint64_t>(std::llround(magnitude / 1e6)));
  }
  if (r.type == "count") {
    return fmt::format("{}", static_cast<uint64_t>(std::llround(magnitude)));
  }
  return fmt::format("{}", magnitude);
}

// The setting as it is after `--set name=text` (bounds checked by the real builder).
SettingRecord with_value(const SpecContext& spec, const std::string& name, const std::string& text) {
  const Settings s = Settings::build(DefinitionSet::embedded(), spec, {}, {{name, text}});
  return s.record(name);
}

struct Case {
  SpecContext spec;
  SettingRecord setting;
};

std::vector<Case> every_time_scaling_setting() {
  std::vector<Case> out;
  for (const SpecContext& spec :
       {SpecContext{"2.0.2", "enterprise"}, SpecContext{"2.0.2", "client"}, SpecContext{"e1.1", "enterprise"}}) {
    const Settings settings = Settings::build(DefinitionSet::embedded(), spec, {}, {});
    for (const SettingRecord& r : settings.all()) {
      if (r.time_scaling && !r.operator_choice) {
        out.push_back({spec, r});
      }
    }
  }
  return out;
}

// A value one step below the floor: half of a duration or number, one less of a count.
double below(const SettingRecord& r) {
  const double floor = setting_magnitude(r.type, r.floor);
  return r.type == "count" ? floor - 1 : floor / 2;
}

TEST(DurationRule, EveryTimeScalingSettingLoweredBelowItsFloorShortensWhateverItsTag) {
  size_t judged = 0;
  for (const Case& c : every_time_scaling_setting()) {
    const double v = below(c.setting);
    if (v < c.setting.min) {
      continue;  // the floor is the lowest accepted value (max_rounds >= 5 is below its floor)
    }
    const SettingRecord lowered = with_value(c.spec, c.setting.name, text_for(c.setting, v));
    const DurationFinding f = judge_time_scaling(lowered, /*round_cap_stopped=*/true);
    EXPECT_EQ(f.judgement, DurationJudgement::shortened)
        << c.setting.name << " [" << to_tag(c.setting.provenance.tag) << "] " << c.spec.revision << ": " << f.why;
    ++judged;
  }
  EXPECT_GE(judged, 40u);  // every duration of every test, not a sample
}

TEST(DurationRule, RaisingAFixedSegmentOrRoundLengthIsADeviationAnythingElseIsDisclosed) {
  size_t deviations = 0;
  for (const Case& c : every_time_scaling_setting()) {
    const double v = setting_magnitude(c.setting.type, c.setting.default_value) * 2;
    if (v > c.setting.max) {
      continue;
    }
    const SettingRecord raised = with_value(c.spec, c.setting.name, text_for(c.setting, v));
    const DurationFinding f = judge_time_scaling(raised, false);
    const DurationJudgement want =
        c.setting.raised_is_deviation ? DurationJudgement::deviation : DurationJudgement::longer;
    EXPECT_EQ(f.judgement, want) << c.setting.name;
    deviations += c.setting.raised_is_deviation ? 1 : 0;
  }
  EXPECT_GE(deviations, 15u);
}

// "raised": "deviation" marks what the spec fixes: never a [U] value, never an operator's choice.
TEST(DurationRule, OnlyVerifiedOrInferredSegmentAndRoundLengthsAreFixedAgainstRaising) {
  for (const Case& c : every_time_scaling_setting()) {
    if (c.setting.raised_is_deviation) {
      EXPECT_NE(c.setting.provenance.tag, Confidence::unverified) << c.setting.name;
    }
    if (c.setting.provenance.tag != Confidence::unverified) {
      EXPECT_EQ(c.setting.floor, c.setting.default_value) << c.setting.name << ": a spec value is its own floor";
    }
  }
}

TEST(DurationRule, AnUnverifiedValueAtOrAboveItsFloorIsDisclosedWithTheFloorAndItsSource) {
  const SpecContext spec{"2.0.2", "enterprise"};
  for (const char* name : {"xsr.access_1_duration", "xsr.access_3_duration", "cbw.precondition_round_duration",
                           "dirth.precondition_round_duration"}) {
    const SettingRecord base = Settings::build(DefinitionSet::embedded(), spec, {}, {}).record(name);
    ASSERT_NE(base.floor, base.default_value) << name << " has a cited lower value";
    EXPECT_FALSE(base.floor_source.empty()) << name;
    const SettingRecord at_floor = with_value(spec, name, base.floor.get<std::string>());
    const DurationFinding f = judge_time_scaling(at_floor, false);
    EXPECT_EQ(f.judgement, DurationJudgement::unverified_at_floor) << name;
    EXPECT_NE(f.why.find(base.floor_source), std::string::npos) << f.why;
  }
  // PTSU runs access group 1 for 6 h: 6 h is disclosed, 5 h59 is shortened and says why.
  const SettingRecord short_xsr = with_value(spec, "xsr.access_1_duration", "359min");
  const DurationFinding f = judge_time_scaling(short_xsr, false);
  EXPECT_EQ(f.judgement, DurationJudgement::shortened);
  EXPECT_NE(f.why.find("below 6h"), std::string::npos) << f.why;
}

TEST(DurationRule, ALoweredRoundCapShortensOnlyWhenItStoppedALoop) {
  const SettingRecord cap = with_value({"2.0.2", "enterprise"}, "max_rounds", "6");
  EXPECT_EQ(judge_time_scaling(cap, true).judgement, DurationJudgement::shortened);
  EXPECT_EQ(judge_time_scaling(cap, false).judgement, DurationJudgement::cap_unused);
  const SettingRecord past = with_value({"2.0.2", "enterprise"}, "max_rounds", "40");
  EXPECT_EQ(judge_time_scaling(past, true).judgement, DurationJudgement::longer);  // the spec allows continuing
}

TEST(DurationRule, ACapStoppedLoopIsReadFromThePhasesAndFromWsatsSteadyStateStop) {
  const json attained{{"steady_state", {{"attained", true}, {"rounds_run", 5}, {"max_rounds", 6}}}};
  const json at_cap{{"steady_state", {{"attained", false}, {"rounds_run", 6}, {"max_rounds", 6}}}};
  EXPECT_FALSE(round_cap_stopped(json{{"phases", {attained}}}));
  EXPECT_TRUE(round_cap_stopped(json{{"phases", {attained, at_cap}}}));
  EXPECT_FALSE(round_cap_stopped(json{{"phases", json::array()}}));
  // A phase record without its counts is judged as stopped: never a lenient disclosure.
  EXPECT_TRUE(round_cap_stopped(json{{"phases", {json{{"steady_state", {{"attained", false}}}}}}}));
  const json wsat_cap{{"attained", false}, {"rounds", 6}, {"max_rounds", 6}};
  EXPECT_TRUE(round_cap_stopped(json{{"phases", json::array()}, {"wsat", {{"steady_state", wsat_cap}}}}));
}

// --- whole tests judged end to end over the fake executor -----------------------------------

ComplianceVerdict judge_test(const std::string& test, std::vector<std::pair<std::string, std::string>> overrides,
                             double noise = 0, std::vector<std::string> presets = {}) {
  const SpecContext spec{"2.0.2", "enterprise"};
  const Settings settings = Settings::build(DefinitionSet::embedded(), spec, presets, overrides);
  auto factor = [noise](const StepId& id) {
    const bool odd = !id.name.empty() && id.name[0] == 'r' && (id.name[3] - '0') % 2 == 1;
    return 1.0 + (odd ? noise : 0.0);
  };
  testing::FakeExecutor exec(
      [factor](const StepId& id, const SegmentSpec&) { return 1000.0 * factor(id); },
      [factor](const StepId& id, const SegmentSpec&) { return static_cast<uint64_t>(100'000.0 * factor(id)); });
  exec.purge_result = {{"method", "nvme-format"}, {"pts_compliant", true}, {"outcome", "succeeded"}};
  TestContext ctx{DefinitionSet::embedded(), spec, settings, exec, {1ull << 30, 512}};
  json rec = make_test(test)->run(ctx);
  const json applied{{"applicable", true}, {"enabled", false}, {"note", ""}};
  rec["write_cache"] = {{"requested_enabled", false}, {"original", applied}, {"applied", applied}};
  rec["status"] = "complete";
  return evaluate_test_compliance(rec, {DefinitionSet::embedded(), settings, "libaio"});
}

bool has_detail(const ComplianceVerdict& v, const std::string& clause, ClauseStatus status, const std::string& text) {
  return std::any_of(v.clauses.begin(), v.clauses.end(), [&](const ClauseVerdict& c) {
    return c.clause == clause && c.status == status && c.detail.find(text) != std::string::npos;
  });
}

// The audit's worst case: 3 x 20 s instead of 22 h, on a drive whose purge and cache pass.
TEST(DurationRule, ASixtySecondXsrIsNotCompliantShortened) {
  const ComplianceVerdict v = judge_test(
      "xsr", {{"xsr.access_1_duration", "20s"}, {"xsr.access_2_duration", "20s"}, {"xsr.access_3_duration", "20s"}});
  EXPECT_FALSE(v.compliant);
  EXPECT_TRUE(v.shortened);
  EXPECT_EQ(v.summary, "not compliant: shortened");
  EXPECT_TRUE(has_detail(v, "durations", ClauseStatus::fail, "xsr.access_2_duration = 20s")) << json(v).dump(1);
  EXPECT_FALSE(has_detail(v, "durations", ClauseStatus::pass, "no spec duration"));
}

TEST(DurationRule, EveryUnverifiedLimitTheAuditNamedShortensWhenLowered) {
  EXPECT_TRUE(judge_test("wsat", {{"wsat.time_limit", "1h"}}).shortened);
  EXPECT_TRUE(judge_test("hir", {{"hir.precondition_segments", "2"}}).shortened);
  for (const char* test : {"cbw", "dirth"}) {
    const std::string name = std::string(test) + ".precondition_round_duration";
    EXPECT_TRUE(judge_test(test, {{name, "10s"}}).shortened) << name;
    const ComplianceVerdict ten = judge_test(test, {{name, "10min"}});
    EXPECT_FALSE(ten.shortened) << name << ": at or above the 1-minute floor";
    EXPECT_TRUE(has_detail(ten, "settings", ClauseStatus::disclosed, name + " = 10min")) << json(ten).dump(1);
  }
}

TEST(DurationRule, ARaisedSegmentLengthFailsAsADeviationNotAsShortened) {
  const ComplianceVerdict v = judge_test("latency", {{"latency.segment_duration", "2min"}});
  EXPECT_FALSE(v.compliant);
  EXPECT_FALSE(v.shortened) << json(v).dump(1);
  EXPECT_EQ(v.summary, "not compliant");
  EXPECT_TRUE(has_detail(v, "durations", ClauseStatus::fail, "a longer one is a deviation"));
  const ComplianceVerdict capture = judge_test("latency", {{"latency.capture_duration", "40min"}});
  EXPECT_TRUE(capture.compliant) << json(capture).dump(1);  // a longer capture is only disclosed
}

TEST(DurationRule, ALoweredCapThatSteadyStateBeatIsDisclosedAndOneThatStoppedTheLoopShortens) {
  const ComplianceVerdict steady = judge_test("latency", {{"max_rounds", "6"}});
  EXPECT_TRUE(steady.compliant) << json(steady).dump(1);
  EXPECT_TRUE(has_detail(steady, "settings", ClauseStatus::disclosed, "max_rounds = 6"));
  const ComplianceVerdict swinging = judge_test("latency", {{"max_rounds", "6"}}, 2.0);
  EXPECT_TRUE(swinging.shortened);
  EXPECT_TRUE(has_detail(swinging, "durations", ClauseStatus::fail, "max_rounds = 6"));
  const ComplianceVerdict longer = judge_test("latency", {{"max_rounds", "40"}}, 2.0);
  EXPECT_FALSE(longer.shortened);
  EXPECT_TRUE(has_detail(longer, "settings", ClauseStatus::disclosed, "max_rounds = 40"));
}

TEST(DurationRule, EveryQuickRunIsShortenedExtensionsIncluded) {
  for (const char* test : {"iops", "throughput", "latency", "wsat", "cbw", "hir", "xsr", "dirth", "endurance-write",
                           "latency-sweep", "rww-sweep", "rww-streams", "rww-replay"}) {
    EXPECT_TRUE(judge_test(test, {}, 0, {"quick"}).shortened) << test;
  }
}

}  // namespace
}  // namespace ptsuite::pts
