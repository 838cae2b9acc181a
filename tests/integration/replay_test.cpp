// Replay of a known synthetic capture (support/synthetic_capture.hpp) on real targets: an
// O_DIRECT file in /dev/shm (no root needed) and a loop device (root). Asserted are the things
// a bug would break, never times: every replayable IO issued once, in its captured step, with
// its direction and size (per-step IOs, R/W mix and block-size distribution exactly equal to the
// capture's; IOPS then equal by construction of the step windows), skipped and remapped counts,
// time scaling (speed 2 doubles every step's IOPS), and the closed loop's outstanding IOs
// following the capture's. The capture's IOs sit 20 ms inside their 200 ms steps, so only a
// replay more than 20 ms late could move one across a step (the issue-time error is reported).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include <ptsuite/engine/target.hpp>
#include <ptsuite/replay/replay_ramp.hpp>
#include <ptsuite/replay/replay_runner.hpp>
#include <ptsuite/results/replay.hpp>
#include <ptsuite/util/error.hpp>

#include "integration/workload_process.hpp"
#include "support/json_schema.hpp"
#include "support/loop_support.hpp"
#include "support/synthetic_capture.hpp"
#include "support/temp_dir.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::replay {
namespace {

using test_support::k_synthetic_step_ns;

constexpr uint64_t k_target_bytes = 32ULL << 20;  // half the captured device: offsets fold

// Every step's count, mix and sizes equal the capture's. An open-loop IO can only leave its
// step when the replay issued it more than 20 ms (the capture's margin, / speed) late, which the
// record then shows as issue-time error: per step only when the lag stayed under the margin
// (a machine that busy is reported, not failed); the totals always.
void expect_steps_reproduced(const results::ReplayRecord& r, double speed) {
  const bool in_margin = r.mode == "closed" || static_cast<double>(r.issue_error_max_ns) < 20e6 / speed;
  ASSERT_GE(r.steps.size(), 3u);
  if (in_margin) {
    EXPECT_EQ(r.steps.size(), 3u);
  }
  results::ReplayFigures captured;
  results::ReplayFigures replayed;
  for (size_t k = 0; k < r.steps.size(); ++k) {
    const results::ReplayStep& s = r.steps[k];
    for (auto [total, step] : {std::pair{&captured, &s.captured}, std::pair{&replayed, &s.replayed}}) {
      total->ios += step->ios;
      total->read_ios += step->read_ios;
      total->bytes += step->bytes;
    }
    if (!in_margin) continue;
    EXPECT_EQ(s.replayed.ios, s.captured.ios) << "step " << k;
    EXPECT_EQ(s.replayed.read_ios, s.captured.read_ios) << "step " << k;
    EXPECT_EQ(s.replayed.write_ios, s.captured.write_ios) << "step " << k;
    EXPECT_EQ(s.replayed.bytes, s.captured.bytes) << "step " << k;
    EXPECT_EQ(s.replayed.sizes, s.captured.sizes) << "step " << k;
    if (r.mode == "open") {
      EXPECT_DOUBLE_EQ(s.replayed.iops, s.captured.iops * speed) << "step " << k;
    }
  }
  EXPECT_EQ(replayed.ios, captured.ios);
  EXPECT_EQ(replayed.read_ios, captured.read_ios);
  EXPECT_EQ(replayed.bytes, captured.bytes);
  EXPECT_EQ(r.replayed_ios, test_support::k_synthetic_replayable_ios);
  EXPECT_EQ(r.skipped_ios, 1u);  // the flush
  EXPECT_GT(r.remapped_ios, 0u);
  EXPECT_EQ(r.stop_reason, "complete");
}

class ReplayFile : public ::testing::Test {
 protected:
  void SetUp() override {
    test_support::write_synthetic_capture(m_capture);
    m_target_path = m_dir.create_file("target.bin", k_target_bytes);
  }
  results::ReplayRecord replay(ReplayOptions o) {
    const engine::Target target = engine::Target::open(test_support::writable(m_target_path).writable());
    o.step_ns = k_synthetic_step_ns;
    return run_replay(m_capture, target, o);
  }
  test_support::ShmTempDir m_dir{"ptsuite-replay"};
  std::string m_capture = m_dir.file("synthetic.ptcap");
  std::string m_target_path;
};

// What the replay measured of the target: per step and in total, each direction's response
// times with IOs, percentiles in order and never above the maximum, every replayed IO counted
// once (per step and in total), the capture's id.
void expect_latency_measured(const results::ReplayRecord& r) {
  ASSERT_TRUE(r.latency.has_value());
  EXPECT_EQ(r.latency->combined.ios, r.replayed_ios);
  EXPECT_EQ(r.latency->read.ios + r.latency->write.ios, r.replayed_ios);
  EXPECT_EQ(r.capture_id.rfind("sha256:", 0), 0u);
  uint64_t ios = 0;
  uint64_t max_ns = 0;
  for (const results::ReplayStep& s : r.steps) {
    ASSERT_TRUE(s.latency.has_value());
    EXPECT_EQ(s.latency->combined.ios, s.replayed.ios) << "every IO of the step, once";
    ios += s.latency->combined.ios;
    max_ns = std::max(max_ns, s.latency->combined.max_ns);
    for (const results::ReplayDirectionLatency* d : {&s.latency->read, &s.latency->write, &s.latency->combined}) {
      if (d->ios == 0) continue;
      EXPECT_GT(d->min_ns, 0u);
      EXPECT_LE(d->min_ns, d->p50_ns);
      EXPECT_LE(d->p50_ns, d->p99_ns);
      EXPECT_LE(d->p99_ns, d->p99_9_ns);
      EXPECT_LE(d->p99_9_ns, d->p99_99_ns);
      EXPECT_LE(d->p99_99_ns, d->max_ns);
      EXPECT_GT(d->iops, 0);
    }
  }
  EXPECT_EQ(ios, r.replayed_ios);
  EXPECT_EQ(max_ns, r.latency->combined.max_ns) << "the whole replay's maximum is a step's";
}

TEST_F(ReplayFile, OpenLoopReproducesEveryStepsIOsMixAndSizes) {
  const results::ReplayRecord r = replay({});
  expect_steps_reproduced(r, 1.0);
  expect_latency_measured(r);
  EXPECT_EQ(r.mode, "open");
  EXPECT_GE(r.issue_error_max_ns, r.issue_error_p99_ns);
  EXPECT_GE(r.issue_error_p99_ns, r.issue_error_p50_ns);
  EXPECT_EQ(r.queue_slots, 32u);  // 2 x the capture's 4 in flight, at least 32
}

TEST_F(ReplayFile, SpeedTwoDoublesEveryStepsIops) {
  ReplayOptions o;
  o.speed = 2;
  const results::ReplayRecord r = replay(o);
  expect_steps_reproduced(r, 2.0);
  EXPECT_EQ(r.steps[0].replayed.length_ns, k_synthetic_step_ns / 2);
  EXPECT_DOUBLE_EQ(r.steps[0].replayed.iops * static_cast<double>(r.steps[0].replayed.length_ns), 200 * 1e9);
}

TEST_F(ReplayFile, ClosedLoopKeepsTheCapturedOutstandingIOs) {
  ReplayOptions o;
  o.mode = ReplayMode::closed_loop;
  const results::ReplayRecord r = replay(o);
  expect_steps_reproduced(r, 1.0);
  // The capture has one IO at a time in steps 0 and 2 and bursts of 4 in step 1: the closed
  // loop issues each IO once fewer than the capture had in flight at its issue are in flight.
  EXPECT_EQ(r.steps[0].replayed.outstanding_max, 1u);
  EXPECT_EQ(r.steps[1].replayed.outstanding_max, 4u);
  EXPECT_EQ(r.steps[2].replayed.outstanding_max, 1u);
  EXPECT_EQ(r.issue_error_max_ns, 0u);  // no schedule in closed loop
  expect_latency_measured(r);
}

// A rate ramp: the closed-loop limit, then the whole capture open loop at each share of it (the
// speeds in the ratio of the percentages), every IO replayed at every rate, response times each.
TEST_F(ReplayFile, ARampReplaysTheCaptureAtEachShareOfTheClosedLoopLimit) {
  const engine::Target target = engine::Target::open(test_support::writable(m_target_path).writable());
  ReplayOptions o;
  o.step_ns = k_synthetic_step_ns;
  capture::CaptureReader reader(m_capture);
  size_t seen = 0;
  const results::ReplayRecord r =
      run_ramp(reader, m_capture, target, o, {25, 50}, [&seen](const results::RampPoint&) { ++seen; });
  EXPECT_EQ(r.mode, "closed");
  expect_steps_reproduced(r, 1.0);
  ASSERT_TRUE(r.ramp.has_value());
  EXPECT_EQ(seen, 2u);
  EXPECT_GT(r.ramp->limit_iops, 0);
  EXPECT_EQ(r.ramp->limit_source, "closed-loop replay");
  ASSERT_EQ(r.ramp->points.size(), 2u);
  const results::RampPoint& a = r.ramp->points[0];
  const results::RampPoint& b = r.ramp->points[1];
  EXPECT_DOUBLE_EQ(a.percent, 25);
  EXPECT_DOUBLE_EQ(b.speed, 2 * a.speed);
  EXPECT_DOUBLE_EQ(a.target_iops, 0.25 * r.ramp->limit_iops);
  // The capture's mean rate: 700 IOs from the first issue (20 ms) to the last (578.4 ms).
  EXPECT_NEAR(r.ramp->capture_iops, 700 / 0.5584, 0.01);
  for (const results::RampPoint& p : r.ramp->points) {
    EXPECT_EQ(p.replayed_ios, test_support::k_synthetic_replayable_ios);
    EXPECT_EQ(p.latency.combined.ios, p.replayed_ios);
    EXPECT_LE(p.latency.combined.p99_99_ns, p.latency.combined.max_ns);
    EXPECT_EQ(p.stop_reason, "complete");
  }
  EXPECT_THROW((void)run_ramp(reader, m_capture, target, o, {0}), UsageError);
}

TEST_F(ReplayFile, CliWritesTheRecordAndNeedsConsentForAFileHoldingData) {
  const std::string out = m_dir.file("replay-run");
  const std::string json = out + "/results.json";
  const std::string html = out + "/report.html";
  const auto ok =
      workload::test::run_ptsuite({"replay", m_capture, "--target", m_target_path, "--step", "200ms",
                                   "--allow-destructive", "--out", out, "--no-history", "--mode", "closed"});
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("Per step"), std::string::npos);
  const nlohmann::json doc = nlohmann::json::parse(workload::test::slurp(json));
  EXPECT_EQ(validate_json(doc, embedded_schema("replay")), std::vector<std::string>{});
  const results::ReplayRecord r = results::read_replay(doc);
  expect_steps_reproduced(r, 1.0);
  EXPECT_NE(workload::test::slurp(html).find("Block-size distribution"), std::string::npos);
  // The file now holds the replay's data: writing it again needs --allow-destructive (exit 3).
  const auto refused =
      workload::test::run_ptsuite({"replay", m_capture, "--target", m_target_path, "--step", "200ms", "--quiet"});
  EXPECT_EQ(refused.exit_code, 3) << refused.err;
  const auto bad = workload::test::run_ptsuite({"replay", m_capture, "--mode", "sideways"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--mode"), std::string::npos);
}

class ReplayLoop : public test_support::LoopDeviceFixture {};

TEST_F(ReplayLoop, OpenLoopOnALoopDeviceReproducesEveryStep) {
  auto& loop = attach_loop(k_target_bytes);
  const std::string capture = temp_dir().file("synthetic.ptcap");
  test_support::write_synthetic_capture(capture);
  const engine::Target target = engine::Target::open(test_support::writable(loop.device.path()).writable());
  ReplayOptions o;
  o.step_ns = k_synthetic_step_ns;
  expect_steps_reproduced(run_replay(capture, target, o), 1.0);
}

}  // namespace
}  // namespace ptsuite::replay

