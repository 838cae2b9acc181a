// The replay's pure parts: the per-step figures (StepMeter), the LBA remap, the capture's
// outstanding IOs, the pass over a capture (plan_replay) on a known synthetic workload, and the
// replay record's writer and reader.
#include <gtest/gtest.h>

#include <functional>

#include <ptsuite/capture/characterize.hpp>

#include <ptsuite/capture/capture_file.hpp>
#include <ptsuite/replay/replay_plan.hpp>
#include <ptsuite/replay/replay_runner.hpp>
#include <ptsuite/replay/step_meter.hpp>
#include <ptsuite/results/replay.hpp>
#include <ptsuite/util/error.hpp>

#include "support/json_schema.hpp"
#include "support/synthetic_capture.hpp"
#include "support/temp_dir.hpp"

namespace ptsuite::replay {
namespace {

using test_support::k_synthetic_step_ns;

TEST(StepMeter, CountsIssuesIntoTheirTimeWindow) {
  StepMeter m(1000);
  m.issue(10, Direction::read, 4096, 1);
  m.issue(999, Direction::write, 8192, 1);
  m.issue(1000, Direction::read, 4096, 1);
  const std::vector<results::ReplayFigures> f = m.figures(2000, 1.0, 0);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].ios, 2u);
  EXPECT_EQ(f[0].read_ios, 1u);
  EXPECT_EQ(f[0].write_ios, 1u);
  EXPECT_EQ(f[0].bytes, 12288u);
  EXPECT_DOUBLE_EQ(f[0].read_pct, 50.0);
  EXPECT_EQ(f[1].ios, 1u);
  ASSERT_EQ(f[0].sizes.size(), 2u);
  EXPECT_EQ(f[0].sizes[0], (results::SizeCount{4096, 1}));
  EXPECT_EQ(f[0].sizes[1], (results::SizeCount{8192, 1}));
  // 2 IOs in 1000 ns = 2e6 IOPS; at speed 2 the window is 500 ns: 4e6 IOPS.
  EXPECT_DOUBLE_EQ(f[0].iops, 2e6);
  EXPECT_DOUBLE_EQ(m.figures(2000, 2.0, 0)[0].iops, 4e6);
}

TEST(StepMeter, StepsBeyondTheBoundAreRefused) {
  StepMeter m(1000);
  m.issue((capture::k_max_steps - 1) * 1000, Direction::read, 4096, 1);
  EXPECT_THROW(m.issue(capture::k_max_steps * 1000, Direction::read, 4096, 1), UsageError);
  EXPECT_EQ(m.figures(capture::k_max_steps * 1000, 1.0, 0).size(), capture::k_max_steps);
}

TEST(StepMeter, SplitsInFlightTimeExactlyAcrossSteps) {
  StepMeter m(100);
  m.in_flight(50, 2);   // 2 in flight from 50 ...
  m.in_flight(250, 0);  // ... to 250: 50 ns in step 0, 100 in step 1, 50 in step 2
  m.issue(299, Direction::read, 512, 1);
  const std::vector<results::ReplayFigures> f = m.figures(300, 1.0, 0);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_DOUBLE_EQ(f[0].outstanding_mean, 1.0);  // 2 x 50 / 100
  EXPECT_DOUBLE_EQ(f[1].outstanding_mean, 2.0);
  EXPECT_DOUBLE_EQ(f[2].outstanding_mean, 1.0);
  EXPECT_EQ(f[2].outstanding_max, 1u);
}

// The errors' histogram exists once, for the step being filled: a step's summary is final once
// a later step has an error (a replay issues in time order), so memory does not grow with the
// number of steps.
TEST(StepMeter, IssueErrorSummariesAreKeptPerStepAsTheyClose) {
  StepMeter m(1000);
  for (int64_t e : {100, 200, 300}) m.issue_error(0, e);
  m.issue_error(5, 7000);
  m.issue_error(2, 50);  // out of order: counts in the current step (5)
  EXPECT_EQ(m.issue_errors(0).count, 3u);
  EXPECT_EQ(m.issue_errors(0).p50_ns, 200u);
  EXPECT_EQ(m.issue_errors(0).max_ns, 300u);
  EXPECT_EQ(m.issue_errors(0).last_ns, 300u);
  EXPECT_EQ(m.issue_errors(2).count, 0u);
  EXPECT_EQ(m.issue_errors(5).count, 2u);
  EXPECT_EQ(m.issue_errors(5).max_ns, 7000u);
  EXPECT_EQ(m.issue_errors(5).last_ns, 50u);
  EXPECT_EQ(m.all_issue_errors().count, 5u);
}

