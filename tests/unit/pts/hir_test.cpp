// Host Idle Recovery (PTS 2.0.2 §11) over the fake step executor: the step sequence (purge,
// preconditioning Rounds to steady state, then per wait state the write + idle repetitions and
// the baseline), the idle lengths, the per-wait-state averages, the plan's idle time, and a
// resume after an interrupted idle step. The record is validated against the results schema
// through the "quick" results fixture (ResultsSchema.CheckedInFixturesMatchTheSchema).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include <ptsuite/pts/journal.hpp>
#include <ptsuite/pts/plan.hpp>
#include <ptsuite/pts/procedures/shared.hpp>
#include <ptsuite/pts/test_procedure.hpp>

#include "support/fake_step_executor.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::pts {
namespace {

using nlohmann::json;

const std::vector<std::pair<std::string, std::string>> k_short = {{"hir.precondition_segments", "2"},
                                                                  {"hir.precondition_segment_duration", "1s"},
                                                                  {"hir.wait_unit", "1s"},
                                                                  {"hir.write_period", "1s"},
                                                                  {"hir.repetitions", "2"},
                                                                  {"hir.baseline_periods", "3"}};

const SpecContext k_spec{"2.0.2", "enterprise"};

// IOPS by phase: 1000 in the preconditioning (steady at Round 5), 1000 + 100 x WS in the write
// periods of wait state WS, 900 in its baseline.
double by_phase(const StepId& id, const SegmentSpec&) {
  if (id.phase.rfind("wait-", 0) == 0) {
    return id.name == "baseline" ? 900.0 : 1000.0 + 100.0 * std::stod(id.phase.substr(5));
  }
  return 1000.0;
}

json run_hir(StepExecutor& exec, const Settings& settings) {
  TestContext ctx{DefinitionSet::embedded(), k_spec, settings, exec, TargetFacts{1ull << 30, 512}};
  return make_test("hir")->run(ctx);
}

Settings short_settings() { return Settings::build(DefinitionSet::embedded(), k_spec, {}, k_short); }

TEST(HirTest, PurgeRoundsThenWriteIdleRepetitionsAndABaselinePerWaitState) {
  testing::FakeExecutor exec(by_phase);
  const json rec = run_hir(exec, short_settings());
  std::vector<std::string> steps;
  std::copy_if(exec.executed.begin(), exec.executed.end(), std::back_inserter(steps),
               [](const std::string& s) { return s.find("health") == std::string::npos; });
  ASSERT_EQ(steps.size(), 1u + 5 * 2 + 5 * (2 * 2 + 1));  // purge, 5 Rounds x 2, 5 wait states
  EXPECT_EQ(steps[0], "hir/main/purge");
  EXPECT_EQ(steps[1], "hir/precondition/r001-s00");
  EXPECT_EQ(steps[10], "hir/precondition/r005-s01");
  EXPECT_EQ(steps[11], "hir/wait-1/write-0001");
  EXPECT_EQ(steps[12], "hir/wait-1/idle-0001");
  EXPECT_EQ(steps[13], "hir/wait-1/write-0002");
  EXPECT_EQ(steps[14], "hir/wait-1/idle-0002");
  EXPECT_EQ(steps[15], "hir/wait-1/baseline");
  EXPECT_EQ(steps.back(), "hir/wait-10/baseline");
  // Every segment is the stimulus at the test TOIO: RND 4 KiB 100 % W, TC 4 / QD 32.
  for (const SegmentSpec& s : exec.segments) {
    EXPECT_EQ(s.label, "RND 4KiB 0/100");
    EXPECT_EQ(s.threads, 4u);
    EXPECT_EQ(s.queue_depth, 32u);
  }
  EXPECT_EQ(exec.segments.back().duration_ns, 3'000'000'000u);  // 3 baseline periods of 1 s
  EXPECT_EQ(exec.segments.back().interval_ns, 1'000'000'000u);  // logged per write period
  EXPECT_TRUE(rec.at("preconditioning").empty());               // no WIPC
  EXPECT_EQ(rec.at("phases").size(), 1u);
  EXPECT_EQ(rec.at("phases")[0].at("tracking")[0].at("segment_index"), 1);  // the Round's last segment
}

TEST(HirTest, IdleLengthsAndAveragesPerWaitState) {
  testing::FakeExecutor exec(by_phase);
  const json hir = run_hir(exec, short_settings()).at("hir");
  EXPECT_DOUBLE_EQ(hir.at("steady_state_iops").get<double>(), 1000.0);
  EXPECT_TRUE(hir.at("steady_state_attained").get<bool>());
  const json& states = hir.at("wait_states");
  ASSERT_EQ(states.size(), 5u);
  const std::vector<uint32_t> ws = {1, 2, 3, 5, 10};
  for (size_t i = 0; i < ws.size(); ++i) {
    SCOPED_TRACE(ws[i]);
    EXPECT_EQ(states[i].at("wait_state"), ws[i]);
    EXPECT_EQ(states[i].at("idle_ns"), ws[i] * 1'000'000'000ull);  // WS x wait unit
    EXPECT_NEAR(states[i].at("average_iops").get<double>(), 1000.0 + 100.0 * ws[i], 1.0);
    EXPECT_NEAR(states[i].at("baseline").at("iops").get<double>(), 900.0, 1.0);
    ASSERT_EQ(states[i].at("periods").size(), 2u);
    EXPECT_EQ(states[i].at("periods")[1].at("idle_ns"), ws[i] * 1'000'000'000ull);
  }
  // Back to back: the write periods only (the fake has no interval samples for the baselines).
  EXPECT_EQ(hir.at("series").at("iops").size(), 10u);
  EXPECT_DOUBLE_EQ(hir.at("series").at("end_s").back().get<double>(), 10.0);
}

// The plan counts the idle time: at spec values, 360 x (5 + 10 + 15 + 25 + 50) s of idle.
TEST(HirTest, PlanIncludesTheHostIdleTime) {
  const Settings settings = Settings::build(DefinitionSet::embedded(), k_spec, {}, {});
  const Plan best =
      make_plan({"hir"}, DefinitionSet::embedded(), k_spec, settings, {1ull << 30, 512}, PlanCase::best, {});
  uint64_t idle_ns = 0;
  size_t idle_steps = 0;
  for (const PlanStep& s : best.steps) {
    if (s.kind == "idle") {
      idle_ns += s.duration_ns;
      ++idle_steps;
    }
  }
  EXPECT_EQ(idle_steps, 5u * 360u);
  EXPECT_EQ(idle_ns, 360ull * (5 + 10 + 15 + 25 + 50) * 1'000'000'000ull);
  // Best case: 5 preconditioning Rounds of 30 x 1 min; then 5 x 360 x 5 s writes and 5 x 30 min baselines.
  const uint64_t writes_ns = (5ull * 30 * 60 + 5ull * 360 * 5 + 5ull * 1800) * 1'000'000'000ull;
  EXPECT_EQ(best.total_ns, writes_ns + idle_ns + PlanAssumptions{}.purge_ns);
  const Plan worst =
      make_plan({"hir"}, DefinitionSet::embedded(), k_spec, settings, {1ull << 30, 512}, PlanCase::worst, {});
  EXPECT_EQ(worst.total_ns, best.total_ns + 20ull * 30 * 60 * 1'000'000'000ull);  // Round cap 25
}

// Throws RunStopped (as an interrupted DeviceExecutor does) at one idle step.
class StopAtIdle : public StepExecutor {
 public:
  StopAtIdle(StepExecutor& inner, std::string stop_at) : m_inner(inner), m_stop_at(std::move(stop_at)) {}
  json execute(const StepId& id, const StepRequest& request) override {
    if (request.kind == StepKind::idle && id.text() == m_stop_at) {
      throw RunStopped(130, "interrupted during " + id.text(), json::object());
    }
    return m_inner.execute(id, request);
  }
  void replayed(const StepId& id, const StepRequest& r, const json& result) override {
    m_inner.replayed(id, r, result);
  }

 private:
  StepExecutor& m_inner;
  std::string m_stop_at;
};

TEST(HirTest, ResumeAfterAnInterruptedIdleRunsThatIdleAgainAndEndsAsAnUninterruptedRun) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("ptsuite-hir-" + std::to_string(std::random_device{}()));
  fs::create_directories(dir);
  const Settings settings = short_settings();
  testing::FakeExecutor reference_exec(by_phase);
  const json reference = run_hir(reference_exec, settings);
  {
    testing::FakeExecutor first(by_phase);
    StopAtIdle stopping(first, "hir/wait-2/idle-0001");
    Journal journal(test_support::output_dir(dir));
    JournalingExecutor exec(stopping, journal);
    EXPECT_THROW(run_hir(exec, settings), RunStopped);
  }
  Journal reopened(test_support::output_dir(dir));
  testing::FakeExecutor fresh(by_phase);
  JournalingExecutor exec(fresh, reopened);
  const json resumed = run_hir(exec, settings);
  EXPECT_EQ(fresh.executed.front(), "hir/wait-2/idle-0001");
  EXPECT_EQ(resumed.at("hir"), reference.at("hir"));
  EXPECT_EQ(reopened.entries().size(), reference_exec.executed.size());
  fs::remove_all(dir);
}

// The baseline's (and CBW's pre-writes') IOPS per interval: a drain tail after the last full
// interval (64 IOs in 60 us: "1 M IOPS") is left out; a real short last interval is kept.
TEST(HirTest, IntervalSeriesLeavesOutTheDrainTail) {
  SegmentResult r;
  r.intervals = json::array({{{"end_offset_ns", 500'000'000}, {"read_ios", 0}, {"write_ios", 50'000}},
                             {{"end_offset_ns", 1'000'000'000}, {"read_ios", 0}, {"write_ios", 40'000}},
                             {{"end_offset_ns", 1'000'060'000}, {"read_ios", 0}, {"write_ios", 64}}});
  const results::IntervalSeries series = interval_iops_series(r, 500'000'000);
  ASSERT_EQ(series.iops.size(), 2u);
  EXPECT_DOUBLE_EQ(series.iops[0], 100'000.0);
  EXPECT_DOUBLE_EQ(series.iops[1], 80'000.0);
  EXPECT_DOUBLE_EQ(series.end_s[1], 1.0);
  r.intervals[2]["end_offset_ns"] = 1'300'000'000;  // 0.3 s: more than half an interval, kept
  EXPECT_EQ(interval_iops_series(r, 500'000'000).iops.size(), 3u);
}

}  // namespace
}  // namespace ptsuite::pts