namespace ptsuite::replay {
namespace {

TEST_F(ReplayFile, AnFioIologReplaysThroughTheSamePath) {
  // 300 IOs of an fio v3 iolog (us timestamps): 4 KiB reads and 16 KiB writes, 1 ms apart.
  std::string log = "fio version 3 iolog\n0 /data/f add\n1 /data/f open\n";
  for (int i = 0; i < 300; ++i) {
    log += std::to_string(1000 + i * 1000) + (i % 3 == 0 ? " /data/f write " : " /data/f read ") +
           std::to_string(i * 16384) + (i % 3 == 0 ? " 16384\n" : " 4096\n");
  }
  const std::string path = m_dir.file("trace.iolog");
  std::ofstream(path) << log;
  const std::string json = m_dir.file("iolog.json");
  const auto r = workload::test::run_ptsuite({"replay", path, "--target", m_target_path, "--allow-destructive",
                                              "--step", "100ms", "--mode", "closed", "--json-out", json, "--out",
                                              m_dir.file("iolog-run"), "--no-history"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("imported 300 IOs from fio-iolog v3"), std::string::npos) << r.out;
  const nlohmann::json doc = nlohmann::json::parse(workload::test::slurp(json));
  EXPECT_EQ(validate_json(doc, embedded_schema("replay")), std::vector<std::string>{});
  const results::ReplayRecord rec = results::read_replay(doc);
  EXPECT_EQ(rec.capture_file, path);
  EXPECT_EQ(rec.capture_source, "fio-iolog v3");
  EXPECT_EQ(rec.replayed_ios, 300u);
  ASSERT_EQ(rec.steps.size(), 4u);  // 1 ms .. 300 ms in 100 ms steps
  for (const results::ReplayStep& s : rec.steps) {
    EXPECT_EQ(s.replayed.sizes, s.captured.sizes);
    EXPECT_EQ(s.replayed.read_ios, s.captured.read_ios);
  }
}

}  // namespace
}  // namespace ptsuite::replay
