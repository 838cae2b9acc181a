// The results-model fields added for the report (reporters render, they never compute):
//   * steady-state verdict JSON "band": the data-excursion band drawn on the measurement-window
//     plot (average +- half the allowed data excursion; 90 % / 110 % with the PTS 20 %);
//   * CBW pre-write records "series": IOPS per interval of the inter-round and operating-point
//     pre-writes (report pages P3, P9, P11, P13).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <vector>

#include <ptsuite/pts/settings.hpp>
#include <ptsuite/pts/steady_state.hpp>
#include <ptsuite/pts/test_procedure.hpp>

#include "support/fake_step_executor.hpp"

namespace ptsuite::pts {
namespace {

using nlohmann::json;

TEST(ReportModelFields, VerdictCarriesTheDataExcursionBand) {
  // The worked example of the reference (average 11726.8, allowed data excursion 2345.36).
  const json j = evaluate_window("RND 4KiB 100% W IOPS", std::vector<uint32_t>{1, 2, 3, 4, 5},
                                 std::vector<double>{11600, 11900, 11726, 11780, 11628});
  EXPECT_DOUBLE_EQ(j.at("band").at("low").get<double>(), 11726.8 - 2345.36 / 2);
  EXPECT_DOUBLE_EQ(j.at("band").at("high").get<double>(), 11726.8 + 2345.36 / 2);
  EXPECT_NEAR(j.at("band").at("low").get<double>(), 0.9 * 11726.8, 1e-9);
  EXPECT_EQ(j.at("band").at("low_pct"), 90.0);
  EXPECT_EQ(j.at("band").at("high_pct"), 110.0);

  SteadyStateCriteria c;
  c.data_excursion_pct = 12.5;
  const json k =
      evaluate_window("x", std::vector<uint32_t>{1, 2, 3, 4, 5}, std::vector<double>{100, 100, 100, 100, 100}, c);
  EXPECT_DOUBLE_EQ(k.at("band").at("low").get<double>(), 93.75);
  EXPECT_DOUBLE_EQ(k.at("band").at("high").get<double>(), 106.25);
  EXPECT_EQ(k.at("band").at("low_pct"), 93.75);
  EXPECT_EQ(k.at("band").at("high_pct"), 106.25);
  // Derived, so not needed to read a verdict back.
  json without = k;
  without.erase("band");
  EXPECT_EQ(without.get<SteadyStateVerdict>(), k.get<SteadyStateVerdict>());
}

// A fake device whose interval-sampled segments (the pre-writes) report two full intervals:
// 1000 IOs in the first, then 3000 IOs (1000 reads, 2000 writes) in the second.
class IntervalExecutor : public StepExecutor {
 public:
  json execute(const StepId& id, const StepRequest& request) override {
    json r = m_inner.execute(id, request);
    if (request.kind == StepKind::segment && request.segment.interval_ns > 0) {
      const uint64_t i_ns = request.segment.interval_ns;
      r["intervals"] = json::array({{{"end_offset_ns", i_ns},
                                     {"read_ios", 0},
                                     {"write_ios", 1000},
                                     {"read_bytes", 0},
                                     {"write_bytes", 4096000},
                                     {"read_latency_sum_ns", 0},
                                     {"write_latency_sum_ns", 1}},
                                    {{"end_offset_ns", 2 * i_ns},
                                     {"read_ios", 1000},
                                     {"write_ios", 2000},
                                     {"read_bytes", 4096000},
                                     {"write_bytes", 8192000},
                                     {"read_latency_sum_ns", 1},
                                     {"write_latency_sum_ns", 1}}});
    }
    return r;
  }
  void replayed(const StepId&, const StepRequest&, const json&) override {}

 private:
  testing::FakeExecutor m_inner{
      [](const StepId&, const SegmentSpec& s) { return 1000.0 * std::min<uint32_t>(s.threads * s.queue_depth, 64); },
      [](const StepId&, const SegmentSpec& s) { return uint64_t{100'000} * s.threads * s.queue_depth; }};
};

TEST(ReportModelFields, CbwPreWritesCarryTheirIopsPerInterval) {
  const SpecContext spec{"2.0.2", "enterprise"};
  const Settings settings = Settings::build(DefinitionSet::embedded(), spec, {}, {{"max_rounds", "5"}});
  IntervalExecutor exec;
  TestContext ctx{DefinitionSet::embedded(), spec, settings, exec, TargetFacts{1ull << 30, 512}};
  const json rec = make_test("cbw")->run(ctx);
  // The 5-minute inter-round pre-write is logged every 5 s (60 points): 1000 and 3000 IOs in 5 s.
  const json expected = {{"end_s", {5.0, 10.0}}, {"iops", {200.0, 600.0}}};
  const json& rounds = rec.at("phases")[1].at("rounds");
  ASSERT_FALSE(rounds.empty());
  for (const json& r : rounds) {
    EXPECT_EQ(r.at("before_round").at("series"), expected) << "round " << r.at("round");
  }
  const json& prewrites = rec.at("cbw").at("prewrites");
  ASSERT_EQ(prewrites.size(), 3u);
  // The 60-minute pre-writes before the captures are logged every 60 s.
  const json expected_60s = {{"end_s", {60.0, 120.0}}, {"iops", {1000.0 / 60, 3000.0 / 60}}};
  for (const json& p : prewrites) {
    EXPECT_EQ(p.at("series"), expected_60s) << p.at("name");
  }
}

}  // namespace
}  // namespace ptsuite::pts
