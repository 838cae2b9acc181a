// The PTS-C client options (issue 11 item 6): the ActiveRange Amount / Segments reach random
// segments without LBA zones only, the record says how the AR was addressed, and the client
// random WIPC pass runs after the SEQ pass with its own step.
#include <gtest/gtest.h>

#include <algorithm>

#include <ptsuite/pts/device_executor.hpp>
#include <ptsuite/pts/test_procedure.hpp>
#include <ptsuite/util/units.hpp>

#include "support/fake_step_executor.hpp"

namespace ptsuite::pts {
namespace {

using nlohmann::json;

using units::k_mib;

struct Harness {
  explicit Harness(std::vector<std::pair<std::string, std::string>> overrides, SpecContext spec = {"2.0.2", "client"})
      : settings(Settings::build(DefinitionSet::embedded(), spec, {}, overrides)),
        ctx{DefinitionSet::embedded(), spec, settings, exec, TargetFacts{1ull << 30, 512}} {}
  testing::FakeExecutor exec{[](const StepId&, const SegmentSpec&) { return 1000.0; }};
  Settings settings;
  TestContext ctx;
};

const std::vector<std::pair<std::string, std::string>> k_amount = {{"active_range.amount", "64MiB"},
                                                                   {"active_range.segments", "16"}};

TEST(ClientOptions, TheDeviceExecutorSegmentsRandomUnzonedIoOnly) {
  DeviceRunParams params;
  params.active_range_pct = 75;
  params.ar_amount_bytes = 64 * k_mib;
  params.ar_segments = 16;
  const DeviceExecutor exec(params);
  SegmentSpec random = make_segment(workload::AccessPattern::random, RwMix{0}, 4096, 2, 16, 1'000'000'000);
  workload::WorkloadSpec ws = exec.workload_for(StepId{"iops", "main", "r001-s00"}, random);
  EXPECT_EQ(ws.active_range.amount_bytes, 64 * k_mib);
  EXPECT_EQ(ws.active_range.segments, 16u);
  EXPECT_DOUBLE_EQ(ws.active_range.pct, 75);

  SegmentSpec zoned = random;
  zoned.zones = {{50, 5}, {30, 15}, {20, 80}};
  ws = exec.workload_for(StepId{"cbw", "main", "r001-s00"}, zoned);
  EXPECT_EQ(ws.active_range.amount_bytes, 0u) << "CBW's LBA zones address the whole AR";
  EXPECT_EQ(ws.active_range.segments, 1u);

  const SegmentSpec seq = make_segment(workload::AccessPattern::sequential, RwMix{0}, 131072, 1, 32, 1'000'000'000);
  ws = exec.workload_for(StepId{"throughput", "main", "r001-s00"}, seq);
  EXPECT_EQ(ws.active_range.amount_bytes, 0u) << "sequential IO spans the whole AR";
}

TEST(ClientOptions, TheRecordSaysHowTheActiveRangeWasAddressed) {
  Harness iops(k_amount);
  const json rec = make_test("iops")->run(iops.ctx);
  EXPECT_EQ(rec.at("ar_segments").at("count"), 16);
  EXPECT_EQ(rec.at("ar_segments").at("amount_bytes"), 64 * k_mib);
  EXPECT_NE(rec.at("ar_segments").at("description").get<std::string>().find("16 equal segments holding 64MiB"),
            std::string::npos);

  Harness tp(k_amount);
  const json tp_rec = make_test("throughput")->run(tp.ctx);
  EXPECT_EQ(tp_rec.at("ar_segments").at("count"), 1);
  EXPECT_FALSE(tp_rec.at("ar_segments").contains("amount_bytes")) << "a sequential-only test is not segmented";

  Harness plain({});
  EXPECT_FALSE(json(make_test("iops")->run(plain.ctx)).at("ar_segments").contains("amount_bytes"));
}

TEST(ClientOptions, RandomWipcRunsAfterTheSequentialPassWithItsOwnStep) {
  Harness h(std::vector<std::pair<std::string, std::string>>{{"wipc.random", "true"},
                                                             {"wipc.random_capacity_multiple", "1.5"}});
  const json rec = make_test("latency")->run(h.ctx);
  const auto& steps = h.exec.executed;
  const auto seq = std::find(steps.begin(), steps.end(), "latency/main/wipc");
  const auto rnd = std::find(steps.begin(), steps.end(), "latency/main/wipc-random");
  ASSERT_NE(seq, steps.end());
  ASSERT_NE(rnd, steps.end());
  EXPECT_EQ(rnd, seq + 1) << "the random pass follows the SEQ pass directly, before the Rounds";
  const json& pass = rec.at("preconditioning").at(0).at("random_pass");
  EXPECT_EQ(pass.at("block_size_bytes"), 4096);
  EXPECT_DOUBLE_EQ(pass.at("capacity_multiple").get<double>(), 1.5);
  // 1.5 x 1 GiB in whole 4 KiB blocks per thread (Latency: TC 1).
  EXPECT_EQ(pass.at("bytes_target"), 3 * (1ull << 29));
  EXPECT_EQ(pass.at("spec").at("pattern"), "random");
  EXPECT_EQ(pass.at("spec").at("read_pct"), 0.0);

  Harness off({});
  const json plain = make_test("latency")->run(off.ctx);
  EXPECT_FALSE(plain.at("preconditioning").at(0).contains("random_pass"));
  EXPECT_EQ(std::count(off.exec.executed.begin(), off.exec.executed.end(), "latency/main/wipc-random"), 0);
}

}  // namespace
}  // namespace ptsuite::pts
