// Scenario files: the built-ins parse and match their schema, generators expand as documented,
// the quick form shortens, and every bad field is one line naming the file, path and position.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/scenario/profiles.hpp>
#include <ptsuite/scenario/scenario.hpp>
#include <ptsuite/util/error.hpp>

#include "support/json_schema.hpp"

namespace ptsuite::scenario {
namespace {

using nlohmann::json;

TEST(Scenario, EveryBuiltInParsesAndMatchesTheFileSchema) {
  const json schema = embedded_schema("scenario");
  const std::vector<std::string> names = builtin_scenarios();
  EXPECT_EQ(names, (std::vector<std::string>{"enterprise-synthetic", "mixed-profile-curves", "noisy-neighbour",
                                             "write-pressure"}));
  for (const std::string& n : names) {
    std::string text;
    const Scenario s = load_scenario(n, &text);
    EXPECT_EQ(s.name, n);
    EXPECT_FALSE(s.reconstructs.empty()) << n << ": every built-in says what it reconstructs";
    EXPECT_FALSE(s.ptsuite_choices.empty()) << n << ": and discloses ptsuite's own choices";
    const std::vector<std::string> errors = validate_json(json::parse(text), schema);
    EXPECT_TRUE(errors.empty()) << n << ": " << (errors.empty() ? "" : errors.front());
  }
}

TEST(Scenario, WritePressureStepsTenToEightHundredFiftyInTens) {
  const Scenario s = load_scenario("write-pressure");
  const PhaseSpec& p = s.phases.at(2);
  ASSERT_EQ(p.kind, PhaseKind::rate_steps);
  ASSERT_EQ(p.step_rates.size(), 85u);
  EXPECT_DOUBLE_EQ(p.step_rates.front(), 10);
  EXPECT_DOUBLE_EQ(p.step_rates.back(), 850);
  EXPECT_TRUE(p.step_mb_per_s);
  // Quick: every 20th step and the last, 0.5 s each, a quarter fill.
  const Scenario q = quick_form(s);
  EXPECT_EQ(q.phases.at(2).step_rates, (std::vector<double>{10, 210, 410, 610, 810, 850}));
  EXPECT_EQ(q.phases.at(2).duration_ns, 500'000'000u);
  EXPECT_DOUBLE_EQ(q.phases.at(1).fill_capacity_multiple, 0.25);
}

// --quick scales an interval series with its phase (issue 40 item 6): the noisy neighbour's 60 s at
// 1 s intervals keep their 60 points in the quick form's duration, never below the 10 ms minimum.
TEST(Scenario, QuickScalesTheIntervalWithTheDuration) {
  const Scenario nn = load_scenario("noisy-neighbour");
  const PhaseSpec& run = nn.phases.at(1);
  ASSERT_EQ(run.interval_ns, 1'000'000'000u);
  ASSERT_EQ(run.duration_ns, 60'000'000'000u);
  const Scenario quick_nn = quick_form(nn);  // kept: a reference into a temporary dangles (ASan found it)
  const PhaseSpec& quick = quick_nn.phases.at(1);
  EXPECT_EQ(quick.interval_ns, quick.duration_ns / 60) << quick.duration_ns;
  Scenario tiny = nn;
  tiny.quick.duration_ns = 100'000'000;  // 100 ms / 60 = 1.7 ms: held at the minimum
  EXPECT_EQ(quick_form(tiny).phases.at(1).interval_ns, 10'000'000u);
}

TEST(Scenario, ProfilesRolesAndTxqPointsAreResolved) {
  const Scenario nn = load_scenario("noisy-neighbour");
  EXPECT_TRUE(nn.targets.exact);
  EXPECT_EQ(nn.targets.count, 6u);
  const PhaseSpec& run = nn.phases.at(1);
  EXPECT_FALSE(run.streams.at(4).targets.each);
  EXPECT_EQ(run.streams.at(4).targets.role, 4u);  // r2 -> reader-2, the 5th role

  const Scenario es = load_scenario("enterprise-synthetic");
  const PhaseSpec& sweep = es.phases.at(5);
  ASSERT_EQ(sweep.kind, PhaseKind::txq);
  EXPECT_EQ(sweep.txq.size(), 16u);
  const StreamSpec& st = sweep.streams.at(0);
  EXPECT_EQ(st.profile, "rnd-8k-7030");
  EXPECT_DOUBLE_EQ(st.read_pct, 70);
  EXPECT_EQ(st.block_sizes.at(0).bytes, 8192u);
  EXPECT_DOUBLE_EQ(st.range.pct, 20);

  const MixProfile* sql = find_profile("sql-80");
  ASSERT_NE(sql, nullptr);
  EXPECT_DOUBLE_EQ(sql->read_pct, 80);
  EXPECT_NE(sql->basis.find("ptsuite's own"), std::string::npos);
  EXPECT_EQ(mix_profiles().size(), 17u);
}

// Expects a UsageError whose one-line message names `fragment` (field path, position, problem).
void expect_bad(const std::string& text, const std::string& fragment) {
  try {
    (void)parse_scenario(text, "my.json");
    ADD_FAILURE() << "accepted; expected " << fragment;
  } catch (const UsageError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("my.json: ", 0), 0u) << m;
    EXPECT_NE(m.find(fragment), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

const char* k_good = R"({
  "format": "ptsuite-scenario/1", "name": "t", "title": "T",
  "phases": [
    {"name": "peak", "kind": "run", "duration": "1s",
     "streams": [{"name": "r", "rw_mix": "100/0", "block_size": "4KiB"}]}
  ]
})";

std::string with(const std::string& from, const std::string& to) {
  std::string s = k_good;
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

TEST(Scenario, BadFieldsNameThePathAndTheirLineAndColumn) {
  EXPECT_NO_THROW((void)parse_scenario(k_good, "my.json"));
  expect_bad(with("\"block_size\": \"4KiB\"", "\"block_sise\": \"4KiB\""),
             "phases[0].streams[0].block_sise (line 5, column 65): unknown field");
  expect_bad(with("\"4KiB\"", "\"4 parsecs\""),
             "phases[0].streams[0].block_size (line 5, column 65): \"4 parsecs\" is not a size");
  expect_bad(with("\"run\"", "\"walk\""), "phases[0].kind (line 4, column 30): \"walk\" is not one of");
  expect_bad(with("\"1s\"", "\"0s\""), "phases[0].duration (line 4, column 49): must be longer than 0");
  expect_bad(with("\"rw_mix\": \"100/0\", \"block_size\": \"4KiB\"", "\"profile\": \"nope\""),
             "\"nope\" is not a profile; known: ");
  expect_bad(with("\"rw_mix\": \"100/0\"", "\"profile\": \"sql-70\", \"rw_mix\": \"1/99\""),
             "give either the profile or those");
  expect_bad(with("\"name\": \"r\"", "\"name\": \"r\", \"target\": \"reader\""), "is neither \"each\" nor a role");
  expect_bad(with("ptsuite-scenario/1", "ptsuite-scenario/2"), "format (line 2, column 13): must be");
  expect_bad("{\"format\": ", "not valid JSON");
  // Generators: references and ranges.
  expect_bad(with(R"("name": "peak", "kind": "run", "duration": "1s",
     "streams": [{"name": "r", "rw_mix": "100/0", "block_size": "4KiB"}])",
                  R"("name": "ramp", "kind": "rate_ramp", "duration": "1s", "percent_of": "peak", "percents": [10],
     "stream": {"name": "r"})"),
             "percent_of (line 4, column 75): \"peak\" is not an earlier run or steady_state phase");
  expect_bad(with(R"("name": "peak", "kind": "run")", R"("name": "peak", "kind": "rate_steps", "step_stream": "w",
     "step_mbps": {"from": 10, "to": 20, "step": 5})"),
             "step_stream (line 4, column 59): \"w\" is not a stream of this phase");
}

// A mixed phase (issue 40 item 4): the application on app_targets' roles, the streams on the
// others ("each" = each target the application does not use), a 1 s series unless named; the
// roles, the overlap with the application's targets and a missing app_targets are refused.
TEST(Scenario, MixedPhasesNameTheApplicationsRolesAndKeepTheStreamsOffThem) {
  const std::string mixed = R"({
  "format": "ptsuite-scenario/1", "name": "m", "title": "M", "targets": {"roles": ["db", "n1", "n2"]},
  "phases": [
    {"name": "shared", "kind": "app", "app": "pgbench", "app_targets": ["db"],
     "streams": [{"name": "w", "target": "n2", "rw_mix": "0/100", "block_size": "128KiB"},
                 {"name": "r", "rw_mix": "100/0", "block_size": "4KiB"}]}
  ]
})";
  const Scenario s = parse_scenario(mixed, "my.json");
  const PhaseSpec& p = s.phases.at(0);
  EXPECT_EQ(p.app_targets, std::vector<uint32_t>{0});
  ASSERT_EQ(p.streams.size(), 2u);
  EXPECT_EQ(p.streams[0].targets.role, 2u);
  EXPECT_TRUE(p.streams[1].targets.each);
  EXPECT_EQ(p.interval_ns, 1'000'000'000u);
  EXPECT_EQ(quick_form(s).phases[0].interval_ns, 1'000'000'000u) << "no duration to scale it with";
  const json schema = embedded_schema("scenario");
  EXPECT_EQ(validate_json(json::parse(mixed), schema), std::vector<std::string>{});
  const auto edit = [&](const std::string& from, const std::string& to) {
    std::string t = mixed;
    return t.replace(t.find(from), from.size(), to);
  };
  expect_bad(edit("\"target\": \"n2\"", "\"target\": \"db\""),
             "phases[0].streams[0].target (line 5, column 42): is a target of the application");
  expect_bad(edit("\"app_targets\": [\"db\"],", ""), "app_targets (line 4, column 5): is required with streams");
  expect_bad(edit("[\"db\"]", "[\"db\", \"db\"]"), "app_targets[1]");
  expect_bad(edit("[\"db\"]", "[\"db\", \"n1\", \"n2\"]"), "leaving at least one for the streams");
  expect_bad(edit("\"title\": \"M\", \"targets\": {\"roles\": [\"db\", \"n1\", \"n2\"]},", "\"title\": \"M\","),
             "needs targets.roles");
  expect_bad(with(R"("kind": "run", "duration": "1s",
     "streams": [{"name": "r", "rw_mix": "100/0", "block_size": "4KiB"}])",
                  R"("kind": "app", "app": "pgbench", "interval": "1s")"),
             "is the streams' interval series");
}

TEST(Scenario, UnknownNamesSayHowToMakeOne) {
  try {
    (void)load_scenario("no-such-scenario");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("write-pressure"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("ptsuite scenario show NAME"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ptsuite::scenario

namespace ptsuite::scenario {
namespace {

// The scenario results schema shares the results schema's statistics definitions (summaries,
// histograms, units): they must stay equal, or one of the two documents drifts.
TEST(ScenarioResultsSchema, SharedDefinitionsEqualTheResultsSchemas) {
  const nlohmann::json scenario = embedded_schema("scenario-results");
  const nlohmann::json results = embedded_schema("results");
  size_t shared = 0;
  for (const auto& [name, def] : scenario.at("$defs").items()) {
    if (!results.at("$defs").contains(name)) continue;
    ++shared;
    EXPECT_EQ(def, results.at("$defs").at(name)) << name << " differs from results.schema.json";
  }
  EXPECT_GE(shared, 8u) << "io_summary, direction_summary, latency_summary, histogram, units";
}

}  // namespace
}  // namespace ptsuite::scenario
