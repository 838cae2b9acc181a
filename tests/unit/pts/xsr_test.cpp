// Cross Stimulus Recovery (PTS 2.0.2 §12) over the fake step executor: the step sequence of
// its three access groups, the sample split, the stimulus of each group, the recovery rule,
// the plan, and the record against the results schema.
#include <gtest/gtest.h>

#include <algorithm>

#include <ptsuite/pts/compliance.hpp>
#include <ptsuite/pts/plan.hpp>
#include <ptsuite/pts/test_procedure.hpp>

#include "support/fake_step_executor.hpp"

namespace ptsuite::pts {
namespace {

using nlohmann::json;

const std::vector<std::pair<std::string, std::string>> k_xsr_short = {{"xsr.access_1_duration", "5s"},
                                                                      {"xsr.access_2_duration", "3s"},
                                                                      {"xsr.access_3_duration", "2500ms"},
                                                                      {"xsr.sample_duration", "1s"}};

struct Xsr {
  explicit Xsr(testing::FakeExecutor::ValueFn iops,
               std::vector<std::pair<std::string, std::string>> overrides = k_xsr_short)
      : exec(std::move(iops)),
        settings(Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, {}, overrides)),
        ctx{DefinitionSet::embedded(), {"2.0.2", "enterprise"}, settings, exec, TargetFacts{1ull << 30, 512}},
        rec(make_test("xsr")->run(ctx)) {}
  testing::FakeExecutor exec;
  Settings settings;
  TestContext ctx;
  json rec;
};

TEST(XsrTest, PurgeThenThreeAccessGroupsInSamples) {
  Xsr x([](const StepId&, const SegmentSpec&) { return 1000.0; });
  std::vector<std::string> segments;
  for (const std::string& s : x.exec.executed) {
    if (s.find("health") == std::string::npos) {
      segments.push_back(s);
    }
  }
  ASSERT_EQ(segments.size(), 1u + 5u + 3u + 3u);
  EXPECT_EQ(segments[0], "xsr/main/purge");
  EXPECT_EQ(segments[1], "xsr/access-1/sample-00001");
  EXPECT_EQ(segments[6], "xsr/access-2/sample-00001");
  EXPECT_EQ(segments[9], "xsr/access-3/sample-00001");
  const std::vector<SegmentSpec>& s = x.exec.segments;
  ASSERT_EQ(s.size(), 11u);
  EXPECT_EQ(s[0].label, "SEQ 1MiB 0/100");
  EXPECT_EQ(s[0].sequence_key, "xsr-access-1");
  EXPECT_EQ(s[0].threads, 1u);
  EXPECT_EQ(s[0].queue_depth, 32u);
  EXPECT_EQ(s[5].label, "RND 8KiB 0/100");
  EXPECT_TRUE(s[5].sequence_key.empty());
  EXPECT_EQ(s[8].sequence_key, "xsr-access-3");
  // 2.5 s in 1 s samples: 1 s, 1 s, 0.5 s.
  EXPECT_EQ(s[10].duration_ns, 500'000'000u);
  const json& xsr = x.rec.at("xsr");
  ASSERT_EQ(xsr.at("groups").size(), 3u);
  EXPECT_EQ(xsr.at("groups")[0].at("stimulus"), "SEQ 1MiB 100% W");
  EXPECT_EQ(xsr.at("groups")[1].at("samples"), 3);
  EXPECT_EQ(xsr.at("groups")[2].at("first_sample"), 9);
  EXPECT_EQ(xsr.at("samples").size(), 11u);
  EXPECT_TRUE(x.rec.at("preconditioning").empty());  // no WIPC
  EXPECT_TRUE(x.rec.at("phases").empty());
  EXPECT_EQ(x.rec.at("max_queue_depth"), 32);
}

// Access group 3 starts at a third of group 1's throughput and recovers at its 3rd sample.
TEST(XsrTest, RecoveryIsTheFirstAccess3SampleAtAccess1sAverage) {
  Xsr x([](const StepId& id, const SegmentSpec&) {
    if (id.phase == "access-3") {
      return id.name == "sample-00001" ? 300.0 : id.name == "sample-00002" ? 600.0 : 1000.0;
    }
    return id.phase == "access-2" ? 5000.0 : 1000.0;
  });
  const json& g = x.rec.at("xsr").at("groups");
  EXPECT_NEAR(g[0].at("average_mb_per_s").get<double>(), 1000.0 * 1048576 / 1e6, 1e-6);
  const json& r = x.rec.at("xsr").at("recovery");
  EXPECT_TRUE(r.at("recovered").get<bool>());
  EXPECT_EQ(r.at("recovery_sample"), 11);
  EXPECT_DOUBLE_EQ(r.at("recovery_time_s").get<double>(), 3.0);  // three 1 s samples (fake)
  EXPECT_EQ(r.at("reference"), "access-1-average");
}

TEST(XsrTest, NoRecoveryIsRecordedAsSuch) {
  Xsr x([](const StepId& id, const SegmentSpec&) { return id.phase == "access-3" ? 100.0 : 1000.0; });
  const json& r = x.rec.at("xsr").at("recovery");
  EXPECT_FALSE(r.at("recovered").get<bool>());
  EXPECT_TRUE(r.at("recovery_time_s").is_null());
}

// The record against the schema: the "quick" results fixture includes XSR and is validated
// in ResultsSchema.CheckedInFixturesMatchTheSchema. Here: how its settings are judged.
// Group durations below the lowest value a source uses (6 h) shorten the run like the [I]
// sample length does (the 60-second XSR of the audit: duration_rule_test.cpp).
TEST(XsrTest, ShortenedGroupDurationsAndTheSampleLengthShorten) {
  Xsr x([](const StepId&, const SegmentSpec&) { return 1000.0; });
  json rec = x.rec;
  rec["status"] = "complete";
  const ComplianceVerdict v = evaluate_test_compliance(rec, {DefinitionSet::embedded(), x.settings, "libaio"});
  EXPECT_TRUE(v.shortened);
  bool shortened_group = false;
  for (const ClauseVerdict& c : v.clauses) {
    shortened_group = shortened_group || (c.status == ClauseStatus::fail && c.clause == "durations" &&
                                          c.detail.find("xsr.access_1_duration = 5s") != std::string::npos);
  }
  EXPECT_TRUE(shortened_group);
  EXPECT_NE(std::find_if(v.clauses.begin(), v.clauses.end(),
                         [](const ClauseVerdict& c) { return c.clause == "toio" && c.status == ClauseStatus::pass; }),
            v.clauses.end());
}

TEST(XsrTest, PlanBestAndWorstCaseAreTheFixedDurations) {
  const SpecContext spec{"2.0.2", "enterprise"};
  const Settings settings = Settings::build(DefinitionSet::embedded(), spec, {}, {});
  const Plan best =
      make_plan({"xsr"}, DefinitionSet::embedded(), spec, settings, {1ull << 30, 512}, PlanCase::best, {});
  const Plan worst =
      make_plan({"xsr"}, DefinitionSet::embedded(), spec, settings, {1ull << 30, 512}, PlanCase::worst, {});
  EXPECT_EQ(best.total_ns, worst.total_ns);
  // 8 h + 6 h + 8 h of 1-minute samples and the purge.
  EXPECT_EQ(worst.total_ns, 22ull * 3600 * 1'000'000'000ull + PlanAssumptions{}.purge_ns);
  EXPECT_EQ(
      std::count_if(worst.steps.begin(), worst.steps.end(), [](const PlanStep& s) { return s.kind == "segment"; }),
      22 * 60);
}

}  // namespace
}  // namespace ptsuite::pts
