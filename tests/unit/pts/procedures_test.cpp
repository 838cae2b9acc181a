// The test registry and the rule that pts/ is what runs: every registered test has its data,
// its report sections and its schema branch; every value a test file declares is read by the
// procedure; and values that used to be display-only (pattern, loop order, reported value,
// the steady-state rule) drive the run.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>

#include <ptsuite/pts/plan.hpp>
#include <ptsuite/pts/procedures/registry.hpp>
#include <ptsuite/pts/run_config.hpp>
#include <ptsuite/util/embedded.hpp>
#include <ptsuite/util/error.hpp>

#include "report/sections.hpp"
#include "support/fake_step_executor.hpp"
#include "support/schema_support.hpp"

namespace ptsuite::pts {
namespace {

using nlohmann::json;

// The claims procedure validates a spec sheet: the loops over every test give it the example.
json example_sheet() { return json::parse(*embedded_file("sheets/enterprise-nvme.json")); }

std::set<std::string> registry_ids() {
  std::set<std::string> out;
  for (const ProcedureInfo& p : procedures()) {
    out.emplace(p.id);
  }
  return out;
}

TEST(Registry, EveryTestHasItsDataReportSectionsAndSchemaBranch) {
  const std::vector<std::string> data = DefinitionSet::embedded().test_ids();
  EXPECT_EQ(std::set<std::string>(data.begin(), data.end()), registry_ids());
  std::set<std::string> report_ids;
  for (const report::TestSections& s : report::all_sections()) {
    report_ids.emplace(s.test_id);
    EXPECT_NE(s.html_pages, nullptr) << s.test_id;
  }
  EXPECT_EQ(report_ids, registry_ids());

  const json& schema = schema_test::schema();
  const json& defs = schema.at("$defs");
  std::set<std::string> enum_ids;
  for (const json& id : defs.at("test_id").at("enum")) {
    enum_ids.insert(id.get<std::string>());
  }
  EXPECT_EQ(enum_ids, registry_ids());
  const json& record = defs.at("test_record");
  for (const ProcedureInfo& p : procedures()) {
    SCOPED_TRACE(std::string(p.id));
    EXPECT_TRUE(defs.contains(std::string(p.schema_def)));
    EXPECT_EQ(record.at("properties").at(std::string(p.record_key)).at("$ref"), "#/$defs/" + std::string(p.schema_def));
    bool branch = false;
    for (const json& b : record.at("allOf")) {
      if (b.at("if").at("properties").at("id").at("const") == std::string(p.id)) {
        const json& required = b.at("then").at("required");
        branch = std::find(required.begin(), required.end(), std::string(p.record_key)) != required.end();
      }
    }
    EXPECT_TRUE(branch) << "no allOf branch requiring " << p.record_key;
  }
}

// The schema's per-test lists are checked against the one registry (procedures()), so that
// they cannot drift: the run-compliance clause enum holds every test id plus "run", and each
// test's allOf branch forbids every other test's block key (the "<key>": false entries), so
// a record carries its own block and no other.
TEST(Registry, SchemaBranchesFollowTheRegistry) {
  const json& defs = schema_test::schema().at("$defs");
  std::set<std::string> clause_ids;
  for (const json& id :
       defs.at("run_compliance").at("properties").at("clauses").at("items").at("properties").at("clause").at("enum")) {
    clause_ids.insert(id.get<std::string>());
  }
  std::set<std::string> expected_clauses = registry_ids();
  expected_clauses.insert("run");
  EXPECT_EQ(clause_ids, expected_clauses);

  std::set<std::string> block_keys;
  for (const ProcedureInfo& p : procedures()) {
    block_keys.emplace(p.record_key);
  }
  size_t branches = 0;
  for (const json& b : defs.at("test_record").at("allOf")) {
    const std::string id = b.at("if").at("properties").at("id").at("const").get<std::string>();
    const std::string own(find_procedure(id).record_key);
    const json& properties = b.at("then").at("properties");
    SCOPED_TRACE(id);
    ++branches;
    for (const std::string& key : block_keys) {
      if (key != own) {
        EXPECT_TRUE(properties.contains(key) && properties.at(key) == false)
            << "the branch of " << id << " must forbid \"" << key << "\" (add \"" << key << "\": false)";
      }
    }
    EXPECT_TRUE(!properties.contains(own) || properties.at(own) != false) << id << " forbids its own block";
  }
  EXPECT_EQ(branches, procedures().size()) << "one allOf branch per registered test";
}

TEST(Registry, AliasesAndAllAreFromTheRegistry) {
  EXPECT_EQ(find_procedure("tp").id, "throughput");
  EXPECT_EQ(find_procedure("lat").id, "latency");
  EXPECT_EQ(core_test_ids(), (std::vector<std::string>{"iops", "throughput", "latency", "wsat", "cbw"}));
  try {
    (void)find_procedure("jesd219");
    FAIL() << "jesd219 is not registered";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("xsr"), std::string::npos) << e.what();
  }
}

// Every value a test file declares (for 2.0.2, both profiles) is read by the procedure: a
// value the code ignores would be a setting or a clause that changes the report but not the
// run.
TEST(PtsData, EveryValueATestDeclaresIsReadByItsProcedure) {
  const std::pair<std::string, std::string> contexts[] = {
      {"2.0.2", "enterprise"}, {"2.0.2", "client"}, {"e1.1", "enterprise"}};
  for (const auto& [revision, profile] : contexts) {
    const SpecContext spec{revision, profile, example_sheet()};
    const DefinitionSet& defs = DefinitionSet::embedded();
    const Settings settings = Settings::build(defs, spec, {"quick"}, {});
    for (const ProcedureInfo& p : procedures()) {
      // Under e1.1 only the tests that exist only there (ECW): the others declare their 2.0
      // additions (the Latency and WSAT captures) for every revision, and e1.1 does not run them.
      if (!test_in_revision(std::string(p.id), revision) ||
          (revision == "e1.1" && !defs.test(std::string(p.id)).contains("revisions"))) {
        continue;
      }
      SCOPED_TRACE(std::string(p.id) + " " + revision + " " + profile);
      PlanningExecutor exec(PlanCase::best, {});
      TestContext ctx{defs, spec, settings, exec, TargetFacts{1ull << 30, 512}};
      const json rec = make_test(p.id)->run(ctx);
      std::set<std::string> read;
      for (const json& param : rec.at("parameters")) {
        read.insert(param.at("path").get<std::string>());
      }
      for (const SpecValue& v : defs.all_values(spec)) {
        if (v.path.rfind(std::string(p.id) + "/", 0) == 0) {
          EXPECT_TRUE(read.count(v.path) == 1) << v.path << " is declared but never read";
        }
      }
    }
  }
}

// Builds the embedded definitions with one file replaced.
DefinitionSet with_file(const std::string& path, const std::function<void(json&)>& edit) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const EmbeddedFile& f : embedded_files()) {
    std::string content(f.content);
    if (f.path == path) {
      json j = json::parse(content);
      edit(j);
      content = j.dump();
    }
    files.emplace_back(std::string(f.path), content);
  }
  return DefinitionSet::from_files(files);
}

