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
    // A limit is judged as the one that stopped the run (the record ended by its stop).
    const std::vector<RunEnding> stopped{{lowered.limit, lowered.name, "the run stopped at this limit"}};
    const DurationFinding f = judge_time_scaling(lowered, lowered.limit.empty() ? std::vector<RunEnding>{} : stopped);
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
    const DurationFinding f = judge_time_scaling(raised, {});
    const DurationJudgement want =
        c.setting.raised_is_deviation ? DurationJudgement::deviation : DurationJudgement::longer;
    EXPECT_EQ(f.judgement, want) << c.setting.name;
    deviations += c.setting.raised_is_deviation ? 1 : 0;
  }
  EXPECT_GE(deviations, 20u);  // HIR's repetitions and baseline, CBW/DIRTH's histogram pre-writes too
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
    const DurationFinding f = judge_time_scaling(at_floor, {});
    EXPECT_EQ(f.judgement, DurationJudgement::unverified_at_floor) << name;
    EXPECT_NE(f.why.find(base.floor_source), std::string::npos) << f.why;
  }
  // PTSU runs access group 1 for 6 h: 6 h is disclosed, 5 h59 is shortened and says why.
  const SettingRecord short_xsr = with_value(spec, "xsr.access_1_duration", "359min");
  const DurationFinding f = judge_time_scaling(short_xsr, {});
  EXPECT_EQ(f.judgement, DurationJudgement::shortened);
  EXPECT_NE(f.why.find("below the floor 6h (PTSU 06_XSR runs access group 1 for 6 h"), std::string::npos) << f.why;
}

// A [U] value below its floor is "below the floor F (source)", never "below the spec value":
// the spec does not state it (issue 37 item 3).
TEST(DurationRule, AnUnverifiedValueBelowItsFloorNamesTheFloorAndItsSource) {
  const SpecContext spec{"2.0.2", "enterprise"};
  const SettingRecord limit = with_value(spec, "wsat.time_limit", "1h");
  const DurationFinding f =
      judge_time_scaling(limit, {{"time_limit", "", "wsat stopped at its time limit (60 samples, 0.50X written)"}});
  EXPECT_EQ(f.judgement, DurationJudgement::shortened);
  EXPECT_EQ(f.why.find("spec value"), std::string::npos) << f.why;
  EXPECT_NE(f.why.find("below the floor 6h (the default: no cited source uses less; ADATA default 6 h"),
            std::string::npos)
      << f.why;
  const SettingRecord hir = with_value(spec, "hir.precondition_segments", "2");
  EXPECT_NE(judge_time_scaling(hir, {}).why.find("below the floor 30 (the default: no cited source uses less; CH"),
            std::string::npos);
  const SettingRecord segment = with_value(spec, "iops.segment_duration", "30s");  // [V]: the spec value
  EXPECT_EQ(judge_time_scaling(segment, {}).why, "below the spec value");
}

TEST(DurationRule, ALoweredRoundCapShortensOnlyWhenItStoppedALoop) {
  const SettingRecord cap = with_value({"2.0.2", "enterprise"}, "max_rounds", "6");
  const std::vector<RunEnding> stopped{{"round_cap", "max_rounds", "the main Round loop stopped at its cap"}};
  const std::vector<RunEnding> steady{{"steady_state", "", "the main Round loop stopped at steady state, Round 5"}};
  EXPECT_EQ(judge_time_scaling(cap, stopped).judgement, DurationJudgement::shortened);
  EXPECT_EQ(judge_time_scaling(cap, steady).judgement, DurationJudgement::cap_unused);
  // Another loop's cap (ECW's ecw.precondition_rounds) stopping is not max_rounds stopping.
  const std::vector<RunEnding> other{{"round_cap", "ecw.precondition_rounds", "the precondition loop ran 25"}};
  EXPECT_EQ(judge_time_scaling(cap, other).judgement, DurationJudgement::cap_unused);
  const SettingRecord past = with_value({"2.0.2", "enterprise"}, "max_rounds", "40");
  EXPECT_EQ(judge_time_scaling(past, stopped).judgement, DurationJudgement::longer);  // the spec allows continuing
}

TEST(DurationRule, EndingsAreReadFromThePhasesAndFromWsatsStop) {
  const json attained{{"steady_state", {{"attained", true}, {"rounds_run", 5}, {"max_rounds", 6}}}};
  const json at_cap{{"phase", "main"}, {"steady_state", {{"attained", false}, {"rounds_run", 6}, {"max_rounds", 6}}}};
  const auto stops = [](const json& record) {
    std::vector<std::string> out;
    for (const RunEnding& e : run_endings(record)) out.push_back(e.stop + ":" + e.setting);
    return out;
  };
  EXPECT_EQ(stops(json{{"phases", {attained}}}), std::vector<std::string>{"steady_state:"});
  EXPECT_EQ(stops(json{{"phases", {attained, at_cap}}}),
            (std::vector<std::string>{"steady_state:", "round_cap:max_rounds"}));
  EXPECT_TRUE(stops(json{{"phases", json::array()}}).empty());
  // A phase record without its counts is judged as stopped: never a lenient disclosure.
  EXPECT_EQ(stops(json{{"phases", {json{{"steady_state", {{"attained", false}}}}}}}),
            std::vector<std::string>{"round_cap:max_rounds"});
  // A fixed loop always ends at its count, which is its cap setting.
  const json fixed{{"steady_state",
                    {{"attained", false},
                     {"rounds_run", 25},
                     {"max_rounds", 25},
                     {"stop_rule", "fixed"},
                     {"round_cap_setting", "ecw.precondition_rounds"}}}};
  EXPECT_EQ(stops(json{{"phases", {fixed}}}), std::vector<std::string>{"round_cap:ecw.precondition_rounds"});
  for (const char* reason : {"capacity", "time_limit", "steady_state"}) {
    EXPECT_EQ(stops(json{{"id", "wsat"}, {"phases", json::array()}, {"wsat", {{"stop_reason", reason}}}}),
              std::vector<std::string>{std::string(reason) + ":"});
  }
  EXPECT_EQ(stops(json{{"id", "wsat"}, {"phases", json::array()}, {"wsat", {{"stop_reason", "round_cap"}}}}),
            std::vector<std::string>{"round_cap:max_rounds"});
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
  // The fake writes 4 MB a sample (1000 x 4 KiB over 1 s): 1024 samples fill 4X of 1 GiB, so a
  // 10-minute limit stops the run first, a 1-hour one does not (ShortenedOnlyWhenItStopped...).
  EXPECT_TRUE(judge_test("wsat", {{"wsat.time_limit", "10min"}}).shortened);
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
  EXPECT_TRUE(has_detail(v, "durations", ClauseStatus::fail, "a larger one is a deviation"));
  const ComplianceVerdict capture = judge_test("latency", {{"latency.capture_duration", "40min"}});
  EXPECT_TRUE(capture.compliant) << json(capture).dump(1);  // a longer capture is only disclosed
}

