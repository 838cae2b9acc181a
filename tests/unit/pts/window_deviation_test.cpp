// The disclosed deviations of issue 40 item 8: a warm-up before every Round segment
// (segment.warmup) and a "last N of M Rounds" measurement window (window.fixed_rounds,
// window.last_rounds, the DC500 lab report's "last 4 of 25"). Each is a named setting the run
// records; a run with one is not a compliant PTS run; the warm-up's IO is never measured.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

#include <ptsuite/engine/target.hpp>
#include <ptsuite/pts/compliance.hpp>
#include <ptsuite/pts/device_executor.hpp>
#include <ptsuite/pts/test_procedure.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

#include "support/fake_step_executor.hpp"
#include "support/temp_dir.hpp"

namespace ptsuite::pts {
namespace {

using nlohmann::json;

struct DeviatedRun {
  json record;
  ComplianceVerdict verdict;
  std::vector<SegmentSpec> segments;  // every segment the executor ran, in order
};

// The Latency test over the fake executor: IOPS = 1000 x the Round number (so a window's average
// names its Rounds), latency 100 us, judged as the run does.
DeviatedRun run_latency_with(const std::vector<std::pair<std::string, std::string>>& sets) {
  const SpecContext spec{"2.0.2", "enterprise"};
  const Settings settings = Settings::build(DefinitionSet::embedded(), spec, {}, sets);
  testing::FakeExecutor exec([](const StepId& id, const SegmentSpec&) {
    const bool round = id.name.size() > 4 && id.name[0] == 'r' && std::isdigit(id.name[1]) != 0;
    return round ? 1000.0 * std::stod(id.name.substr(1, 3)) : 1000.0;
  });
  exec.purge_result = {{"method", "nvme-format"}, {"pts_compliant", true}, {"outcome", "succeeded"}};
  TestContext ctx{DefinitionSet::embedded(), spec, settings, exec, {1ull << 30, 512}};
  DeviatedRun out;
  out.record = make_test("latency")->run(ctx);
  const json applied{{"applicable", true}, {"enabled", false}, {"note", ""}};
  out.record["write_cache"] = {{"requested_enabled", false}, {"original", applied}, {"applied", applied}};
  out.record["status"] = "complete";
  out.verdict = evaluate_test_compliance(out.record, {DefinitionSet::embedded(), settings, "libaio"});
  out.segments = exec.segments;
  return out;
}

bool fails_naming(const ComplianceVerdict& v, const std::string& setting) {
  return std::any_of(v.clauses.begin(), v.clauses.end(), [&](const ClauseVerdict& c) {
    return c.clause == "settings" && c.status == ClauseStatus::fail &&
           c.detail.find(setting + " = ") != std::string::npos &&
           c.detail.find("a deviation from the spec") != std::string::npos;
  });
}

const json& main_phase(const json& record) {
  for (const json& p : record.at("phases")) {
    if (p.at("phase") == "main") return p;
  }
  throw std::runtime_error("no main phase");
}

TEST(WindowDeviation, TheSpecRunIsUnchangedAndCompliant) {
  const DeviatedRun run = run_latency_with({});
  const json& main = main_phase(run.record);
  // Steady at once (the IOPS swing by Round but the Latency test tracks the response time): the
  // window is Rounds 1-5, as before.
  EXPECT_EQ(main.at("rounds").size(), 5u);
  EXPECT_EQ(main.at("measurement_window").at("first_round"), 1);
  EXPECT_EQ(main.at("measurement_window").at("last_round"), 5);
  EXPECT_TRUE(run.verdict.compliant) << json(run.verdict).dump(1);
  for (const SegmentSpec& s : run.segments) EXPECT_EQ(s.warmup_ns, 0u) << s.label;
  EXPECT_FALSE(main.at("round_template").front().contains("warmup_ns"));
}

TEST(WindowDeviation, LastFourOfTwentyFiveRoundsAveragesTheLastFour) {
  const DeviatedRun run = run_latency_with({{"window.fixed_rounds", "25"}, {"window.last_rounds", "4"}});
  const json& main = main_phase(run.record);
  EXPECT_EQ(main.at("rounds").size(), 25u) << "steady state from Round 5 must not stop a fixed count";
  EXPECT_EQ(main.at("steady_state").at("stop_rule"), "fixed");
  EXPECT_EQ(main.at("steady_state").at("round_cap_setting"), "window.fixed_rounds");
  EXPECT_EQ(main.at("measurement_window").at("first_round"), 22);
  EXPECT_EQ(main.at("measurement_window").at("last_round"), 25);
  // The window's IOPS: the mean of Rounds 22-25 (23,500), not of 21-25 (23,000).
  const double iops = main.at("measurement_window").at("cells").front().at("summary").at("combined").at("iops");
  EXPECT_DOUBLE_EQ(iops, 23'500.0);
  EXPECT_FALSE(run.verdict.compliant);
  EXPECT_TRUE(fails_naming(run.verdict, "window.fixed_rounds")) << json(run.verdict).dump(1);
  EXPECT_TRUE(fails_naming(run.verdict, "window.last_rounds")) << json(run.verdict).dump(1);
  bool recorded = false;
  for (const json& p : run.record.at("parameters")) {
    recorded = recorded || (p.value("setting", "") == "window.last_rounds" && p.at("value") == 4);
  }
  EXPECT_TRUE(recorded) << "the report's settings table reads the record's parameters";
}

TEST(WindowDeviation, AWarmUpRunsBeforeEveryRoundSegmentAndIsADeviation) {
  const DeviatedRun run = run_latency_with({{"segment.warmup", "5s"}});
  const json& main = main_phase(run.record);
  size_t warmed = 0;
  for (const SegmentSpec& s : run.segments) {
    if (s.warmup_ns == 0) continue;
    EXPECT_EQ(s.warmup_ns, 5'000'000'000u) << s.label;
    ++warmed;
  }
  // Every segment of every Round, and nothing else (WIPC runs unwarmed).
  EXPECT_EQ(warmed, main.at("rounds").size() * main.at("round_template").size());
  EXPECT_EQ(main_phase(run.record).at("round_template").front().at("warmup_ns"), 5'000'000'000u);
  EXPECT_FALSE(run.verdict.compliant);
  EXPECT_TRUE(fails_naming(run.verdict, "segment.warmup")) << json(run.verdict).dump(1);
  // A warm-up is unmeasured time, not a shorter segment: no segment setting is judged shortened.
  EXPECT_FALSE(run.verdict.shortened);
}

TEST(WindowDeviation, SettingsRefuseAZeroWindowAndTakeTheirRanges) {
  const auto build = [](const std::string& name, const std::string& value) {
    return Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, {}, {{name, value}});
  };
  EXPECT_THROW(build("window.last_rounds", "0"), UsageError);
  EXPECT_THROW(build("window.fixed_rounds", "1001"), UsageError);
  EXPECT_THROW(build("segment.warmup", "2h"), UsageError);
  const Settings s = Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, {}, {});
  EXPECT_EQ(s.record("window.last_rounds").default_value, 5);
  EXPECT_EQ(s.record("window.fixed_rounds").default_value, 0);
  EXPECT_EQ(s.record("segment.warmup").provenance.tag, Confidence::inferred);
}

// On a real executor the warm-up's IO is never measured: a byte-limited sequential segment
// measures exactly its bytes, and its cursor continues from where the warm-up stopped.
TEST(WindowDeviation, TheDeviceExecutorRunsTheWarmUpUnmeasured) {
  test_support::ShmTempDir dir;
  constexpr uint64_t k_file_bytes = 64 * units::k_mib;
  const engine::Target target = engine::Target::open_read_only(dir.create_file("pages2-warmup.img", k_file_bytes));
  DeviceRunParams params;
  params.target = &target;
  params.engine = "null";
  DeviceExecutor exec(params);
  SegmentSpec s = make_segment(workload::AccessPattern::sequential, RwMix{100}, 4096, 1, 1, 0);
  s.bytes_limit = units::k_mib;
  s.label = "SEQ 4KiB 100/0";
  StepRequest request;
  request.kind = StepKind::segment;
  request.segment = s;
  s.sequence_key = "cold";
  request.segment = s;
  const SegmentResult cold = exec.execute(StepId{"t", "main", "r001-s00"}, request).get<SegmentResult>();
  ASSERT_EQ(cold.end_cursor_bytes.size(), 1u);
  EXPECT_EQ(cold.end_cursor_bytes.front(), units::k_mib) << "without a warm-up the cursor ends at the measured bytes";

  s.sequence_key = "warm";
  s.warmup_ns = 20'000'000;
  request.segment = s;
  const SegmentResult warm = exec.execute(StepId{"t", "main", "r001-s01"}, request).get<SegmentResult>();
  EXPECT_EQ(warm.summary.combined.bytes, units::k_mib) << "the warm-up's IO is not measured";
  EXPECT_EQ(warm.summary.combined.ios, units::k_mib / 4096);
  ASSERT_EQ(warm.end_cursor_bytes.size(), 1u);
  EXPECT_NE(warm.end_cursor_bytes.front(), units::k_mib) << "the measured run continues after the warm-up's IO";
}

}  // namespace
}  // namespace ptsuite::pts