json run_iops(const DefinitionSet& defs, testing::FakeExecutor& exec) {
  const SpecContext spec{"2.0.2", "enterprise"};
  const Settings settings = Settings::build(defs, spec, {}, {{"max_rounds", "6"}});
  TestContext ctx{defs, spec, settings, exec, TargetFacts{1ull << 30, 512}};
  return make_test("iops")->run(ctx);
}

TEST(PtsData, LoopOrderAndPatternDriveTheRound) {
  const DefinitionSet defs = with_file("tests/iops.json", [](json& j) {
    j["loop_order"]["value"] = "block_size_outer_rw_mix_inner";
    j["pattern"]["value"] = "sequential";
  });
  // IOPS = 1000 + read % of the segment: every matrix cell must land in its R/W column.
  testing::FakeExecutor exec([](const StepId&, const SegmentSpec& s) { return 1000.0 + s.mix.read_pct; });
  const json rec = run_iops(defs, exec);
  const json& tmpl = rec.at("phases")[0].at("round_template");
  EXPECT_EQ(tmpl[0].at("label"), "SEQ 1MiB 100/0");
  EXPECT_EQ(tmpl[1].at("label"), "SEQ 1MiB 95/5");
  EXPECT_EQ(tmpl[7].at("label"), "SEQ 128KiB 100/0");
  const json& m = rec.at("matrix");
  for (size_t r = 0; r < m.at("rows").size(); ++r) {
    for (size_t c = 0; c < m.at("columns").size(); ++c) {
      const double read_pct = parse_rw_mix(m.at("columns")[c].get<std::string>(), "t").read_pct;
      EXPECT_DOUBLE_EQ(m.at("iops")[r][c].get<double>(), 1000.0 + read_pct);
    }
  }
  EXPECT_EQ(rec.at("phases")[0].at("tracking")[0].at("segment_label"), "SEQ 4KiB 0/100");
}

TEST(PtsData, ReportedValueChoosesWindowAverageOrFinalRound) {
  // Round r gives 1000 x r IOPS: never steady, so all 6 Rounds run; window = Rounds 2-6.
  // Steps outside the Rounds (WIPC) are named otherwise and give a flat 1000 IOPS.
  auto by_round = [](const StepId& id, const SegmentSpec&) {
    return id.name.rfind('r', 0) == 0 ? 1000.0 * std::stoi(id.name.substr(1, 3)) : 1000.0;
  };
  testing::FakeExecutor a(by_round);
  const json window = run_iops(DefinitionSet::embedded(), a).at("matrix");
  EXPECT_EQ(window.at("source"), "measurement-window-average");
  EXPECT_DOUBLE_EQ(window.at("iops")[0][0].get<double>(), 4000.0);  // mean of 2000..6000
  const DefinitionSet defs =
      with_file("tests/iops.json", [](json& j) { j["reported_value"]["value"] = "final-round"; });
  testing::FakeExecutor b(by_round);
  const json last = run_iops(defs, b).at("matrix");
  EXPECT_EQ(last.at("source"), "final-round");
  EXPECT_DOUBLE_EQ(last.at("iops")[0][0].get<double>(), 6000.0);
}

