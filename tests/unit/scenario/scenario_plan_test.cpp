// What the reviews vary and what a scenario plans: the refusals with hints (a txq stream's
// threads, two rate limits, a weighted split given as block_size), segment_warmup, the plan of
// every step with its time (the full write-pressure run is over 40 minutes; keys and labels as
// the runner writes them), the 17 load curves, enterprise-synthetic saying what it preconditions,
// and docs/scenarios.md's field reference kept equal to the file schema.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/scenario/scenario.hpp>
#include <ptsuite/scenario/scenario_plan.hpp>
#include <ptsuite/util/error.hpp>

#include "support/json_schema.hpp"

namespace ptsuite::scenario {
namespace {

using nlohmann::json;

std::string refusal(const std::string& text) {
  try {
    (void)parse_scenario(text, "my.json");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "accepted";
}

std::string one_phase(const std::string& phase) {
  return R"({"format": "ptsuite-scenario/1", "name": "t", "title": "T", "phases": [)" + phase + "]}";
}

TEST(ScenarioFields, WhatWouldBeIgnoredOrAmbiguousIsRefusedWithAHint) {
  EXPECT_NE(refusal(one_phase(R"({"name": "s", "kind": "txq", "duration": "1s", "points": [[1, 1]],
      "stream": {"name": "x", "threads": 4}})"))
                .find("phases[0].stream.threads (line 2, column 42): is set by each of the txq phase's points"),
            std::string::npos);
  EXPECT_NE(refusal(one_phase(R"({"name": "s", "kind": "txq", "duration": "1s", "points": [[1, 1]],
      "stream": {"name": "x", "queue_depth": 4}})"))
                .find("stream.queue_depth"),
            std::string::npos);
  EXPECT_NE(refusal(one_phase(R"({"name": "r", "kind": "run", "duration": "1s",
      "streams": [{"name": "x", "rate_iops": 100, "rate_mbps": 5}]})"))
                .find("rate_mbps (line 2, column 64): give rate_iops or rate_mbps, not both"),
            std::string::npos);
  EXPECT_NE(refusal(one_phase(R"({"name": "r", "kind": "run", "duration": "1s",
      "streams": [{"name": "x", "block_size": "8KiB/70:64KiB/30"}]})"))
                .find("\"8KiB/70:64KiB/30\" is a weighted split of sizes: give it as \"bs_split\""),
            std::string::npos);
}

TEST(ScenarioFields, SegmentWarmupIsPerStepAndTheQuickFormCapsIt) {
  const Scenario s = parse_scenario(one_phase(R"({"name": "s", "kind": "txq", "duration": "30s",
      "segment_warmup": "5s", "points": [[1, 1], [2, 2]], "stream": {"name": "x"}})"),
                                    "my.json");
  EXPECT_EQ(s.phases.at(0).warmup_ns, 5'000'000'000u);
  EXPECT_EQ(s.phases.at(0).duration_ns, 30'000'000'000u) << "the measured time is unchanged";
  const ScenarioPlan plan = plan_scenario(s);
  EXPECT_EQ(plan.total_ns, 70'000'000'000u) << "two steps of 5 s warm-up + 30 s";
  EXPECT_EQ(quick_form(s).phases.at(0).warmup_ns, 1'000'000'000u) << "quick: at most the quick duration";
  EXPECT_NE(refusal(one_phase(R"({"name": "p", "kind": "purge", "segment_warmup": "5s"})")).find("unknown field"),
            std::string::npos);
}

TEST(ScenarioPlan, WritePressureTakesOverFortyMinutesInEightySevenSteps) {
  const ScenarioPlan plan = plan_scenario(load_scenario("write-pressure"));
  ASSERT_EQ(plan.steps.size(), 87u);  // purge, fill, 85 rate steps
  EXPECT_EQ(plan.steps[0].key, "purge/purge");
  EXPECT_FALSE(plan.steps[0].timed);
  EXPECT_EQ(plan.steps[1].key, "fill/1");
  EXPECT_EQ(plan.steps[2].key, "pressure/1");
  EXPECT_EQ(plan.steps[2].label, "writes 10 MB/s");
  EXPECT_EQ(plan.steps[86].label, "writes 850 MB/s");
  EXPECT_EQ(plan.total_ns, 85 * 30'000'000'000ULL);
  EXPECT_GT(plan.total_ns, 40 * 60'000'000'000ULL);
  EXPECT_EQ(plan.untimed, 2u);
  EXPECT_EQ(remaining_after(plan, "pressure/84"), 30'000'000'000u);
  EXPECT_EQ(remaining_after(plan, "pressure/85"), 0u);
}

TEST(ScenarioPlan, SteadyStatePhasesArePlannedAtTheirCapAndAtFiveRounds) {
  const ScenarioPlan plan = plan_scenario(load_scenario("enterprise-synthetic"));
  size_t rounds = 0;
  for (const PlannedStep& s : plan.steps) rounds += s.kind == "steady_state" ? 1 : 0;
  EXPECT_EQ(rounds, 50u) << "two preconditionings of at most 25 Rounds";
  EXPECT_EQ(plan.total_ns - plan.best_ns, 40 * 60'000'000'000ULL) << "Rounds 6..25 of both only when not steady";
}

TEST(ScenarioBuiltIns, SeventeenLoadCurvesAndHonestPreconditioning) {
  const Scenario curves = load_scenario("mixed-profile-curves");
  size_t ramps = 0;
  for (const PhaseSpec& p : curves.phases) ramps += p.kind == PhaseKind::rate_ramp ? 1 : 0;
  EXPECT_EQ(ramps, 17u) << "every named profile's load curve, as the reviews plot them";
  // enterprise-synthetic preconditions its random families only, and says so.
  const Scenario es = load_scenario("enterprise-synthetic");
  EXPECT_NE(es.description.find("are NOT preconditioned"), std::string::npos) << es.description;
  for (const PhaseSpec& p : es.phases) {
    if (p.kind != PhaseKind::steady_state) continue;
    EXPECT_EQ(p.streams.at(0).pattern, workload::AccessPattern::random) << p.name;
  }
}

// docs/scenarios.md "Field reference": under each `<!-- schema: PATH -->` marker a table whose
// first column names exactly the properties of that schema object.
TEST(Scenario, DocsFieldReferenceMatchesTheSchema) {
  std::ifstream in(std::string(PTSUITE_SOURCE_DIR) + "/docs/scenarios.md");
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const json schema = embedded_schema("scenario");
  const std::pair<const char*, json> objects[] = {{"#", schema},
                                                  {"#/properties/targets", schema.at("properties").at("targets")},
                                                  {"#/properties/quick", schema.at("properties").at("quick")},
                                                  {"#/$defs/phase", schema.at("$defs").at("phase")},
                                                  {"#/$defs/stream", schema.at("$defs").at("stream")},
                                                  {"#/$defs/steps", schema.at("$defs").at("steps")}};
  for (const auto& [path, object] : objects) {
    SCOPED_TRACE(path);
    const std::string marker = std::string("<!-- schema: ") + path + " -->";
    const size_t at = doc.find(marker);
    ASSERT_NE(at, std::string::npos) << "no field table for " << path;
    const size_t end = doc.find("\n\n###", at);
    const std::string table = doc.substr(at, end == std::string::npos ? std::string::npos : end - at);
    std::set<std::string> documented;
    const std::regex row("\\n\\| `([a-z_]+)` \\|");
    for (auto it = std::sregex_iterator(table.begin(), table.end(), row); it != std::sregex_iterator(); ++it) {
      documented.insert((*it)[1]);
    }
    std::set<std::string> defined;
    for (const auto& [name, _] : object.at("properties").items()) defined.insert(name);
    EXPECT_EQ(documented, defined);
  }
}

}  // namespace
}  // namespace ptsuite::scenario
