// Spec-sheet validation (pts/claims.hpp, the claims procedure, pts/claims_from_runs.hpp): the
// example sheets, one-line errors naming the field, the pass/fail/margin rule, the step
// sequence of FOB and steady-state points over the fake executor, and claims judged on the
// checked-in results fixtures, each against the results schema.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <ptsuite/pts/claims.hpp>
#include <ptsuite/pts/claims_from_runs.hpp>
#include <ptsuite/pts/test_procedure.hpp>
#include <ptsuite/stats/stats_json.hpp>
#include <ptsuite/util/embedded.hpp>
#include <ptsuite/util/error.hpp>

#include "support/fake_step_executor.hpp"
#include "support/results_fixture.hpp"
#include "support/schema_support.hpp"

namespace ptsuite::pts {
namespace {

using nlohmann::json;

json embedded_sheet(const std::string& name) { return json::parse(*embedded_file("sheets/" + name + ".json")); }

json claim(const std::string& id, const std::string& metric, json value, json conditions) {
  return json{{"id", id}, {"metric", metric}, {"value", std::move(value)}, {"conditions", std::move(conditions)}};
}

json conditions(const std::string& pattern, const std::string& bs, const std::string& mix, uint32_t tc, uint32_t qd,
                const std::string& state) {
  return json{{"pattern", pattern}, {"block_size", bs},  {"rw_mix", mix},
              {"threads", tc},      {"queue_depth", qd}, {"state", state}};
}

json sheet_of(json claims) {
  return json{{"format", "ptsuite-claims/1"}, {"model", "Test"}, {"claims", std::move(claims)}};
}

TEST(ClaimSheet, ExampleSheetsParseAndGroupIntoPoints) {
  for (const std::string name : {"enterprise-nvme", "sata-ssd"}) {
    SCOPED_TRACE(name);
    const json j = embedded_sheet(name);
    EXPECT_TRUE(validate_json(j, embedded_schema("claims")).empty());
    const ClaimSheet sheet = parse_claim_sheet(j, name);
    EXPECT_GE(sheet.claims.size(), 5u);
    const std::vector<MeasurementPoint> points = measurement_points(sheet);
    // FOB points come first; every claim is in exactly one point.
    size_t claims = 0;
    bool seen_steady = false;
    for (const MeasurementPoint& p : points) {
      seen_steady = seen_steady || p.conditions.state == ClaimState::steady_state;
      EXPECT_FALSE(seen_steady && p.conditions.state == ClaimState::fob) << p.id;
      claims += p.claims.size();
    }
    EXPECT_EQ(claims, sheet.claims.size());
  }
  const ClaimSheet nvme = parse_claim_sheet(embedded_sheet("enterprise-nvme"), "nvme");
  const std::vector<MeasurementPoint> points = measurement_points(nvme);
  ASSERT_EQ(points.size(), 7u);  // 2 FOB + 5 steady-state workloads
  EXPECT_EQ(points[0].id, "p01");
  EXPECT_EQ(conditions_text(points[0].conditions), "SEQ 128KiB 100/0 TC 1 QD 32 FOB");
  // mean latency, 99 % and 99.99 % of RND 4 KiB read at QD 1 share one measurement.
  EXPECT_EQ(points[5].claims.size(), 3u);
  EXPECT_EQ(nvme.claims[7].percentile, 99.99);
  EXPECT_EQ(nvme.claims[7].value, 200'000.0);  // "200us" in ns
  EXPECT_EQ(nvme.claims[7].tolerance_pct, 0.0);
  EXPECT_EQ(nvme.claims[0].tolerance_pct, 5.0);  // the sheet's default
  EXPECT_EQ(nvme.claims[4].direction, ClaimDirection::combined);
}

// Every problem is one UsageError naming the file and the field path.
TEST(ClaimSheet, ErrorsNameTheFileAndField) {
  const json good = claim("c", "iops", 1000, conditions("random", "4KiB", "100/0", 1, 1, "fob"));
  struct Case {
    std::function<void(json&)> edit;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {[](json& s) { s["format"] = "ptsuite-claims/2"; }, "s.json: format: must be \"ptsuite-claims/1\""},
      {[](json& s) { s["modle"] = "x"; }, "s.json: modle: unknown field"},
      {[](json& s) { s["claims"] = json::array(); }, "s.json: claims: must be a non-empty array"},
      {[](json& s) { s["claims"][0]["conditions"]["queue_dept"] = 4; },
       "s.json: claims[0].conditions.queue_dept: unknown field"},
      {[](json& s) { s["claims"][0]["metric"] = "bandwidth"; },
       "s.json: claims[0].metric: \"bandwidth\" is not one of"},
      {[](json& s) { s["claims"][0]["conditions"]["block_size"] = "4XB"; }, "s.json: claims[0].conditions.block_size:"},
      {[](json& s) { s["claims"][0]["conditions"]["block_size"] = "100"; },
       "claims[0].conditions.block_size: must be a non-zero multiple of 512 bytes"},
      {[](json& s) { s["claims"][0]["conditions"]["threads"] = 0; }, "claims[0].conditions.threads: must be a whole"},
      {[](json& s) { s["claims"][0]["conditions"].erase("queue_depth"); },
       "claims[0].conditions.queue_depth: is required"},
      {[](json& s) { s["claims"][0].erase("conditions"); }, "claims[0].conditions: is required"},
      {[](json& s) { s["claims"][0]["conditions"].erase("pattern"); }, "claims[0].conditions.pattern: is required"},
      {[](json& s) { s["claims"][0]["conditions"]["state"] = "steady"; }, "claims[0].conditions.state: \"steady\""},
      {[](json& s) { s["claims"][0]["conditions"]["rw_mix"] = "70/20"; }, "claims[0].conditions.rw_mix:"},
      {[](json& s) { s["claims"][0]["value"] = -5; }, "claims[0].value:"},
      {[](json& s) { s["claims"][0]["tolerance_pct"] = 150; }, "claims[0].tolerance_pct: 150 is outside 0..100"},
      {[](json& s) { s["claims"].push_back(s["claims"][0]); }, "claims[1].id: \"c\" is used by an earlier claim"},
      {[](json& s) {
         s["claims"][0]["metric"] = "latency_percentile";
         s["claims"][0]["value"] = "90us";
       },
       "claims[0].percentile: is required"},
      {[](json& s) {
         s["claims"][0]["metric"] = "latency_percentile";
         s["claims"][0]["percentile"] = 99.5;
         s["claims"][0]["value"] = "90us";
       },
       "claims[0].percentile: 99.5 is not one of the measured percentiles"},
      {[](json& s) {
         s["claims"][0]["metric"] = "latency_mean";
         s["claims"][0]["value"] = 90;
       },
       "claims[0].value: must be a string"},
      {[](json& s) {
         s["claims"][0]["metric"] = "latency_mean";
         s["claims"][0]["value"] = "90us";
         s["claims"][0]["conditions"]["rw_mix"] = "70/30";
       },
       "claims[0].direction: is required for a latency claim under a mixed R/W workload"},
      {[](json& s) { s["claims"][0]["direction"] = "write"; },
       "claims[0].direction: \"write\" is not one of read, combined"},
      {[](json& s) {
         s["claims"][0]["conditions"]["pattern"] = "sequential";
         s["claims"][0]["conditions"]["active_range_pct"] = 20;
       },
       "claims[0].conditions.active_range_pct: an ActiveRange below 100 % applies to random claims only"},
  };
  EXPECT_NO_THROW((void)parse_claim_sheet(sheet_of(json::array({good})), "s.json"));
  for (const Case& c : cases) {
    json s = sheet_of(json::array({good}));
    c.edit(s);
    try {
      (void)parse_claim_sheet(s, "s.json");
      ADD_FAILURE() << "accepted: " << c.expected;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
      EXPECT_EQ(e.code(), ExitCode::usage);
    }
  }
}

TEST(ClaimSheet, SyntaxErrorNamesTheBytePosition) {
  const std::string path = ::testing::TempDir() + "/broken-sheet.json";
  std::ofstream(path) << "{\"format\": \"ptsuite-claims/1\",\n \"model\": }";
  try {
    (void)load_claim_sheet(path);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": not valid JSON at byte"), std::string::npos) << e.what();
  }
}

Claim parsed_claim(const std::string& metric, json value, double tolerance, const std::string& mix = "100/0") {
  json c = claim("c", metric, std::move(value), conditions("random", "4KiB", mix, 1, 1, "fob"));
  c["tolerance_pct"] = tolerance;
  if (metric == "latency_percentile") c["percentile"] = 99.99;
  if (metric.rfind("latency", 0) == 0 && mix != "100/0" && mix != "0/100") c["direction"] = "write";
  return parse_claim_sheet(sheet_of(json::array({c})), "s").claims.at(0);
}

// IOPS and MB/s are minimums, latencies maximums; the margin is positive when better.
TEST(ClaimVerdict, MarginAndToleranceBothWays) {
  const Claim iops = parsed_claim("iops", 1000, 5);
  EXPECT_TRUE(judge_claim(iops, 950).pass);
  EXPECT_DOUBLE_EQ(judge_claim(iops, 950).margin_pct, -5.0);
  EXPECT_FALSE(judge_claim(iops, 949).pass);
  EXPECT_DOUBLE_EQ(judge_claim(iops, 1100).margin_pct, 10.0);
  const Claim lat = parsed_claim("latency_mean", "100us", 0);
  EXPECT_TRUE(judge_claim(lat, 100'000).pass);
  EXPECT_FALSE(judge_claim(lat, 101'000).pass);
  EXPECT_DOUBLE_EQ(judge_claim(lat, 101'000).margin_pct, -1.0);
  EXPECT_DOUBLE_EQ(judge_claim(lat, 80'000).margin_pct, 20.0);
  EXPECT_DOUBLE_EQ(judge_claim(lat, 80'000).declared, 100.0);  // shown in us
  EXPECT_DOUBLE_EQ(judge_claim(lat, 80'000).measured, 80.0);
  // Nothing measured in the claimed direction is never a pass (a latency of 0 would "win").
  EXPECT_FALSE(judge_claim(lat, 0).pass);
  EXPECT_FALSE(judge_claim(iops, 0).pass);
}

TEST(ClaimVerdict, MeasuredValueReadsTheClaimedDirectionAndPercentile) {
  stats::IoSummary s;
  s.read.iops = 700;
  s.write.iops = 300;
  s.combined.iops = 1000;
  s.write.latency_mean_ns = 50'000;
  s.write.percentiles = {{99.0, 80'000}, {99.99, 400'000}};
  EXPECT_EQ(measured_value(parsed_claim("iops", 1, 0, "70/30"), s), 1000);
  EXPECT_EQ(measured_value(parsed_claim("latency_mean", "1ms", 0, "70/30"), s), 50'000);
  EXPECT_EQ(measured_value(parsed_claim("latency_percentile", "1ms", 0, "70/30"), s), 400'000);
  EXPECT_EQ(measured_value(parsed_claim("iops", 1, 0, "0/100"), s), 300);
}

// --- the procedure over the fake executor ---------------------------------------------------

struct Validation {
  explicit Validation(json sheet, testing::FakeExecutor::ValueFn iops)
      : exec(std::move(iops), 80'000),
        settings(Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, {"quick"}, {})),
        ctx{DefinitionSet::embedded(),
            {"2.0.2", "enterprise", std::move(sheet)},
            settings,
            exec,
            TargetFacts{1ull << 30, 512}},
        rec(make_test("claims")->run(ctx)) {}
  testing::FakeExecutor exec;
  Settings settings;
  TestContext ctx;
  json rec;
};

json two_point_sheet() {
  return sheet_of(json::array({
      claim("rr", "iops", 900, conditions("random", "4KiB", "100/0", 2, 8, "fob")),
      claim("rr-high", "iops", 2000, conditions("random", "4KiB", "100/0", 2, 8, "fob")),
      claim("ww-lat", "latency_mean", "100us", conditions("random", "4KiB", "0/100", 1, 1, "steady_state")),
  }));
}

TEST(ClaimsProcedure, FobPointsFromAPurgeAndAFillSteadyPointsThroughWipcAndRounds) {
  Validation v(two_point_sheet(), [](const StepId&, const SegmentSpec&) { return 1000.0; });
  std::vector<std::string> steps;
  for (const std::string& s : v.exec.executed) {
    if (s.find("health") == std::string::npos) steps.push_back(s);
  }
  ASSERT_GE(steps.size(), 9u);
  EXPECT_EQ(steps[0], "claims/p01/purge");
  EXPECT_EQ(steps[1], "claims/p01/read-fill");
  EXPECT_EQ(steps[2], "claims/p01/measure");
  EXPECT_EQ(steps[3], "claims/p02/purge");
  EXPECT_EQ(steps[4], "claims/p02/wipc");
  EXPECT_EQ(steps[5], "claims/p02/r001-s00");
  // The fill writes 0.25 (quick) x the 1 GiB capacity in 128 KiB SEQ writes at TC 1 / QD 32.
  const SegmentSpec& fill = v.exec.segments[0];
  EXPECT_EQ(fill.pattern, workload::AccessPattern::sequential);
  EXPECT_EQ(fill.bytes_limit, (1ull << 30) / 4);
  EXPECT_EQ(fill.queue_depth, 32u);
  const SegmentSpec& measure = v.exec.segments[1];
  EXPECT_EQ(measure.threads, 2u);
  EXPECT_EQ(measure.queue_depth, 8u);
  EXPECT_EQ(measure.duration_ns, 2'000'000'000u);  // claims.measure_duration under quick

  const json& val = v.rec.at("validation");
  EXPECT_TRUE(validate_json_at(val, schema_test::schema(), "#/$defs/validation_block").empty())
      << schema_test::joined(validate_json_at(val, schema_test::schema(), "#/$defs/validation_block"));
  EXPECT_EQ(val.at("mode"), "measured");
  ASSERT_EQ(val.at("claims").size(), 3u);
  EXPECT_EQ(val.at("claims")[0].at("verdict"), "pass");  // 1000 >= 900
  EXPECT_EQ(val.at("claims")[1].at("verdict"), "fail");  // 1000 < 2000 (tolerance 0)
  EXPECT_DOUBLE_EQ(val.at("claims")[1].at("margin_pct").get<double>(), -50.0);
  EXPECT_EQ(val.at("claims")[2].at("verdict"), "pass");  // 80 us <= 100 us
  EXPECT_DOUBLE_EQ(val.at("claims")[2].at("measured").get<double>(), 80.0);
  EXPECT_EQ(val.at("verdict"), "fail");
  EXPECT_EQ(val.at("totals").at("fail"), 1);
  EXPECT_TRUE(val.at("points")[0].at("read_fill").is_object());
  EXPECT_TRUE(val.at("points")[1].at("steady_state").at("attained").get<bool>());
  // The steady-state point tracks mean latency for a latency claim (claims.json "tracking").
  EXPECT_EQ(v.rec.at("phases")[0].at("tracking")[0].at("metric"), "mean_latency");
  EXPECT_EQ(v.rec.at("preconditioning").size(), 1u);  // the WIPC only: the read fill is not WIPC
}

// IOPS alternating 1000 / 2000 from Round to Round never settles: judged on the last window,
// with the caveat naming the point.
TEST(ClaimsProcedure, SteadyStateNotAttainedIsACaveat) {
  const json sheet = sheet_of(json::array({
      claim("ww", "iops", 900, conditions("random", "4KiB", "0/100", 4, 32, "steady_state")),
  }));
  Validation v(sheet, [](const StepId& id, const SegmentSpec&) {
    return id.name.rfind("r0", 0) == 0 ? 1000.0 * (1 + std::stoi(id.name.substr(1, 3)) % 2) : 1000.0;
  });
  const json& val = v.rec.at("validation");
  EXPECT_FALSE(val.at("points")[0].at("steady_state").at("attained").get<bool>());
  EXPECT_EQ(v.rec.at("phases")[0].at("tracking")[0].at("metric"), "iops");
  ASSERT_EQ(val.at("caveats").size(), 1u);
  EXPECT_NE(val.at("caveats")[0].get<std::string>().find(
                "p01 (RND 4KiB 0/100 TC 4 QD 32 SS): steady state NOT attained by Round 5; its claims are judged on "
                "Rounds 1..5"),
            std::string::npos)
      << val.at("caveats")[0];
  EXPECT_EQ(val.at("claims")[0].at("verdict"), "pass");  // window average 1400 (or 1600) >= 900
}

TEST(ClaimsProcedure, WithoutASheetItPointsToValidate) {
  testing::FakeExecutor exec([](const StepId&, const SegmentSpec&) { return 1.0; });
  const Settings settings = Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, {}, {});
  TestContext ctx{DefinitionSet::embedded(), {"2.0.2", "enterprise"}, settings, exec, TargetFacts{1ull << 30, 512}};
  try {
    (void)make_test("claims")->run(ctx);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("ptsuite validate --claims"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(exec.executed.empty());
}

// --- judged on existing runs ------------------------------------------------------------------

SourceRun fixture_run(const std::string& name) {
  std::ifstream in(test_support::results_fixture_path(name));
  std::stringstream buf;
  buf << in.rdbuf();
  return {"/runs/" + name, json::parse(buf.str()), std::string(64, 'a')};
}

TEST(ClaimsFromRuns, PtsWindowsCoverMatchingClaimsAndTheRestIsNamed) {
  const SourceRun run = fixture_run("steady");
  // The IOPS test's RND 4 KiB 100/0 at its TOIO (TC 4 / QD 32), from the measurement window.
  json sheet = sheet_of(json::array({
      claim("iops-covered", "iops", 1, conditions("random", "4KiB", "100/0", 4, 32, "steady_state")),
      claim("other-qd", "iops", 1, conditions("random", "4KiB", "100/0", 4, 64, "steady_state")),
      claim("fob", "iops", 1, conditions("random", "4KiB", "100/0", 4, 32, "fob")),
  }));
  const ClaimSheet parsed = parse_claim_sheet(sheet, "s");
  const json doc = results_from_runs(
      parsed, {run},
      FromRunsInputs{sheet, "s.json", {"ptsuite", "validate"}, "", "/out", {"html"}, "2026-11-25T00:00:00Z"});
  const json& val = doc.at("tests")[0].at("validation");
  EXPECT_EQ(val.at("mode"), "from-runs");
  const json& claims = val.at("claims");
  EXPECT_EQ(claims[0].at("verdict"), "pass");
  EXPECT_EQ(claims[0].at("point"), "p01");
  const json& point = val.at("points")[0];
  EXPECT_EQ(point.at("source").at("test"), "iops");
  EXPECT_EQ(point.at("source").at("dir"), "/runs/steady");
  // The measured value is the window aggregate of that very template segment.
  double window_iops = 0;
  for (const json& rec : run.results.at("tests")) {
    if (rec.at("id") != "iops") continue;
    const PhaseRecord phase = rec.at("phases")[0].get<PhaseRecord>();
    for (size_t i = 0; i < phase.segments.size(); ++i) {
      if (phase.segments[i].label == "RND 4KiB 100/0") window_iops = phase.window[i].read.iops;
    }
  }
  EXPECT_GT(window_iops, 0);
  EXPECT_DOUBLE_EQ(claims[0].at("measured").get<double>(), window_iops);
  EXPECT_EQ(claims[1].at("verdict"), "not covered");
  EXPECT_NE(claims[1].at("why").get<std::string>().find("nearest: RND 4KiB 100/0 TC 4 QD 32 SS (iops in /runs/steady)"),
            std::string::npos)
      << claims[1].at("why");
  EXPECT_EQ(claims[2].at("verdict"), "not covered");
  EXPECT_EQ(val.at("verdict"), "incomplete");
  const std::vector<std::string> errors = validate_json(doc, schema_test::schema());
  EXPECT_TRUE(errors.empty()) << schema_test::joined(errors);
}

TEST(ClaimsFromRuns, AnEarlierValidationIsASourceAndEachSourcesVerdictIsInherited) {
  json sheet = sheet_of(json::array({
      claim("iops-covered", "iops", 1, conditions("random", "4KiB", "100/0", 4, 32, "steady_state")),
  }));
  const ClaimSheet parsed = parse_claim_sheet(sheet, "s");
  const FromRunsInputs inputs{sheet, "s.json", {"ptsuite", "validate"}, "", "/out", {"html"}, "2026-11-25T00:00:00Z"};
  const json first = results_from_runs(parsed, {fixture_run("steady")}, inputs);
  // The first validation's claims record is itself a source: its point, not the PTS window.
  const json again = results_from_runs(parsed, {{"/runs/v", first, std::string(64, 'b')}}, inputs);
  const json& rec = again.at("tests")[0];
  const json& point = rec.at("validation").at("points")[0];
  EXPECT_EQ(point.at("source").at("test"), "claims");
  EXPECT_EQ(point.at("source").at("phase"), "p01");
  EXPECT_EQ(point.at("summary"), first.at("tests")[0].at("validation").at("points")[0].at("summary"));
  EXPECT_EQ(rec.at("validation").at("claims")[0].at("measured"),
            first.at("tests")[0].at("validation").at("claims")[0].at("measured"));
  EXPECT_EQ(rec.at("max_queue_depth"), 32);
  EXPECT_EQ(rec.at("compliance").at("clauses")[0].at("detail"), first.at("compliance").at("summary"));
  // A source without a run verdict makes the validation not compliant, and says so.
  SourceRun unjudged = fixture_run("steady");
  unjudged.results.erase("compliance");
  const json doc = results_from_runs(parsed, {unjudged}, inputs);
  const json& clause = doc.at("tests")[0].at("compliance").at("clauses")[0];
  EXPECT_EQ(clause.at("status"), "fail");
  EXPECT_EQ(clause.at("detail"), "no compliance verdict");
  EXPECT_FALSE(doc.at("compliance").at("compliant").get<bool>());
}

TEST(ClaimsFromRuns, RefusesADocumentThatIsNotResults) {
  const ClaimSheet sheet = parse_claim_sheet(
      sheet_of(json::array({claim("c", "iops", 1, conditions("random", "4KiB", "100/0", 1, 1, "fob"))})), "s");
  EXPECT_THROW((void)results_from_runs(sheet, {{"/x", json{{"kind", "ptsuite.workload"}}, ""}}, {}), UsageError);
  EXPECT_THROW((void)results_from_runs(sheet, {}, {}), UsageError);
}

}  // namespace
}  // namespace ptsuite::pts
