// The conditioning rule (pts/conditioning_rule.hpp): every phase that conditions the drive is
// held to the floor of its kind whatever stopped it, judged from the record by one table the
// judge walks rule by rule. Verdict lines are checked by clause: the audit's cases (issue 37
// item 1) each end "not compliant: shortened" with the durations line that says why, and a
// fixed-length preconditioning is no steady-state phase.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include <ptsuite/pts/compliance.hpp>
#include <ptsuite/pts/conditioning_rule.hpp>
#include <ptsuite/pts/duration_rule.hpp>
#include <ptsuite/pts/test_procedure.hpp>
#include <ptsuite/results/test_record.hpp>

#include "support/fake_step_executor.hpp"

namespace ptsuite::pts {
namespace {

using nlohmann::json;

struct ConditionedRun {
  json record;
  ComplianceVerdict verdict;
};

// Runs `test` over the fake executor (IOPS 1000, latency 100 us; `noisy_phase` swings 3x on odd
// Rounds so it never attains steady state) and judges it as the run does.
ConditionedRun run_conditioned(const std::string& test, const std::vector<std::pair<std::string, std::string>>& sets,
                               const SpecContext& spec = {"2.0.2", "enterprise"}, std::vector<std::string> presets = {},
                               const std::string& noisy_phase = "") {
  const Settings settings = Settings::build(DefinitionSet::embedded(), spec, presets, sets);
  auto factor = [noisy_phase](const StepId& id) {
    const bool odd = !id.name.empty() && id.name[0] == 'r' && (id.name[3] - '0') % 2 == 1;
    return odd && id.phase == noisy_phase ? 3.0 : 1.0;
  };
  testing::FakeExecutor exec(
      [factor](const StepId& id, const SegmentSpec&) { return 1000.0 * factor(id); },
      [factor](const StepId& id, const SegmentSpec&) { return static_cast<uint64_t>(100'000.0 * factor(id)); });
  exec.purge_result = {{"method", "nvme-format"}, {"pts_compliant", true}, {"outcome", "succeeded"}};
  TestContext ctx{DefinitionSet::embedded(), spec, settings, exec, {1ull << 30, 512}};
  ConditionedRun out;
  out.record = make_test(test)->run(ctx);
  const bool client = spec.profile == "client";
  const json applied{{"applicable", true}, {"enabled", client}, {"note", ""}};
  out.record["write_cache"] = {{"requested_enabled", client}, {"original", applied}, {"applied", applied}};
  out.record["status"] = "complete";
  out.verdict = evaluate_test_compliance(out.record, {DefinitionSet::embedded(), settings, "libaio"});
  return out;
}

std::vector<std::string> lines_of(const ComplianceVerdict& v, const std::string& clause, ClauseStatus status) {
  std::vector<std::string> out;
  for (const ClauseVerdict& c : v.clauses) {
    if (c.clause == clause && c.status == status) out.push_back(c.detail);
  }
  return out;
}

bool has_line(const ComplianceVerdict& v, const std::string& clause, ClauseStatus status,
              const std::vector<std::string>& parts) {
  for (const std::string& line : lines_of(v, clause, status)) {
    if (std::all_of(parts.begin(), parts.end(),
                    [&](const std::string& p) { return line.find(p) != std::string::npos; })) {
      return true;
    }
  }
  return false;
}

// `run cbw --set cbw.precondition_round_duration=1min`: steady at Round 5, so 5 minutes of
// preconditioning, where no source preconditions for less than 25 (the ECW script).
TEST(ConditioningRule, FiveOneMinutePreconditioningRoundsAreShortened) {
  const ConditionedRun r = run_conditioned("cbw", {{"cbw.precondition_round_duration", "1min"}});
  EXPECT_EQ(r.verdict.summary, "not compliant: shortened") << json(r.verdict).dump(1);
  EXPECT_TRUE(
      has_line(r.verdict, "durations", ClauseStatus::fail,
               {"shortened: test-specific preconditioning (precondition): 5 Rounds x 1m00s = 5m00s, below 25min",
                "the ECW script 25 x 1 min", "set by cbw.precondition_round_duration = 1min (--set)"}))
      << json(r.verdict).dump(1);
  // The Round length itself is at its floor: its own line would contradict the finding.
  EXPECT_FALSE(has_line(r.verdict, "settings", ClauseStatus::disclosed, {"cbw.precondition_round_duration"}));
  // Five 30-minute Rounds are 150 minutes: compliant.
  const ConditionedRun spec = run_conditioned("cbw", {});
  EXPECT_EQ(spec.verdict.summary, "compliant") << json(spec.verdict).dump(1);
  EXPECT_TRUE(
      has_line(spec.verdict, "durations", ClauseStatus::pass,
               {"test-specific preconditioning (precondition): 5 Rounds x 30m00s = 2h30m00s, at or above 25min"}));
}

TEST(ConditioningRule, TheAuditedQuickCommandNamesItsShortPreconditioning) {
  const ConditionedRun r =
      run_conditioned("cbw", {{"cbw.precondition_round_duration", "1min"}}, {"2.0.2", "enterprise"}, {"quick"});
  EXPECT_TRUE(has_line(r.verdict, "durations", ClauseStatus::fail, {"(precondition): 5 Rounds x 1m00s = 5m00s"}))
      << json(r.verdict).dump(1);
  EXPECT_FALSE(has_line(r.verdict, "settings", ClauseStatus::disclosed, {"at or above its floor 1min"}));
}

TEST(ConditioningRule, DirthAndHirPreconditioningAreHeldToTheirFloors) {
  const ConditionedRun dirth = run_conditioned("dirth", {{"dirth.precondition_round_duration", "2min"}});
  EXPECT_TRUE(has_line(dirth.verdict, "durations", ClauseStatus::fail, {"5 Rounds x 2m00s = 10m00s, below 25min"}))
      << json(dirth.verdict).dump(1);
  // HIR's floor is PTSU's fixed 36 minutes: 5 Rounds of 6 one-minute segments are 30.
  const ConditionedRun hir = run_conditioned(
      "hir", {{"hir.precondition_segments", "6"}, {"hir.repetitions", "2"}, {"hir.baseline_periods", "2"}});
  EXPECT_TRUE(has_line(hir.verdict, "durations", ClauseStatus::fail,
                       {"(precondition): 5 Rounds x 6 segments (6m00s) = 30m00s, below 36min", "PTSU 05_HIR"}))
      << json(hir.verdict).dump(1);
}

// ECW's precondition stopped at steady state (ecw.precondition_stop=steady-state) after 5 of its
// 1-minute Rounds: 5 minutes, "aligned by the operator" no more.
TEST(ConditioningRule, EcwPreconditioningStoppedAtSteadyStateEarlyIsShortened) {
  const SpecContext e11{"e1.1", "enterprise"};
  const ConditionedRun r = run_conditioned("ecw", {{"ecw.precondition_stop", "steady-state"}}, e11);
  EXPECT_EQ(r.verdict.summary, "not compliant: shortened") << json(r.verdict).dump(1);
  EXPECT_TRUE(has_line(
      r.verdict, "durations", ClauseStatus::fail,
      {"(precondition): 5 Rounds x 1m00s = 5m00s, below 25min", "set by ecw.precondition_stop = steady-state (--set)"}))
      << json(r.verdict).dump(1);
  // The same stop rule on a drive that needs all 25 Rounds preconditions as long as the script.
  const ConditionedRun slow =
      run_conditioned("ecw", {{"ecw.precondition_stop", "steady-state"}}, e11, {}, "precondition");
  EXPECT_FALSE(slow.verdict.shortened) << json(slow.verdict).dump(1);
  EXPECT_TRUE(
      has_line(slow.verdict, "durations", ClauseStatus::pass, {"25 Rounds x 1m00s = 25m00s, at or above 25min"}));
}

// ECW's fixed 25 x 1 min is not a steady-state phase: a full ECW whose preconditioning IOPS
// still swing is "compliant", not "compliant: SS NOT ACHIEVED".
TEST(ConditioningRule, AFixedPreconditioningIsNotJudgedAsSteadyState) {
  const ConditionedRun r = run_conditioned("ecw", {}, {"e1.1", "enterprise"}, {}, "precondition");
  EXPECT_EQ(r.verdict.summary, "compliant") << json(r.verdict).dump(1);
  EXPECT_TRUE(r.verdict.notes.empty());
  EXPECT_TRUE(has_line(r.verdict, "steady_state", ClauseStatus::not_applicable,
                       {"precondition: a fixed 25 Rounds (ecw.precondition_rounds), not a steady-state phase"}))
      << json(r.verdict).dump(1);
  EXPECT_TRUE(has_line(r.verdict, "steady_state", ClauseStatus::pass, {"demand-variation: steady state"}));
  const results::TestRecord rec = results::read_test_record(r.record);
  EXPECT_FALSE(rec.phases.at(0).steady_state.stop_at_steady_state);
  EXPECT_EQ(rec.phases.at(0).steady_state.round_cap_setting, "ecw.precondition_rounds");
  EXPECT_TRUE(rec.phases.at(1).steady_state.stop_at_steady_state);
}

// The PTS-C random WIPC pass at 0.125X instead of its 1X: shortened, not "aligned".
TEST(ConditioningRule, AClientRandomWipcBelowItsAmountIsShortened) {
  const SpecContext client{"2.0.2", "client"};
  const ConditionedRun r =
      run_conditioned("iops", {{"wipc.random", "true"}, {"wipc.random_capacity_multiple", "0.125"}}, client);
  EXPECT_EQ(r.verdict.summary, "not compliant: shortened") << json(r.verdict).dump(1);
  EXPECT_TRUE(
      has_line(r.verdict, "durations", ClauseStatus::fail,
               {"shortened: WIPC, PTS-C random pass (main): 0.125X user capacity written, below 1X user capacity",
                "set by wipc.random_capacity_multiple = 0.125 (--set)"}))
      << json(r.verdict).dump(1);
  EXPECT_FALSE(has_line(r.verdict, "settings", ClauseStatus::disclosed, {"wipc.random_capacity_multiple"}));
  const ConditionedRun full = run_conditioned("iops", {{"wipc.random", "true"}}, client);
  EXPECT_EQ(full.verdict.summary, "compliant") << json(full.verdict).dump(1);
}

TEST(ConditioningRule, ALowWipcIsShortenedOnceNamingItsSetting) {
  const ConditionedRun r = run_conditioned("latency", {{"wipc.capacity_multiple", "1"}});
  EXPECT_EQ(r.verdict.summary, "not compliant: shortened");
  const std::vector<std::string> failing = lines_of(r.verdict, "durations", ClauseStatus::fail);
  ASSERT_EQ(failing.size(), 1u) << json(r.verdict).dump(1);
  EXPECT_NE(failing[0].find("WIPC, sequential pass (main): 1X user capacity written, below 2X user capacity ([V]"),
            std::string::npos)
      << failing[0];
  EXPECT_NE(failing[0].find("set by wipc.capacity_multiple = 1.0 (--set)"), std::string::npos) << failing[0];
}

TEST(ConditioningRule, PreWritesAndWdpcSegmentsBelowTheirFloorsAreShortened) {
  const ConditionedRun cbw = run_conditioned(
      "cbw", {{"cbw.inter_round_prewrite_duration", "1min"}, {"cbw.histogram_prewrite_duration", "10min"}});
  EXPECT_TRUE(has_line(cbw.verdict, "durations", ClauseStatus::fail,
                       {"inter-Round pre-write (demand-variation): 5 of 1m00s", "below 5min"}))
      << json(cbw.verdict).dump(1);
  EXPECT_TRUE(has_line(cbw.verdict, "durations", ClauseStatus::fail,
                       {"operating-point pre-write (operating points): 3 (max, mid, min) of 10m00s", "below 60min"}));
  const ConditionedRun iops = run_conditioned("iops", {{"iops.segment_duration", "30s"}});
  EXPECT_TRUE(has_line(iops.verdict, "durations", ClauseStatus::fail,
                       {"WDPC, Rounds of the test stimulus (main): 5 Rounds x 56 segments (28m00s) = 2h20m00s, "
                        "below 5 Rounds x 56 segments x 1min = 4h40m00s",
                        "set by iops.segment_duration = 30s (--set)"}))
      << json(iops.verdict).dump(1);
}

// Raising a [V]/[I] repetition count or pre-write is a deviation, as raising a duration is.
TEST(ConditioningRule, RaisedRepetitionCountsAndPreWritesAreDeviations) {
  for (const auto& [name, value] : {std::pair{"hir.repetitions", "720"}, std::pair{"hir.baseline_periods", "400"},
                                    std::pair{"cbw.histogram_prewrite_duration", "90min"},
                                    std::pair{"dirth.histogram_prewrite_duration", "61min"}}) {
    const Settings s = Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, {}, {{name, value}});
    const DurationFinding f = judge_time_scaling(s.record(name), {});
    EXPECT_EQ(f.judgement, DurationJudgement::deviation) << name << ": " << f.why;
  }
  const ConditionedRun cbw = run_conditioned("cbw", {{"cbw.histogram_prewrite_duration", "90min"}});
  EXPECT_EQ(cbw.verdict.summary, "not compliant") << json(cbw.verdict).dump(1);
  EXPECT_TRUE(
      has_line(cbw.verdict, "durations", ClauseStatus::fail,
               {"cbw.histogram_prewrite_duration = 90min", "the spec fixes this value: a larger one is a deviation"}));
}

// The rule is structural: every kind a record names is in the table, every floor cites its
// clause, tag and source, and a phase of a known kind that no test had before inherits it.
TEST(ConditioningRule, TheTableCoversEveryKindAndANewPhaseInheritsItsRule) {
  const std::vector<ConditioningRule> rules = conditioning_rules(DefinitionSet::embedded());
  std::set<std::string> ids;
  for (const ConditioningRule& r : rules) {
    EXPECT_TRUE(ids.insert(r.id).second) << r.id;
    EXPECT_FALSE(r.floor.provenance.clause.empty()) << r.id;
    EXPECT_FALSE(r.floor.provenance.source.empty()) << r.id;
    EXPECT_FALSE(r.settings.empty()) << r.id;
  }
  for (const char* kind : {"wipc", "wipc-random", "wdpc", "precondition", "inter-round-prewrite",
                           "operating-point-prewrite", "access-group"}) {
    EXPECT_EQ(ids.count(kind), 1u) << kind;
  }
  ConditionedRun r = run_conditioned("cbw", {});
  r.record["phases"][0]["phase"] = "warm-up";  // a new phase of a known kind, 5 x 30 min
  r.record["phases"][0]["round_template"][0]["duration_ns"] = 60'000'000'000ULL;
  const results::TestRecord rec = results::read_test_record(r.record);
  const Settings settings = Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, {}, {});
  bool found = false;
  for (const ConditioningFinding& f : judge_conditioning(rec, DefinitionSet::embedded(), settings)) {
    if (f.phase == "warm-up") {
      found = true;
      EXPECT_EQ(f.kind, "precondition");
      EXPECT_TRUE(f.shortened) << f.detail;
      EXPECT_NE(f.detail.find("below 25min"), std::string::npos) << f.detail;
    }
  }
  EXPECT_TRUE(found);
}

// The XSR access-group floors are the settings' own floors: one source of truth per number.
TEST(ConditioningRule, AccessGroupFloorsAgreeWithTheXsrSettings) {
  const Settings s = Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, {}, {});
  for (const ConditioningRule& r : conditioning_rules(DefinitionSet::embedded())) {
    if (r.id != "access-group") continue;
    for (const char* group : {"access-1", "access-2", "access-3"}) {
      const std::string setting = fmt::format("xsr.access_{}_duration", group[7]);
      EXPECT_EQ(r.floor_for("xsr", group).value, s.record(setting).floor) << group;
    }
  }
}

TEST(ConditioningRule, SettingPatternsNameTheTestAndThePhase) {
  EXPECT_TRUE(
      conditioning_setting_matches("{test}.precondition_*", "hir.precondition_segments", "hir", "precondition"));
  EXPECT_FALSE(conditioning_setting_matches("{test}.precondition_*", "cbw.precondition_round_duration", "hir", "x"));
  EXPECT_TRUE(conditioning_setting_matches("{test}.{phase}_duration", "xsr.access_2_duration", "xsr", "access-2"));
  EXPECT_FALSE(conditioning_setting_matches("{test}.{phase}_duration", "xsr.access_1_duration", "xsr", "access-2"));
  EXPECT_TRUE(conditioning_setting_matches("wipc.capacity_multiple", "wipc.capacity_multiple", "iops", "main"));
}

}  // namespace
}  // namespace ptsuite::pts
