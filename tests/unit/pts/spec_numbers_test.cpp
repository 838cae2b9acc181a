// The spec numbers that used to be copied into C++ are read from pts/ only: the steady-state
// rule (common.json) for scenario steady_state phases, the scenario Round cap, the default
// revision (common.json "default_revision"; the literals SpecContext, RunConfig and --revision
// still carry are pinned to it) and the largest random block (tests/iops.json).
// Each test changes or reads the data and checks that the code follows it.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/pts/definitions.hpp>
#include <ptsuite/pts/run_config.hpp>
#include <ptsuite/pts/spec_numbers.hpp>
#include <ptsuite/pts/steady_state_rule.hpp>
#include <ptsuite/scenario/scenario.hpp>
#include <ptsuite/util/embedded.hpp>
#include <ptsuite/util/units.hpp>

#include "cli/spec_options.hpp"

namespace ptsuite::pts {
namespace {

using nlohmann::json;

json embedded_common() { return json::parse(std::string(*embedded_file("common.json"))); }

// The embedded pts/ files with common.json's steady-state values replaced.
DefinitionSet with_steady_state(uint32_t window, double data_pct, double slope_pct, uint32_t cap) {
  json common = embedded_common();
  json& ss = common.at("steady_state");
  ss.at("window_rounds").at("value") = window;
  ss.at("data_excursion_pct").at("value") = data_pct;
  ss.at("slope_excursion_pct").at("value") = slope_pct;
  ss.at("max_rounds").at("value") = cap;
  std::vector<std::pair<std::string, std::string>> files;
  for (const EmbeddedFile& f : embedded_files()) {
    files.emplace_back(std::string(f.path), f.path == "common.json" ? common.dump() : std::string(f.content));
  }
  return DefinitionSet::from_files(files);
}

TEST(SpecNumbers, SteadyStateRuleIsCommonJsons) {
  const json ss = embedded_common().at("steady_state");
  const SteadyStateRule& rule = common_steady_state_rule();
  EXPECT_EQ(rule.criteria.window_rounds, ss.at("window_rounds").at("value").get<uint32_t>());
  EXPECT_EQ(rule.criteria.data_excursion_pct, ss.at("data_excursion_pct").at("value").get<double>());
  EXPECT_EQ(rule.criteria.slope_excursion_pct, ss.at("slope_excursion_pct").at("value").get<double>());
  EXPECT_EQ(rule.first_check_round, ss.at("first_check_round").at("value").get<uint32_t>());
  EXPECT_EQ(rule.max_rounds, ss.at("max_rounds").at("value").get<uint32_t>());
}

TEST(SpecNumbers, SteadyStateRuleFollowsChangedData) {
  const SteadyStateRule rule = common_steady_state_rule(with_steady_state(7, 15, 5, 40), SpecContext{});
  EXPECT_EQ(rule.criteria.window_rounds, 7u);
  EXPECT_EQ(rule.criteria.data_excursion_pct, 15.0);
  EXPECT_EQ(rule.criteria.slope_excursion_pct, 5.0);
  EXPECT_EQ(rule.max_rounds, 40u);
}

TEST(SpecNumbers, ScenarioSteadyStatePhaseRoundCapIsCommonJsons) {
  const uint32_t cap = embedded_common().at("steady_state").at("max_rounds").at("value").get<uint32_t>();
  EXPECT_EQ(scenario::PhaseSpec{}.max_rounds, cap);
  // A built-in steady_state phase that names no max_rounds runs to common.json's cap.
  const scenario::Scenario s = scenario::load_scenario("enterprise-synthetic");
  const scenario::PhaseSpec& p = s.phases.at(1);
  ASSERT_EQ(p.kind, scenario::PhaseKind::steady_state);
  EXPECT_EQ(p.max_rounds, cap);
}

TEST(SpecNumbers, DefaultRevisionIsCommonJsons) {
  const std::string revision = embedded_common().at("default_revision").at("value").get<std::string>();
  EXPECT_EQ(default_revision(), revision);
  EXPECT_EQ(SpecContext{}.revision, revision);
  EXPECT_EQ(RunConfig{}.revision, revision);
  EXPECT_EQ(cli::SpecOptions{}.revision, revision);  // the --revision default
}

TEST(SpecNumbers, LargestRandomBlockIsIopsJsonsLargest) {
  const SpecContext ctx;
  const uint64_t largest_bytes = largest_random_block_bytes(ctx);
  EXPECT_EQ(largest_bytes, uint64_t{1024} * 1024);  // 2.0.2 §7: 1024 KiB is the largest IOPS block
  const SpecValue sizes =
      DefinitionSet::resolve_field(DefinitionSet::embedded().test("iops").at("block_sizes"), ctx, "iops/block_sizes");
  bool found = false;
  for (const json& size : sizes.value) {
    const uint64_t bytes = units::parse_size_bytes(size.get<std::string>(), "iops/block_sizes");
    EXPECT_LE(bytes, largest_bytes);
    found = found || bytes == largest_bytes;
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace ptsuite::pts
