// Replay that measures the drive, end to end through the binary: a small capture (150 IOs of 4
// KiB, reads and writes alternating, one at a time, in two 100 ms steps) replayed closed loop on
// two loop devices over /dev/shm, one of them made a slower drive by the kernel's block
// throttling (support/io_throttle.hpp: a cgroup limiting that device to 50 read and 50 write IOPS
// for the replaying process, so 100 IOPS of this mix). The throttled drive's rate is the
// kernel's, whatever the machine's load, so 150 IOs take about 1.5 s there (measured 101-106
// IOPS), while the unthrottled loop device serves one IO at a time in microseconds (a few ms on
// a machine loaded 10 x over its cores: still far above 100 IOPS). Each record has every step's response times;
// the throttled target is measured slower (fewer IOPS) and `ptsuite compare` ranks it second in
// whatever order the records are given, draws the per-step response times as lines and writes
// the delta table at a step. Skipped (with the reason) without root, loop devices or
// blk-throttle.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include <ptsuite/results/comparison.hpp>
#include <ptsuite/results/replay.hpp>

#include <ptsuite/capture/capture_file.hpp>
#include "integration/workload_process.hpp"
#include "support/io_throttle.hpp"
#include "support/json_schema.hpp"
#include "support/loop_support.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::replay {
namespace {

using workload::test::run_ptsuite;

constexpr uint32_t k_throttle_iops = 50;
constexpr uint64_t k_rank_ios = 150;
constexpr uint64_t k_rank_step_ns = 100'000'000;

// 150 IOs of 4 KiB, 1 ms apart, reads and writes alternating, each completing 50 us after its
// issue (one in flight at a time), in two steps of 100 ms on a 16 MiB device.
void write_rank_capture(const std::string& path) {
  capture::CaptureHeader header;
  header.source = "synthetic (tests)";
  header.devices.push_back({"/dev/synthetic", 259, 0, 16ULL << 20, 512, true, "", ""});
  capture::CaptureWriter writer(test_support::output_path(path), header);
  for (uint64_t i = 0; i < k_rank_ios; ++i) {
    capture::IoRecord r;
    r.issue_ns = 500'000 + i * 1'000'000;
    r.complete_ns = r.issue_ns + 50'000;
    r.offset_bytes = (i * 7919 % 4096) * 4096;
    r.length_bytes = 4096;
    r.op = i % 2 == 0 ? capture::IoOp::read : capture::IoOp::write;
    writer.append(r);
  }
  capture::CaptureTrailer trailer;
  trailer.duration_ns = 2 * k_rank_step_ns;
  trailer.stop_reason = "duration";
  writer.finish(trailer);
}

class ReplayRank : public test_support::LoopDeviceFixture {};

nlohmann::json replay_on(const std::string& capture, const std::string& device, const std::string& out,
                         const workload::test::ProcessOptions& options) {
  const workload::test::ProcessResult r =
      run_ptsuite({"replay", capture, "--target", device, "--mode", "closed", "--step", "100ms", "--seed", "7",
                   "--allow-destructive", "--quiet", "--out", out, "--no-history", "--format", "none"},
                  options);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(workload::test::slurp(out + "/results.json"));
}

TEST_F(ReplayRank, ASlowerTargetIsMeasuredSlowerAndRankedSecond) {
  if (IsSkipped()) return;
  auto& fast = attach_loop(32ULL << 20);
  auto& slow = attach_loop(32ULL << 20);
  struct stat st {};
  ASSERT_EQ(::stat(slow.device.path().c_str(), &st), 0);
  std::string why;
  std::optional<test_support::IoThrottle> throttle =
      test_support::IoThrottle::create("ptsuite-rank-throttle", st.st_rdev, k_throttle_iops, why);
  if (!throttle) GTEST_SKIP() << why;
  const std::string capture = temp_dir().file("rank.ptcap");
  write_rank_capture(capture);
  const std::string fast_json = temp_dir().file("fast");  // the replays' run directories
  const std::string slow_json = temp_dir().file("slow");
  const nlohmann::json a = replay_on(capture, fast.device.path(), fast_json, {});
  const nlohmann::json b = replay_on(capture, slow.device.path(), slow_json, {.cgroup_procs = throttle->procs_path()});
  for (const nlohmann::json* doc : {&a, &b}) {
    EXPECT_EQ(validate_json(*doc, embedded_schema("replay")), std::vector<std::string>{});
  }
  const results::ReplayRecord fast_rec = results::read_replay(a);
  const results::ReplayRecord slow_rec = results::read_replay(b);
  ASSERT_TRUE(fast_rec.latency && slow_rec.latency);
  EXPECT_EQ(fast_rec.capture_id, slow_rec.capture_id);
  // The kernel's rate on the throttled drive: reads and writes each at most the limit (a slice's
  // burst aside); the ranking needs only that the unthrottled one be faster.
  EXPECT_LT(slow_rec.latency->combined.iops, 2 * k_throttle_iops * 1.5)
      << throttle->mechanism() << ": " << slow_rec.latency->combined.iops << " IOPS";
  EXPECT_GT(fast_rec.latency->combined.iops, slow_rec.latency->combined.iops);
  EXPECT_LT(fast_rec.latency->combined.mean_ns, slow_rec.latency->combined.mean_ns) << "one IO at a time";
  EXPECT_EQ(slow_rec.replayed_ios, k_rank_ios);
  ASSERT_EQ(slow_rec.steps.size(), 2u);
  for (const results::ReplayStep& s : slow_rec.steps) {
    ASSERT_TRUE(s.latency.has_value());
    EXPECT_EQ(s.latency->combined.ios, s.replayed.ios);
    EXPECT_LE(s.latency->combined.p99_9_ns, s.latency->combined.max_ns);
  }

  // Given slow first, compare still ranks the fast target first; the steps are lines, the delta
  // table at the second step (0.1 s) names the lead.
  const std::string out = temp_dir().file("cmp");
  const workload::test::ProcessResult cmp =
      run_ptsuite({"compare", slow_json, fast_json, "--out", out, "--at", "0.1s"});
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  const nlohmann::json doc = nlohmann::json::parse(workload::test::slurp(out + "/compare.json"));
  EXPECT_EQ(validate_json(doc, embedded_schema("compare")), std::vector<std::string>{});
  const results::Comparison c = results::read_comparison(doc);
  ASSERT_EQ(c.rankings.size(), 1u);
  EXPECT_EQ(c.rankings[0].order, (std::vector<uint32_t>{1, 0})) << "the fast target (run 2) ranks first";
  ASSERT_FALSE(c.deltas.empty());
  EXPECT_NE(c.deltas[0].summary.find("At 0.1 s Run 2 had a "), std::string::npos) << c.deltas[0].summary;
  const std::string html = workload::test::slurp(out + "/compare.html");
  EXPECT_NE(html.find("Ranking of the runs"), std::string::npos);
  EXPECT_NE(html.find("response time per step"), std::string::npos);
  EXPECT_NE(html.find("class=\"line\""), std::string::npos) << "the steps are drawn as lines";
}

}  // namespace
}  // namespace ptsuite::replay
