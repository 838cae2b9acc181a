#include <gtest/gtest.h>

#include <algorithm>

#include <ptsuite/pts/run_config.hpp>
#include <ptsuite/pts/test_procedure.hpp>
#include <ptsuite/stats/stats_json.hpp>
#include <ptsuite/util/error.hpp>

#include "support/fake_step_executor.hpp"

namespace ptsuite::pts {
namespace {

using nlohmann::json;

struct CoreHarness {
  explicit CoreHarness(SpecContext spec, std::vector<std::pair<std::string, std::string>> overrides = {},
                       uint32_t logical_block = 512, uint64_t capacity = 1ull << 30)
      : settings(Settings::build(DefinitionSet::embedded(), spec, {}, overrides)),
        ctx{DefinitionSet::embedded(), spec, settings, exec, TargetFacts{capacity, logical_block}} {}
  testing::FakeExecutor exec{[](const StepId&, const SegmentSpec&) { return 1000.0; }};
  Settings settings;
  TestContext ctx;
};

size_t count_prefix(const std::vector<std::string>& steps, const std::string& prefix) {
  return static_cast<size_t>(std::count_if(steps.begin(), steps.end(), [&](const std::string& s) {
    return s.rfind(prefix, 0) == 0 && s.find("health") == std::string::npos;
  }));
}

TEST(IopsTest, FiftySixCellsInSpecOrderThreeTrackingVariables) {
  CoreHarness h({"2.0.2", "enterprise"});
  const json rec = make_test("iops")->run(h.ctx);
  const json& phase = rec.at("phases")[0];
  const json& tmpl = phase.at("round_template");
  ASSERT_EQ(tmpl.size(), 56u);
  EXPECT_EQ(tmpl[0].at("label"), "RND 1MiB 100/0");
  EXPECT_EQ(tmpl[7].at("label"), "RND 0.5KiB 100/0");
  EXPECT_EQ(tmpl[8].at("label"), "RND 1MiB 95/5");
  EXPECT_EQ(tmpl[55].at("label"), "RND 0.5KiB 0/100");
  EXPECT_EQ(tmpl[0].at("threads"), 4);
  EXPECT_EQ(tmpl[0].at("queue_depth"), 32);
  const json& tracking = phase.at("tracking");
  ASSERT_EQ(tracking.size(), 3u);
  EXPECT_EQ(tracking[0].at("segment_label"), "RND 4KiB 0/100");
  EXPECT_EQ(tracking[1].at("segment_label"), "RND 64KiB 65/35");
  EXPECT_EQ(tracking[2].at("segment_label"), "RND 1MiB 100/0");
  // Constant results attain steady state at the first check.
  EXPECT_EQ(phase.at("steady_state").at("rounds_run"), 5);
  EXPECT_TRUE(phase.at("steady_state").at("attained").get<bool>());
  // Purge, WIPC (2X capacity in 128 KiB writes), 5 x 56 segments.
  EXPECT_EQ(h.exec.executed.front(), "iops/main/purge");
  EXPECT_EQ(h.exec.executed[1], "iops/main/wipc");
  EXPECT_EQ(h.exec.segments.front().bytes_limit, 2ull << 30);
  EXPECT_EQ(h.exec.segments.front().block_sizes.front().bytes, 128u * 1024);
  EXPECT_EQ(count_prefix(h.exec.executed, "iops/main/r"), 5u * 56u);
  const json& m = rec.at("matrix");
  EXPECT_EQ(m.at("rows").size(), 8u);
  EXPECT_EQ(m.at("columns").size(), 7u);
  EXPECT_EQ(m.at("rows")[0], "1MiB");
  EXPECT_EQ(m.at("columns")[2], "65/35");
  EXPECT_DOUBLE_EQ(m.at("iops")[3][2].get<double>(), 1000.0);
}

TEST(IopsTest, PtsE11TracksOneVariable) {
  CoreHarness h({"e1.1", "enterprise"});
  const json rec = make_test("iops")->run(h.ctx);
  ASSERT_EQ(rec.at("phases")[0].at("tracking").size(), 1u);
  EXPECT_EQ(rec.at("phases")[0].at("tracking")[0].at("segment_label"), "RND 4KiB 0/100");
}

TEST(IopsTest, OperatorToioAndClientProfile) {
  CoreHarness h({"2.0.2", "client"}, {{"iops.threads", "16"}, {"iops.queue_depth", "8"}});
  const json rec = make_test("iops")->run(h.ctx);
  EXPECT_EQ(rec.at("toio").at("threads"), 16);
  EXPECT_EQ(rec.at("toio").at("threads_setting").at("changed_by"), "--set");
  EXPECT_EQ(rec.at("phases")[0].at("round_template")[0].at("queue_depth"), 8);
  EXPECT_DOUBLE_EQ(rec.at("active_range_pct").get<double>(), 75.0);
  EXPECT_EQ(rec.at("write_cache_required").at("value"), "enabled");
}

// On a 4Kn device the 0.5 KiB cells cannot be issued: they are omitted and disclosed, and the
// tracking variables are still found by key (TKperf's list-position bug would shift them).
TEST(IopsTest, FourKnDeviceOmitsHalfKibAndKeepsTrackingByKey) {
  CoreHarness h({"2.0.2", "enterprise"}, {}, 4096);
  const json rec = make_test("iops")->run(h.ctx);
  const json& phase = rec.at("phases")[0];
  EXPECT_EQ(phase.at("round_template").size(), 49u);
  ASSERT_EQ(rec.at("omitted").size(), 1u);
  EXPECT_EQ(rec.at("omitted")[0].at("what"), "0.5KiB");
  EXPECT_EQ(phase.at("tracking")[0].at("segment_label"), "RND 4KiB 0/100");
  EXPECT_EQ(rec.at("matrix").at("rows").size(), 7u);
}

TEST(IopsTest, RecordDisclosesEveryValueUsedWithProvenance) {
  CoreHarness h({"2.0.2", "enterprise"});
  const json rec = make_test("iops")->run(h.ctx);
  bool saw_tracking = false;
  for (const json& p : rec.at("parameters")) {
    EXPECT_FALSE(p.at("clause").get<std::string>().empty());
    EXPECT_TRUE(p.at("tag") == "V" || p.at("tag") == "I" || p.at("tag") == "U");
    saw_tracking = saw_tracking || p.at("path") == "iops/tracking";
  }
  EXPECT_TRUE(saw_tracking);
}

TEST(ThroughputTest, PurgeAndWipcPerBlockSizeSequentialContinuation) {
  CoreHarness h({"2.0.2", "enterprise"});
  const json rec = make_test("throughput")->run(h.ctx);
  ASSERT_EQ(rec.at("phases").size(), 2u);
  EXPECT_EQ(rec.at("phases")[0].at("phase"), "1MiB");
  EXPECT_EQ(rec.at("phases")[1].at("phase"), "128KiB");
  EXPECT_EQ(rec.at("purges").size(), 2u);
  ASSERT_EQ(rec.at("preconditioning").size(), 2u);
  EXPECT_EQ(rec.at("preconditioning")[0].at("block_size_bytes"), 1048576);
  EXPECT_EQ(rec.at("preconditioning")[1].at("block_size_bytes"), 131072);
  const json& tmpl = rec.at("phases")[0].at("round_template");
  ASSERT_EQ(tmpl.size(), 2u);
  EXPECT_EQ(tmpl[0].at("label"), "SEQ 1MiB 100/0");
  EXPECT_EQ(tmpl[1].at("label"), "SEQ 1MiB 0/100");
  EXPECT_EQ(tmpl[0].at("threads"), 1);
  EXPECT_EQ(tmpl[0].at("queue_depth"), 32);
  EXPECT_NE(tmpl[0].at("sequence_key"), tmpl[1].at("sequence_key"));
  EXPECT_FALSE(tmpl[0].at("sequence_key").get<std::string>().empty());
  const json& tracking = rec.at("phases")[0].at("tracking");
  ASSERT_EQ(tracking.size(), 1u);
  EXPECT_EQ(tracking[0].at("metric"), "write_mb_per_s");
  EXPECT_EQ(tracking[0].at("segment_index"), 1);
  EXPECT_EQ(rec.at("table").size(), 2u);
  // Steps in order: purge, wipc, rounds for 1 MiB; then purge, wipc, rounds for 128 KiB.
  EXPECT_EQ(h.exec.executed[0], "throughput/1MiB/purge");
  EXPECT_EQ(h.exec.executed[1], "throughput/1MiB/wipc");
  const auto second_purge = std::find(h.exec.executed.begin(), h.exec.executed.end(), "throughput/128KiB/purge");
  ASSERT_NE(second_purge, h.exec.executed.end());
  EXPECT_EQ(*(second_purge + 1), "throughput/128KiB/wipc");
}

TEST(LatencyTest, NineCellsTrackingArtAndCaptureOnlyIn20) {
  CoreHarness h({"2.0.2", "enterprise"});
  const json rec = make_test("latency")->run(h.ctx);
  const json& phase = rec.at("phases")[0];
  ASSERT_EQ(phase.at("round_template").size(), 9u);
  EXPECT_EQ(phase.at("round_template")[0].at("label"), "RND 8KiB 100/0");
  EXPECT_EQ(phase.at("round_template")[8].at("label"), "RND 0.5KiB 0/100");
  EXPECT_EQ(phase.at("round_template")[0].at("threads"), 1);
  EXPECT_EQ(phase.at("round_template")[0].at("queue_depth"), 1);
  EXPECT_EQ(phase.at("tracking")[0].at("segment_label"), "RND 4KiB 0/100");
  EXPECT_EQ(phase.at("tracking")[0].at("metric"), "mean_latency");
  ASSERT_EQ(rec.at("captures").size(), 1u);
  const json& cap = rec.at("captures")[0];
  EXPECT_EQ(cap.at("spec").at("duration_ns"), 20ull * 60 * 1'000'000'000);
  EXPECT_DOUBLE_EQ(cap.at("confidence_levels").back()[1].get<double>(), 100.0);
  EXPECT_EQ(rec.at("matrix").at("latency_p99_999_ns").size(), 3u);

  CoreHarness e11({"e1.1", "enterprise"});
  EXPECT_TRUE(json(make_test("latency")->run(e11.ctx)).at("captures").empty());
}

TEST(WriteSaturationTest, StopsAtFourTimesCapacity) {
  // 1000 IOPS of 4 KiB for 1 s per sample = 4.096 MB per sample; capacity 40.96 MB, so 4X is
  // reached after exactly 40 samples.
  CoreHarness h({"2.0.2", "enterprise"}, {{"wsat.sample_duration", "1s"}}, 512, 40'960'000);
  const json rec = make_test("wsat")->run(h.ctx);
  const json& w = rec.at("wsat");
  EXPECT_EQ(w.at("stop_reason"), "capacity");
  EXPECT_EQ(w.at("samples").size(), 40u);
  EXPECT_EQ(w.at("written_bytes"), 40u * 4'096'000u);
  EXPECT_DOUBLE_EQ(w.at("samples").back().at("drive_fills").get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(w.at("samples")[9].at("tgbw_gb").get<double>(), 0.04096);
  EXPECT_TRUE(rec.at("preconditioning").empty());  // no WIPC
  EXPECT_EQ(h.exec.executed.front(), "wsat/main/purge");
  EXPECT_EQ(rec.at("captures").size(), 1u);
}

TEST(WriteSaturationTest, StopsAtTheTimeLimitAndHonoursOptionalWorkloads) {
  CoreHarness h({"2.0.2", "enterprise"},
                {{"wsat.sample_duration", "1s"}, {"wsat.time_limit", "7s"}, {"wsat.workload", "oltp"}});
  const json rec = make_test("wsat")->run(h.ctx);
  EXPECT_EQ(rec.at("wsat").at("stop_reason"), "time_limit");
  EXPECT_EQ(rec.at("wsat").at("samples").size(), 7u);
  EXPECT_EQ(rec.at("wsat").at("segment").at("label"), "RND 8KiB 65/35");

  CoreHarness cbw({"2.0.2", "enterprise"}, {{"wsat.time_limit", "3min"}, {"wsat.workload", "cbw"}}, 4096);
  const json rc = make_test("wsat")->run(cbw.ctx);
  EXPECT_EQ(rc.at("wsat").at("segment").at("zones").size(), 3u);
  EXPECT_EQ(rc.at("wsat").at("segment").at("block_sizes").size(), 5u);  // 4/8/16/32/64 KiB on 4Kn
  EXPECT_EQ(rc.at("omitted").size(), 7u);
  // Part A.6: the CBW stimulus of WSAT writes (0/100), as the cited sources run it.
  EXPECT_EQ(rc.at("wsat").at("segment").at("rw_mix"), "0/100");
}

// Part A.6: the record's subtitle names the stimulus that ran, not always RND 4 KiB 100 % W.
TEST(WriteSaturationTest, SubtitleNamesTheStimulusThatRan) {
  CoreHarness h({"2.0.2", "enterprise"}, {{"wsat.sample_duration", "1s"}, {"wsat.time_limit", "2s"}});
  EXPECT_EQ(json(make_test("wsat")->run(h.ctx)).at("subtitle"), "WSAT - RND 4KiB 100% W");
  CoreHarness oltp({"2.0.2", "enterprise"},
                   {{"wsat.sample_duration", "1s"}, {"wsat.time_limit", "2s"}, {"wsat.workload", "oltp"}});
  EXPECT_EQ(json(make_test("wsat")->run(oltp.ctx)).at("subtitle"), "WSAT - RND 8KiB R/W 65/35");
  CoreHarness cbw({"2.0.2", "enterprise"},
                  {{"wsat.sample_duration", "1s"}, {"wsat.time_limit", "2s"}, {"wsat.workload", "cbw"}});
  EXPECT_EQ(json(make_test("wsat")->run(cbw.ctx)).at("subtitle"), "WSAT - RND CBW mix 100% W");
}

// Part A.6: the run stops at the capacity multiple (within one IO per thread), not up to a
// whole sample later. 4 x 40 MB = 160 MB; 39 samples of 4.096 MB leave 256 kB for the 40th.
TEST(WriteSaturationTest, StopsAtExactlyTheCapacityMultiple) {
  CoreHarness h({"2.0.2", "enterprise"}, {{"wsat.sample_duration", "1s"}}, 512, 40'000'000);
  const json rec = make_test("wsat")->run(h.ctx);
  const json& w = rec.at("wsat");
  EXPECT_EQ(w.at("stop_reason"), "capacity");
  ASSERT_EQ(w.at("samples").size(), 40u);
  const auto written = w.at("written_bytes").get<uint64_t>();
  EXPECT_GE(written, 160'000'000u);
  EXPECT_LT(written - 160'000'000u, 4096u * 4u);  // less than one 4 KiB IO per thread over
  EXPECT_LT(w.at("samples").back().at("result").at("summary").at("write").at("bytes").get<uint64_t>(), 300'000u);
}

TEST(CompositeBlockSizeTest, GridTrackingAndOperatingPoints) {
  CoreHarness h({"2.0.2", "enterprise"});
  // IOPS grows with TOIO up to 64, latency = TOIO x 100 us: ART < 5 ms holds for TOIO < 50.
  h.exec = testing::FakeExecutor(
      [](const StepId&, const SegmentSpec& s) { return 1000.0 * std::min<uint32_t>(s.threads * s.queue_depth, 64); },
      [](const StepId&, const SegmentSpec& s) { return uint64_t{100'000} * s.threads * s.queue_depth; });
  const json rec = make_test("cbw")->run(h.ctx);
  ASSERT_EQ(rec.at("phases").size(), 2u);
  const json& pre = rec.at("phases")[0];
  EXPECT_EQ(pre.at("round_template").size(), 1u);
  EXPECT_EQ(pre.at("round_template")[0].at("threads"), 32);
  EXPECT_EQ(pre.at("round_template")[0].at("read_pct"), 0.0);
  const json& demand = rec.at("phases")[1];
  ASSERT_EQ(demand.at("round_template").size(), 49u);
  EXPECT_EQ(demand.at("round_template")[0].at("label"), "CBW 40/60 TC32 QD32");
  EXPECT_EQ(demand.at("round_template")[48].at("label"), "CBW 40/60 TC1 QD1");
  EXPECT_EQ(demand.at("tracking")[0].at("segment_index"), 0);
  EXPECT_EQ(demand.at("rounds")[0].at("before_round").at("kind"), "inter-round-prewrite");
  EXPECT_EQ(demand.at("round_template")[0].at("zones").size(), 3u);
  EXPECT_EQ(demand.at("round_template")[0].at("block_sizes").size(), 12u);

  const json& op = rec.at("cbw").at("operating_points");
  ASSERT_EQ(op.size(), 3u);
  // Max: highest IOPS with ART < 5 ms: TOIO 48 (8x6 or 6x8; the first in grid order is 8x6).
  EXPECT_EQ(op[0].at("toio"), 48);
  EXPECT_EQ(op[0].at("threads"), 8);
  EXPECT_EQ(op[0].at("queue_depth"), 6);
  EXPECT_EQ(op[2].at("toio"), 1);
  // Mid: closest to (48000 + 1000) / 2 = 24500 IOPS: TOIO 24 (4x6 in grid order).
  EXPECT_EQ(op[1].at("toio"), 24);
  ASSERT_EQ(rec.at("captures").size(), 3u);
  EXPECT_EQ(rec.at("captures")[0].at("name"), "max-iops-histogram");
  EXPECT_EQ(rec.at("captures")[0].at("spec").at("threads"), 8);
  EXPECT_EQ(rec.at("cbw").at("grid").at("iops").size(), 7u);
}

// DIRTH (§14): the CBW procedure over one access pattern, OLTP RND 8 KiB 65/35 by default
// ([U] settings dirth.block_size / dirth.rw_mix), preconditioned at 100 % W.
TEST(DirthTest, TheCbwProcedureOverOneAccessPattern) {
  CoreHarness h({"2.0.2", "enterprise"}, {{"dirth.block_size", "4KiB"}});
  h.exec = testing::FakeExecutor(
      [](const StepId&, const SegmentSpec& s) { return 1000.0 * std::min<uint32_t>(s.threads * s.queue_depth, 64); },
      [](const StepId&, const SegmentSpec& s) { return uint64_t{100'000} * s.threads * s.queue_depth; });
  const json rec = make_test("dirth")->run(h.ctx);
  ASSERT_EQ(rec.at("phases").size(), 2u);
  const json& pre = rec.at("phases")[0].at("round_template")[0];
  EXPECT_EQ(pre.at("label"), "RND 4KiB 0/100 TC32 QD32");
  EXPECT_EQ(pre.at("block_sizes").size(), 1u);
  const json& demand = rec.at("phases")[1];
  ASSERT_EQ(demand.at("round_template").size(), 49u);
  EXPECT_EQ(demand.at("round_template")[0].at("label"), "RND 4KiB 65/35 TC32 QD32");
  EXPECT_EQ(demand.at("round_template")[48].at("label"), "RND 4KiB 65/35 TC1 QD1");
  EXPECT_TRUE(demand.at("round_template")[0].at("zones").empty());
  EXPECT_FALSE(rec.contains("cbw"));
  const json& d = rec.at("dirth");
  EXPECT_EQ(d.at("rw_mix"), "65/35");
  ASSERT_EQ(d.at("block_size_mix").size(), 1u);
  EXPECT_EQ(d.at("block_size_mix")[0].at("bytes"), 4096);
  EXPECT_EQ(d.at("operating_points")[0].at("toio"), 48);  // the same operating-point rules as CBW
  EXPECT_EQ(rec.at("captures").size(), 3u);
  EXPECT_EQ(rec.at("section").at("value"), "14");
}

// wsat.stop_rule=steady-state (PTS-E 1.1's alternate method): Rounds of 31 one-minute samples,
// the last one the check sample; the run stops when the check samples attain steady state,
// however far from 4X capacity and the time limit.
TEST(WriteSaturationTest, SteadyStateStopRuleJudgesEveryRoundsCheckSample) {
  CoreHarness h({"e1.1", "enterprise"}, {{"wsat.sample_duration", "1s"}, {"wsat.stop_rule", "steady-state"}}, 512,
                40'960'000);
  const json rec = make_test("wsat")->run(h.ctx);
  const json& w = rec.at("wsat");
  EXPECT_EQ(w.at("stop_reason"), "steady_state");  // constant IOPS: steady at the first check
  ASSERT_EQ(w.at("samples").size(), 5u * 31u);     // past 4X capacity (40 samples): no capacity stop
  const json& ss = w.at("steady_state");
  EXPECT_EQ(ss.at("check_samples"), json::array({31, 62, 93, 124, 155}));
  EXPECT_TRUE(ss.at("attained").get<bool>());
  EXPECT_EQ(ss.at("verdict").at("window").at("last_round"), 5);
  for (const SegmentSpec& seg : h.exec.segments) {
    EXPECT_EQ(seg.bytes_limit, 0u);
  }
  // Check samples alternating 1000 / 2000 IOPS never settle: the Round cap stops the run.
  CoreHarness cap({"2.0.2", "enterprise"}, {{"wsat.sample_duration", "1s"},
                                            {"wsat.stop_rule", "steady-state"},
                                            {"wsat.ss_round_samples", "3"},
                                            {"max_rounds", "7"}});
  cap.exec = testing::FakeExecutor([](const StepId& id, const SegmentSpec&) {
    if (id.name.rfind("sample-", 0) != 0) return 1000.0;  // the 2.0 capture after WSAT
    return std::stoi(id.name.substr(7, 5)) % 6 == 0 ? 2000.0 : 1000.0;
  });
  const json capped = make_test("wsat")->run(cap.ctx);
  const json& c = capped.at("wsat");
  EXPECT_EQ(c.at("stop_reason"), "round_cap");
  EXPECT_EQ(c.at("samples").size(), 21u);
  EXPECT_FALSE(c.at("steady_state").at("attained").get<bool>());
}

// endurance-write (a ptsuite extension): the WSAT procedure without a capacity stop or capture,
// writing for its time limit however much that is, with per-sample 99 / 99.9 / 99.99 %.
TEST(EnduranceWriteTest, WritesForTheTimeLimitOnlyWithPerSampleQos) {
  // 1000 IOPS of 4 KiB per 1 s sample = 4.096 MB; 30 samples write 3X the 40.96 MB capacity.
  CoreHarness h({"2.0.2", "enterprise"},
                {{"endurance-write.sample_duration", "1s"}, {"endurance-write.time_limit", "30s"}}, 512, 40'960'000);
  const json rec = make_test("endurance-write")->run(h.ctx);
  const json& w = rec.at("endurance");
  EXPECT_EQ(w.at("stop_reason"), "time_limit");
  EXPECT_EQ(w.at("samples").size(), 30u);
  EXPECT_EQ(w.at("target_bytes"), 0);
  EXPECT_DOUBLE_EQ(w.at("samples").back().at("drive_fills").get<double>(), 3.0);
  for (const SegmentSpec& s : h.exec.segments) {
    EXPECT_EQ(s.bytes_limit, 0u);  // no byte-limited last sample
  }
  const json& sample = w.at("samples")[0];
  EXPECT_EQ(sample.at("latency_p99_ns"), 100'000);  // the fake's constant latency
  EXPECT_EQ(sample.at("latency_p99_99_ns"), 100'000);
  EXPECT_GT(sample.at("mb_per_s").get<double>(), 0);
  EXPECT_TRUE(rec.at("captures").empty());
  EXPECT_EQ(h.exec.executed.front(), "endurance-write/main/purge");
  EXPECT_EQ(rec.at("section").at("value"), "-");
  EXPECT_EQ(rec.at("toio").at("threads"), 4);
  EXPECT_EQ(rec.at("subtitle"),
            "ENDURANCE WRITE - RND 4KiB 100% W, continuous from the purged state (a ptsuite extension, not a PTS "
            "test)");
  EXPECT_FALSE(rec.contains("wsat"));
}

// latency-sweep (a ptsuite extension): the Latency procedure over R/W mix x block size x TC x
// QD, tracking the mean response time of RND 4 KiB 100 % W at TC 1 / QD 1.
TEST(LatencySweepTest, TheLatencyProcedureOverATcByQdGrid) {
  CoreHarness h({"2.0.2", "enterprise"});
  h.exec = testing::FakeExecutor([](const StepId&, const SegmentSpec& s) { return 1000.0 * s.threads * s.queue_depth; },
                                 [](const StepId&, const SegmentSpec& s) { return uint64_t{10'000} * s.queue_depth; });
  const json rec = make_test("latency-sweep")->run(h.ctx);
  EXPECT_EQ(h.exec.executed[0], "latency-sweep/main/purge");
  EXPECT_EQ(h.exec.executed[1], "latency-sweep/main/wipc");
  const json& phase = rec.at("phases")[0];
  const json& tmpl = phase.at("round_template");
  ASSERT_EQ(tmpl.size(), 54u);  // 3 mixes x 1 block size x 3 TC x 6 QD
  EXPECT_EQ(tmpl[0].at("label"), "RND 4KiB 100/0 TC1 QD1");
  EXPECT_EQ(tmpl[5].at("label"), "RND 4KiB 100/0 TC1 QD32");
  EXPECT_EQ(tmpl[6].at("label"), "RND 4KiB 100/0 TC2 QD1");
  EXPECT_EQ(tmpl[53].at("label"), "RND 4KiB 0/100 TC4 QD32");
  ASSERT_EQ(phase.at("tracking").size(), 1u);
  EXPECT_EQ(phase.at("tracking")[0].at("segment_index"), 36);  // 0/100 TC 1 QD 1
  EXPECT_EQ(phase.at("tracking")[0].at("metric"), "mean_latency");
  const json& cells = rec.at("sweep").at("cells");
  ASSERT_EQ(cells.size(), 54u);
  EXPECT_EQ(cells[5].at("threads"), 1);
  EXPECT_EQ(cells[5].at("queue_depth"), 32);
  EXPECT_DOUBLE_EQ(cells[5].at("iops").get<double>(), 32'000.0);
  EXPECT_EQ(cells[5].at("latency_p99_99_ns"), 320'000);
  EXPECT_EQ(rec.at("section").at("value"), "-");
  EXPECT_TRUE(rec.at("toio").is_null());

  CoreHarness small({"2.0.2", "enterprise"}, {{"latency-sweep.thread_counts", "1,2"},
                                              {"latency-sweep.queue_depths", "1,8"},
                                              {"latency-sweep.rw_mixes", "0/100"}});
  EXPECT_EQ(json(make_test("latency-sweep")->run(small.ctx)).at("sweep").at("cells").size(), 4u);
}

// PTS-E 1.1 ECW: the CBW procedure with 1-minute preconditioning Rounds (at most 25 = the
// script's 25 x 1 min), a 5-minute pre-write before each 7 x 7 sweep Round at 40/60, and no
// operating-point histograms.
TEST(EcwTest, TheCbwSweepWithoutHistograms) {
  CoreHarness h({"e1.1", "enterprise"});
  const json rec = make_test("ecw")->run(h.ctx);
  EXPECT_EQ(rec.at("title"), "Enterprise Composite Workload");
  EXPECT_EQ(rec.at("section").at("value"), "ECW");
  ASSERT_EQ(rec.at("phases").size(), 2u);
  const json& pre = rec.at("phases")[0];
  EXPECT_EQ(pre.at("round_template")[0].at("duration_ns"), 60'000'000'000ull);
  EXPECT_EQ(pre.at("round_template")[0].at("label"), "CBW 0/100 TC32 QD32");
  EXPECT_EQ(pre.at("steady_state").at("max_rounds"), 25);
  // The script's fixed 25 x 1 min: a drive steady from Round 5 still preconditions 25 minutes.
  EXPECT_EQ(pre.at("steady_state").at("rounds_run"), 25);
  EXPECT_EQ(count_prefix(h.exec.executed, "ecw/precondition/r"), 25u);
  const json& demand = rec.at("phases")[1];
  ASSERT_EQ(demand.at("round_template").size(), 49u);
  EXPECT_EQ(demand.at("round_template")[0].at("label"), "CBW 40/60 TC32 QD32");
  EXPECT_EQ(demand.at("round_template")[0].at("zones").size(), 3u);
  EXPECT_EQ(demand.at("rounds")[0].at("before_round").at("spec").at("duration_ns"), 300'000'000'000ull);
  EXPECT_TRUE(rec.at("captures").empty());
  EXPECT_TRUE(rec.at("ecw").at("prewrites").empty());
  EXPECT_EQ(rec.at("ecw").at("operating_points").size(), 3u);  // named for the report, no capture
  EXPECT_EQ(count_prefix(h.exec.executed, "ecw/histogram"), 0u);
  EXPECT_FALSE(rec.contains("cbw"));
}

// ecw.precondition_stop=steady-state: the departure from the script stops at the first steady
// window (and is disclosed as a changed [U] setting).
TEST(EcwTest, PreconditioningMayStopAtSteadyStateWhenTheOperatorSaysSo) {
  CoreHarness h({"e1.1", "enterprise"}, {{"ecw.precondition_stop", "steady-state"}});
  const json rec = make_test("ecw")->run(h.ctx);
  EXPECT_EQ(rec.at("phases")[0].at("steady_state").at("rounds_run"), 5);
  EXPECT_EQ(count_prefix(h.exec.executed, "ecw/precondition/r"), 5u);
}

// The Latency test's WIPC runs at its own named TOIO (latency.wipc_threads / _queue_depth).
TEST(LatencyTest, TheWipcToioIsANamedSetting) {
  CoreHarness plain({"2.0.2", "enterprise"});
  const json rec = make_test("latency")->run(plain.ctx);
  EXPECT_EQ(rec.at("preconditioning")[0].at("spec").at("queue_depth"), 1);
  CoreHarness deep({"2.0.2", "enterprise"}, {{"latency.wipc_queue_depth", "32"}});
  const json deeper = make_test("latency")->run(deep.ctx);
  EXPECT_EQ(deeper.at("preconditioning")[0].at("spec").at("queue_depth"), 32);
  EXPECT_EQ(deeper.at("preconditioning")[0].at("spec").at("threads"), 1);
}

// Revisions pick their tests: PTS-E 1.1 runs ECW in place of CBW; ECW is not a 2.0.2 test.
TEST(EcwTest, RevisionsPickTheirCompositeTest) {
  EXPECT_EQ(tests_for_revision({"iops", "cbw"}, "e1.1"), (std::vector<std::string>{"iops", "ecw"}));
  EXPECT_EQ(tests_for_revision({"cbw", "ecw"}, "e1.1"), (std::vector<std::string>{"ecw"}));
  EXPECT_EQ(tests_for_revision(parse_test_list("core"), "e1.1"),
            (std::vector<std::string>{"iops", "throughput", "latency", "wsat", "ecw"}));
  // "all" is every PTS test of the revision: the eight of PTS-E 1.1 and of 2.0.2.
  EXPECT_EQ(tests_for_revision(parse_test_list("all"), "e1.1"),
            (std::vector<std::string>{"iops", "throughput", "latency", "wsat", "ecw", "hir", "xsr", "dirth"}));
  EXPECT_EQ(tests_for_revision(parse_test_list("all"), "2.0.2"),
            (std::vector<std::string>{"iops", "throughput", "latency", "wsat", "cbw", "hir", "xsr", "dirth"}));
  EXPECT_EQ(tests_for_revision({"cbw", "dirth"}, "2.0.2"), (std::vector<std::string>{"cbw", "dirth"}));
  try {
    (void)tests_for_revision({"iops", "ecw"}, "2.0.2");
    FAIL() << "ecw accepted under 2.0.2";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "tests: ecw is not a test of revision 2.0.2; it runs cbw in its place");
  }
}

TEST(MakeTest, UnknownIdsAreUsageErrors) {
  EXPECT_EQ(make_test("iops")->id(), "iops");
  EXPECT_EQ(make_test("tp")->id(), "throughput");
  EXPECT_EQ(make_test("xsr")->id(), "xsr");
  EXPECT_EQ(make_test("hir")->id(), "hir");
  EXPECT_EQ(make_test("dirth")->id(), "dirth");
  EXPECT_EQ(make_test("ecw")->id(), "ecw");
  EXPECT_THROW(make_test("fob"), UsageError);
}

// PtsTest::run() adds what the verdict and the header need about the whole stimulus.
TEST(PtsTestRun, RecordsTheDeepestQueueAndHowTheActiveRangeWasAddressed) {
  CoreHarness h({"2.0.2", "enterprise"});
  const json iops = make_test("iops")->run(h.ctx);
  EXPECT_EQ(iops.at("max_queue_depth"), 32);
  EXPECT_EQ(iops.at("ar_segments").at("count"), 1);
  EXPECT_TRUE(iops.at("toio").at("operator_choice").get<bool>());
  CoreHarness c({"2.0.2", "enterprise"}, {{"max_rounds", "5"}});
  const json cbw = make_test("cbw")->run(c.ctx);
  EXPECT_EQ(cbw.at("ar_segments").at("count"), 3);
  EXPECT_NE(cbw.at("ar_segments").at("description").get<std::string>().find("50 % of IOs in 0-5 %"), std::string::npos);
  CoreHarness l({"2.0.2", "enterprise"});
  EXPECT_EQ(json(make_test("latency")->run(l.ctx)).at("max_queue_depth"), 1);
}

}  // namespace
}  // namespace ptsuite::pts