TEST(PtsData, SteadyStateRuleComesFromCommonJson) {
  const DefinitionSet defs = with_file("common.json", [](json& j) {
    j["steady_state"]["window_rounds"]["value"] = 3;
    j["steady_state"]["first_check_round"]["value"] = 3;
    j["steady_state"]["data_excursion_pct"]["value"] = 30;
  });
  testing::FakeExecutor exec([](const StepId&, const SegmentSpec&) { return 1000.0; });
  const json phase = run_iops(defs, exec).at("phases")[0];
  EXPECT_EQ(phase.at("steady_state").at("rounds_run"), 3);
  EXPECT_EQ(phase.at("steady_state").at("criteria").at("window_rounds"), 3);
  EXPECT_EQ(phase.at("steady_state").at("criteria").at("data_excursion_pct"), 30.0);
  EXPECT_EQ(phase.at("tracking")[0].at("display").at("unit"), "IOPS");
  // The C++ defaults of SteadyStateCriteria are the PTS values of pts/common.json.
  const json& ss = DefinitionSet::embedded().common().at("steady_state");
  const SteadyStateCriteria c;
  EXPECT_EQ(c.window_rounds, ss.at("window_rounds").at("value").get<uint32_t>());
  EXPECT_EQ(c.data_excursion_pct, ss.at("data_excursion_pct").at("value").get<double>());
  EXPECT_EQ(c.slope_excursion_pct, ss.at("slope_excursion_pct").at("value").get<double>());
}

// Part A.7: the worst case is the real worst case: every steady-state phase of every test
// runs to the Round cap, whatever its tracking metric (Latency tracks the mean response time).
TEST(PlanWorstCase, EveryPhaseOfEveryTestRunsToTheRoundCap) {
  const SpecContext spec{"2.0.2", "enterprise", example_sheet()};
  const Settings settings = Settings::build(DefinitionSet::embedded(), spec, {"quick"}, {});
  for (const ProcedureInfo& p : procedures()) {
    if (!test_in_revision(std::string(p.id), spec.revision)) {
      continue;
    }
    PlanningExecutor exec(PlanCase::worst, {});
    TestContext ctx{DefinitionSet::embedded(), spec, settings, exec, TargetFacts{1ull << 30, 512}};
    const json rec = make_test(p.id)->run(ctx);
    for (const json& phase : rec.at("phases")) {
      EXPECT_EQ(phase.at("steady_state").at("rounds_run"), 5) << p.id << " " << phase.at("phase");  // quick cap
      EXPECT_FALSE(phase.at("steady_state").at("attained").get<bool>());
    }
  }
  const Settings full = Settings::build(DefinitionSet::embedded(), spec, {}, {});
  const Plan worst =
      make_plan({"latency"}, DefinitionSet::embedded(), spec, full, TargetFacts{1ull << 30, 512}, PlanCase::worst, {});
  const size_t rounds =
      static_cast<size_t>(std::count_if(worst.steps.begin(), worst.steps.end(),
                                        [](const PlanStep& s) { return s.id.find("-health") != std::string::npos; }));
  EXPECT_EQ(rounds, 25u);
  // 25 Rounds x 9 one-minute segments + the 20-minute capture, WIPC and purge: about 4 h 10 min.
  EXPECT_GT(worst.total_ns, 4ull * 3600 * 1'000'000'000ull);
}

// Part A.5: PTS-E 1.1 has no client profile.
TEST(Revisions, E11WithTheClientProfileIsBadInputNamingTheValidCombinations) {
  try {
    (void)Settings::build(DefinitionSet::embedded(), {"e1.1", "client"}, {}, {});
    FAIL() << "e1.1 + client accepted";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("--profile"), std::string::npos) << what;
    EXPECT_NE(what.find("--revision e1.1 --profile enterprise"), std::string::npos) << what;
    EXPECT_NE(what.find("--revision 2.0.2 --profile client"), std::string::npos) << what;
  }
}

// Part A.3: WSAT's TOIO provenance is its own clause ([I], PTSU §10), not the IOPS one.
TEST(Settings, ToioSettingsCarryTheirTestsProvenanceAndChoice) {
  const Settings s = Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, {}, {});
  const SettingRecord& wsat = s.record("wsat.threads");
  EXPECT_EQ(wsat.provenance.tag, Confidence::inferred);
  EXPECT_NE(wsat.provenance.clause.find("§10"), std::string::npos) << wsat.provenance.clause;
  EXPECT_TRUE(wsat.operator_choice);
  EXPECT_EQ(wsat.default_value, 4);
  const SettingRecord& tp = s.record("throughput.threads");
  EXPECT_FALSE(tp.operator_choice);
  EXPECT_NE(tp.description.find("deviation"), std::string::npos) << tp.description;
  EXPECT_TRUE(s.record("iops.threads").operator_choice);
  EXPECT_TRUE(s.record("iops.segment_duration").time_scaling);
  EXPECT_FALSE(s.record("cbw.max_iops_art_ceiling").time_scaling);
}

}  // namespace
}  // namespace ptsuite::pts