TEST(DurationRule, ALoweredCapThatSteadyStateBeatIsDisclosedAndOneThatStoppedTheLoopShortens) {
  const ComplianceVerdict steady = judge_test("latency", {{"max_rounds", "6"}});
  EXPECT_TRUE(steady.compliant) << json(steady).dump(1);
  EXPECT_TRUE(has_detail(steady, "settings", ClauseStatus::disclosed,
                         "never stopped the run (the main Round loop stopped at steady state, Round 5)"))
      << json(steady).dump(1);
  const ComplianceVerdict swinging = judge_test("latency", {{"max_rounds", "6"}}, 2.0);
  EXPECT_TRUE(swinging.shortened);
  EXPECT_TRUE(has_detail(swinging, "durations", ClauseStatus::fail, "max_rounds = 6"));
  // The verdict names the loop the cap stopped.
  EXPECT_TRUE(has_detail(swinging, "durations", ClauseStatus::fail,
                         "it stopped the run: the main Round loop stopped at its cap (max_rounds = 6) without steady "
                         "state"))
      << json(swinging).dump(1);
  const ComplianceVerdict longer = judge_test("latency", {{"max_rounds", "40"}}, 2.0);
  EXPECT_FALSE(longer.shortened);
  EXPECT_TRUE(has_detail(longer, "settings", ClauseStatus::disclosed, "max_rounds = 40"));
}

// `run wsat --set wsat.time_limit=1h` stopped at 4X capacity: the lowered limit never acted, so
// the run is the one the default limit gives - disclosed, naming what stopped it; likewise under
// wsat.stop_rule=steady-state, which ignores the limit. A limit that did stop it shortens, and
// the verdict says so (issue 37 item 2).
TEST(DurationRule, ALoweredLimitIsShortenedOnlyWhenItStoppedTheRun) {
  const ComplianceVerdict capacity = judge_test("wsat", {{"wsat.time_limit", "1h"}});
  EXPECT_FALSE(capacity.shortened) << json(capacity).dump(1);
  EXPECT_EQ(capacity.summary, "compliant");
  EXPECT_TRUE(has_detail(capacity, "settings", ClauseStatus::disclosed,
                         "wsat.time_limit = 1h (spec/default 6h; [U] --set) - a lowered limit that never stopped the "
                         "run (wsat stopped at its capacity multiple"))
      << json(capacity).dump(1);
  const ComplianceVerdict ss = judge_test(
      "wsat", {{"wsat.stop_rule", "steady-state"}, {"wsat.time_limit", "1h"}, {"wsat.capacity_multiple", "1"}});
  EXPECT_FALSE(ss.shortened) << json(ss).dump(1);
  EXPECT_TRUE(has_detail(ss, "settings", ClauseStatus::disclosed,
                         "never stopped the run (wsat stopped at steady state of its check samples"));
  const ComplianceVerdict timed = judge_test("wsat", {{"wsat.time_limit", "10min"}});
  EXPECT_TRUE(timed.shortened);
  EXPECT_TRUE(has_detail(timed, "durations", ClauseStatus::fail,
                         "wsat.time_limit = 10min (spec/default 6h; [U] --set) - below the floor 6h (the default: no "
                         "cited source uses less; ADATA default 6 h (6-24 h selectable); PTSU 360 x 1 min); it stopped "
                         "the run: wsat stopped at its time limit (600 samples"))
      << json(timed).dump(1);
  const ComplianceVerdict fills = judge_test("wsat", {{"wsat.capacity_multiple", "2"}});
  EXPECT_TRUE(fills.shortened);
  EXPECT_TRUE(has_detail(fills, "durations", ClauseStatus::fail,
                         "wsat.capacity_multiple = 2.0 (spec/default 4.0; [I] --set) - below the spec value; it "
                         "stopped the run: wsat stopped at its capacity multiple"))
      << json(fills).dump(1);
}

TEST(DurationRule, EveryQuickRunIsShortenedExtensionsIncluded) {
  for (const char* test : {"iops", "throughput", "latency", "wsat", "cbw", "hir", "xsr", "dirth", "endurance-write",
                           "latency-sweep", "rww-sweep", "rww-streams", "rww-replay"}) {
    EXPECT_TRUE(judge_test(test, {}, 0, {"quick"}).shortened) << test;
  }
}

}  // namespace
}  // namespace ptsuite::pts