// A replay's meter has an overflow step after the capture's last: whatever falls later (a
// replay that fell hours behind at a high speed, mapped onto the capture's timeline) counts
// there, at once, and nothing is refused after the replay's first write.
TEST(StepMeter, AnOverflowStepTakesEverythingLaterAtOnce) {
  StepMeter m(1000, 3);
  m.issue(500, Direction::read, 4096, 1);
  m.issue(2500, Direction::read, 4096, 2);
  m.issue(1ULL << 62, Direction::write, 8192, 1);  // 4.6e15 steps later: step 3
  m.in_flight((1ULL << 62) + 1000, 0);
  m.issue_error(m.step_of(1ULL << 62), 1'000'000);
  EXPECT_EQ(m.step_of(1ULL << 62), 3u);
  const std::vector<results::ReplayFigures> f = m.figures(4000, 1.0, 3);
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[3].ios, 1u);
  EXPECT_EQ(f[3].write_ios, 1u);
  EXPECT_EQ(f[3].length_ns, 1000u);  // [3000, 4000): all of it to end_ns
  EXPECT_EQ(m.figures(9000, 1.0, 3)[3].length_ns, 6000u);
  EXPECT_EQ(m.issue_errors(3).max_ns, 1'000'000u);
  EXPECT_THROW(StepMeter(1000, capture::k_max_steps), UsageError);  // beyond the bound itself
}

TEST(StepMeter, StepAttributionUsesTheMeasuredLength) {
  StepMeter m(1000);
  m.issue_in_step(3, Direction::write, 4096, 2);
  m.in_flight_in_step(3, 0, 2);
  m.in_flight_in_step(3, 500, 0);
  m.set_length(3, 500);
  const std::vector<results::ReplayFigures> f = m.figures(0, 1.0, 5);
  ASSERT_EQ(f.size(), 5u);
  EXPECT_EQ(f[3].length_ns, 500u);
  EXPECT_DOUBLE_EQ(f[3].iops, 2e6);
  EXPECT_DOUBLE_EQ(f[3].outstanding_mean, 2.0);
  EXPECT_EQ(f[4].ios, 0u);
}

TEST(StepMeter, IssueErrorsKeepPercentilesMaximumAndTheLastLag) {
  StepMeter m(1000);
  for (int i = 1; i <= 100; ++i) m.issue_error(0, i * 1000);
  m.issue_error(1, -5);  // early counts as 0
  const StepMeter::ErrorSummary e = m.issue_errors(0);
  EXPECT_EQ(e.count, 100u);
  EXPECT_NEAR(static_cast<double>(e.p50_ns), 50'000, 50'000 * 0.004);
  EXPECT_NEAR(static_cast<double>(e.p99_ns), 99'000, 99'000 * 0.004);
  EXPECT_EQ(e.max_ns, 100'000u);
  EXPECT_EQ(e.last_ns, 100'000u);
  EXPECT_EQ(m.issue_errors(1).max_ns, 0u);
  EXPECT_EQ(m.all_issue_errors().count, 101u);
  EXPECT_THROW(StepMeter(0), UsageError);
}

TEST(ReplayRemap, KeepsFittingIOsAndFoldsTheRestIntoTheCapacity) {
  const PlacedIo same = map_to_target(8192, 4096, 1 << 20, 512);
  EXPECT_EQ(same.offset_bytes, 8192u);
  EXPECT_FALSE(same.remapped);
  EXPECT_FALSE(same.resized);
  const PlacedIo folded = map_to_target((1 << 20) + 4096, 4096, 1 << 20, 512);
  EXPECT_EQ(folded.offset_bytes, 4096u);
  EXPECT_TRUE(folded.remapped);
  // Runs past the end: pulled back to end at the last whole block.
  const PlacedIo tail = map_to_target((1 << 20) - 4096, 65536, 1 << 20, 512);
  EXPECT_EQ(tail.offset_bytes, (1u << 20) - 65536);
  // A 512-byte IO on a 4096-byte target: rounded up, aligned down.
  const PlacedIo small = map_to_target(4608, 512, 1 << 20, 4096);
  EXPECT_EQ(small.length_bytes, 4096u);
  EXPECT_EQ(small.offset_bytes, 4096u);
  EXPECT_TRUE(small.resized);
}

TEST(ReplayPlan, TheCapturesOwnFiguresOfAKnownWorkload) {
  const test_support::ShmTempDir dir("ptsuite-replay-plan");
  const std::string path = dir.file("synthetic.ptcap");
  test_support::write_synthetic_capture(path);
  capture::CaptureReader reader(path);
  const ReplayPlan plan = plan_replay(reader, 0, k_synthetic_step_ns);
  EXPECT_EQ(plan.device_ios, test_support::k_synthetic_replayable_ios + 1);  // + the flush
  EXPECT_EQ(plan.replay_ios, test_support::k_synthetic_replayable_ios);
  EXPECT_EQ(plan.max_length_bytes, 65536u);
  EXPECT_TRUE(plan.writes);
  EXPECT_TRUE(plan.has_completions);
  EXPECT_EQ(plan.max_outstanding, 4u);
  ASSERT_EQ(plan.captured.size(), 3u);
  EXPECT_EQ(plan.captured[0].ios, 200u);
  EXPECT_EQ(plan.captured[0].read_ios, 140u);
  EXPECT_DOUBLE_EQ(plan.captured[0].iops, 1000.0);  // 200 IOs in 0.2 s
  EXPECT_EQ(plan.captured[0].outstanding_max, 1u);
  // 200 IOs x 40 us in flight over 200 ms = 0.04
  EXPECT_NEAR(plan.captured[0].outstanding_mean, 0.04, 1e-9);
  EXPECT_EQ(plan.captured[1].ios, 400u);
  EXPECT_EQ(plan.captured[1].outstanding_max, 4u);
  EXPECT_EQ(plan.captured[2].ios, 100u);
  EXPECT_EQ(plan.captured[2].write_ios, 0u);
  ASSERT_EQ(plan.captured[2].sizes.size(), 1u);
  EXPECT_EQ(plan.captured[2].sizes[0], (results::SizeCount{4096, 100}));
  EXPECT_THROW(plan_replay(reader, 1, k_synthetic_step_ns), UsageError);
}

TEST(ReplayPlan, AutomaticQueueSlotsStayWithinTheirBounds) {
  EXPECT_EQ(auto_queue_slots(4, 65536), 32u);
  EXPECT_EQ(auto_queue_slots(100, 4096), 200u);
  EXPECT_EQ(auto_queue_slots(1000, 4096), 256u);
  EXPECT_EQ(auto_queue_slots(100, 16ULL << 20), 16u);  // 256 MiB of buffers at most
}

TEST(ReplayRecord, WriterAndReaderAgree) {
  results::ReplayRecord r;
  r.capture_file = "a.ptcap";
  r.mode = "closed";
  r.speed = 2;
  r.queue_slots = 32;
  r.replayed_ios = 7;
  r.capture_complete = false;
  r.settings = {{"replay.lba_remap", "modulo", "[U]"}};
  results::ReplayStep s;
  s.captured.ios = 3;
  s.captured.sizes = {{4096, 3}};
  s.replayed.outstanding_mean = 1.5;
  s.issue_error_p99_ns = 1234;
  s.fell_behind = true;
  s.latency = results::ReplayLatency{};
  s.latency->read = {3, 12288, 30.0, 0.12, 41e3, 2.5e3, 38000, 45000, 40000, 44000, 45000, 45000};
  s.latency->combined = s.latency->read;
  r.steps = {s, s};
  r.steps[1].latency.reset();  // an older record's step: no response times
  r.latency = s.latency;
  r.capture_id = "sha256:" + std::string(64, 'a');
  r.target_identity.model = "FX-3840";
  r.target_identity.capacity_bytes = 1ULL << 30;
  r.ramp = results::ReplayRamp{1000.5, 20000, "closed-loop replay", {}};
  r.ramp->points.push_back({50, 9.99, 10000, 700, 70000000, *s.latency, 3, 1, 10, 20, 30, "complete"});
  nlohmann::json j;
  to_json(j, r);
  const results::ReplayRecord back = results::read_replay(j);
  nlohmann::json again;
  to_json(again, back);
  EXPECT_EQ(j, again);
  EXPECT_EQ(back.steps.at(0).captured.sizes, s.captured.sizes);
  EXPECT_TRUE(back.steps.at(0).fell_behind);
  EXPECT_FALSE(back.capture_complete);
  EXPECT_EQ(back.kind, results::k_replay_kind);
  EXPECT_EQ(back.steps.at(0).latency, s.latency);
  EXPECT_FALSE(back.steps.at(1).latency.has_value());
  EXPECT_EQ(back.capture_id, r.capture_id);
  EXPECT_EQ(back.target_identity.model, "FX-3840");
  ASSERT_TRUE(back.ramp.has_value());
  EXPECT_EQ(back.ramp->points.at(0).latency, *s.latency);
  EXPECT_DOUBLE_EQ(back.ramp->limit_iops, 20000);
  // A record written before the response times were measured reads without them.
  nlohmann::json older = j;
  older.erase("latency");
  older.erase("ramp");
  older["steps"][0].erase("latency");
  const results::ReplayRecord old_back = results::read_replay(older);
  EXPECT_FALSE(old_back.latency.has_value());
  EXPECT_FALSE(old_back.ramp.has_value());
  EXPECT_FALSE(old_back.steps.at(0).latency.has_value());
}

// pts/schema/replay.schema.json: usable, the writer's output valid, broken copies rejected (a
// required key missing, a wrong type, an unknown mode, a read share above 100 %).
TEST(ReplayRecord, TheSchemaAcceptsTheWritersOutputAndRejectsBrokenCopies) {
  const nlohmann::json schema = embedded_schema("replay");
  EXPECT_EQ(check_schema(schema), std::vector<std::string>{});
  results::ReplayRecord r;
  r.mode = "open";
  r.stop_reason = "complete";
  r.step_ns = 1'000'000'000;
  r.settings = {{"replay.lba_remap", "modulo", "[U]"}};
  results::ReplayStep s;
  s.captured.ios = 3;
  s.captured.read_pct = 100;
  s.captured.sizes = {{4096, 2}, {65536, 1}};
  s.replayed = s.captured;
  s.latency = results::ReplayLatency{};
  s.latency->read = {3, 12288, 30.0, 0.12, 41e3, 2.5e3, 38000, 45000, 40000, 44000, 45000, 45000};
  s.latency->combined = s.latency->read;
  r.steps = {s, s};
  r.latency = s.latency;
  r.capture_id = "sha256:" + std::string(64, '0');
  r.ramp = results::ReplayRamp{1000.5, 20000, "closed-loop replay", {}};
  r.ramp->points.push_back({50, 9.99, 10000, 700, 70000000, *s.latency, 3, 1, 10, 20, 30, "complete"});
  nlohmann::json j;
  to_json(j, r);
  EXPECT_EQ(validate_json(j, schema), std::vector<std::string>{});
  nlohmann::json without = j;  // no ramp, no latency: null
  without["ramp"] = nullptr;
  without["latency"] = nullptr;
  without["steps"][0]["latency"] = nullptr;
  EXPECT_EQ(validate_json(without, schema), std::vector<std::string>{});
  const std::vector<std::function<void(nlohmann::json&)>> breaks = {
      [](nlohmann::json& d) { d.erase("steps"); },
      [](nlohmann::json& d) { d["capture"]["capacity_bytes"] = "1GiB"; },
      [](nlohmann::json& d) { d["mode"] = "sideways"; },
      [](nlohmann::json& d) { d["steps"][1]["replayed"]["read_pct"] = 100.5; },
      [](nlohmann::json& d) { d["steps"][0]["captured"]["sizes"][0].erase("ios"); },
      [](nlohmann::json& d) { d["unknown"] = 1; },
      [](nlohmann::json& d) { d["capture"]["id"] = "md5:0"; },
      [](nlohmann::json& d) { d["steps"][0]["latency"]["read"].erase("p99_9_ns"); },
      [](nlohmann::json& d) { d["latency"]["combined"]["max_ns"] = -1; },
      [](nlohmann::json& d) { d["ramp"]["points"][0]["percent"] = 0; },
      [](nlohmann::json& d) { d["ramp"]["points"][0]["stop_reason"] = "tired"; },
      [](nlohmann::json& d) { d["target"]["identity"]["capacity_bytes"] = "1GiB"; },
  };
  for (size_t i = 0; i < breaks.size(); ++i) {
    nlohmann::json broken = j;
    breaks[i](broken);
    EXPECT_FALSE(validate_json(broken, schema).empty()) << "broken copy " << i << " accepted";
  }
}

}  // namespace
}  // namespace ptsuite::replay
