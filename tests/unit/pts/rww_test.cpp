// The real-world-workload extensions (docs/rww.md) over the fake step executor and the built-in
// pgbench reference capture (pts/captures/pgbench.ptcap): rww-sweep is DIRTH's procedure over
// the capture's applied test workload (every segment runs all its streams, with their shares,
// also in the preconditioning and pre-writes) after purge and WIPC; rww-streams runs each
// stream alone to steady state and derives the stream-weighted IOPS; the capture is the
// rww.capture setting and a wrong one is bad input naming it.
#include <gtest/gtest.h>

#include <cmath>

#include <ptsuite/pts/test_procedure.hpp>
#include <ptsuite/results/applied_workload.hpp>
#include <ptsuite/results/rww_replay.hpp>
#include <ptsuite/results/rww_streams.hpp>
#include <ptsuite/util/error.hpp>

#include "support/fake_step_executor.hpp"

namespace ptsuite::pts {
namespace {

using nlohmann::json;

struct RwwHarness {
  explicit RwwHarness(std::vector<std::pair<std::string, std::string>> overrides = {}, uint32_t logical_block = 512)
      : settings(Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, {"quick"}, overrides)),
        ctx{DefinitionSet::embedded(),
            {"2.0.2", "enterprise"},
            settings,
            exec,
            TargetFacts{1ull << 30, logical_block}} {}
  testing::FakeExecutor exec{
      [](const StepId&, const SegmentSpec& s) { return 1000.0 * std::min<uint32_t>(s.threads * s.queue_depth, 64); }};
  Settings settings;
  TestContext ctx;
};

double weight_sum(const std::vector<workload::StreamSpec>& streams) {
  double sum = 0;
  for (const workload::StreamSpec& s : streams) sum += s.weight;
  return sum;
}

TEST(RwwSweep, DirthsProcedureOverTheCapturesAppliedTestWorkload) {
  RwwHarness h;
  const json rec = make_test("rww-sweep")->run(h.ctx);
  const results::AppliedWorkload w = results::read_applied_workload(rec.at("applied_workload"));
  EXPECT_EQ(w.capture, "captures/pgbench.ptcap");
  ASSERT_GE(w.streams.size(), 2u);
  EXPECT_EQ(w.streams[0].name, "RND 8KiB W");  // the capture's biggest stream (pts/captures/README.md)
  EXPECT_GE(w.covered, 0.8);
  ASSERT_EQ(rec.at("purges").size(), 1u);
  ASSERT_EQ(rec.at("preconditioning").size(), 1u);  // WIPC
  // Every segment the test ran (precondition, pre-writes, grid, histograms) is the whole
  // applied workload: one stream per applied stream, weights as the table's.
  ASSERT_FALSE(h.exec.segments.empty());
  size_t atw_segments = 0;
  for (const SegmentSpec& s : h.exec.segments) {
    if (s.label.rfind("WIPC", 0) == 0) continue;
    ++atw_segments;
    ASSERT_EQ(s.streams.size(), w.streams.size()) << s.label;
    EXPECT_NEAR(weight_sum(s.streams), 1.0, 1e-9);
    for (size_t i = 0; i < w.streams.size(); ++i) {
      EXPECT_EQ(s.streams[i].name, w.streams[i].name);
      EXPECT_DOUBLE_EQ(s.streams[i].weight, w.streams[i].weight);
      EXPECT_EQ(s.streams[i].read_pct, w.streams[i].write ? 0.0 : 100.0);
      EXPECT_EQ(s.streams[i].block_sizes.front().bytes, w.streams[i].size_bytes);
    }
  }
  EXPECT_GT(atw_segments, 3u);
  ASSERT_EQ(rec.at("phases").size(), 2u);
  EXPECT_EQ(rec.at("phases")[0].at("round_template")[0].at("label"), "ATW TC32 QD32");
  const json& d = rec.at("rww_sweep");
  EXPECT_FALSE(rec.contains("dirth"));
  // The demand mix: the weighted read share of the streams.
  double read_pct = 0;
  for (const results::AppliedStream& s : w.streams) read_pct += s.write ? 0 : s.weight * 100;
  EXPECT_EQ(d.at("rw_mix"), format_rw_mix(RwMix{std::round(read_pct * 10) / 10}));  // to 0.1 %
  EXPECT_EQ(rec.at("captures").size(), 3u);  // Max / Mid / Min histograms, as DIRTH
  EXPECT_EQ(rec.at("section").at("value"), "-");
}

TEST(RwwStreams, EachStreamAloneToSteadyStateAndTheWeightedIops) {
  RwwHarness h(
      std::vector<std::pair<std::string, std::string>>{{"rww-streams.threads", "2"}, {"rww-streams.queue_depth", "4"}});
  // Each stream's IOPS by its size: 8 KiB 4000, the others 1000.
  h.exec = testing::FakeExecutor([](const StepId&, const SegmentSpec& s) {
    return s.streams.size() == 1 && s.streams[0].block_sizes[0].bytes == 8192 ? 4000.0 : 1000.0;
  });
  const json rec = make_test("rww-streams")->run(h.ctx);
  const results::AppliedWorkload w = results::read_applied_workload(rec.at("applied_workload"));
  const results::RwwStreamsBlock b = results::read_rww_streams(rec.at("rww_streams"));
  ASSERT_EQ(b.streams.size(), w.streams.size());
  ASSERT_EQ(rec.at("phases").size(), w.streams.size());
  EXPECT_EQ(b.threads, 2u);
  EXPECT_EQ(b.queue_depth, 4u);
  double seconds_per_io = 0;
  for (size_t i = 0; i < b.streams.size(); ++i) {
    EXPECT_EQ(b.streams[i].name, w.streams[i].name);
    EXPECT_NEAR(b.streams[i].weight, w.streams[i].weight, 1e-12);
    EXPECT_TRUE(b.streams[i].steady_state);  // constant IOPS: steady at the first check
    const double expected = w.streams[i].size_bytes == 8192 ? 4000.0 : 1000.0;
    EXPECT_NEAR(b.streams[i].iops, expected, expected * 1e-9);
    seconds_per_io += w.streams[i].weight / expected;
  }
  EXPECT_NEAR(b.weighted_iops, 1.0 / seconds_per_io, 1e-6);
  for (const SegmentSpec& s : h.exec.segments) {
    if (s.label.rfind("WIPC", 0) == 0) continue;
    ASSERT_EQ(s.streams.size(), 1u) << s.label;
    EXPECT_EQ(s.streams[0].weight, 1.0);
    EXPECT_EQ(s.threads, 2u);
    EXPECT_EQ(s.queue_depth, 4u);
  }
}

// rww-replay with the quick 0.25 s step: the 2.1 s pgbench capture in 9 steps (8 whole, one
// partial), each a segment of its own length, its stream mix weighted by its own IOs of the
// top streams, at TC 1 x QD = ceil(its mean queue depth); Rounds of all steps in order.
TEST(RwwReplay, EveryCaptureStepInOrderAtItsMixAndDemandIntensity) {
  RwwHarness h;
  const json rec = make_test("rww-replay")->run(h.ctx);
  ASSERT_EQ(rec.at("phases").size(), 2u);
  const results::RwwReplayBlock b = results::read_rww_replay(rec.at("rww_replay"));
  EXPECT_EQ(b.step_ns, 250'000'000u);
  ASSERT_GE(b.steps.size() + b.idle_steps, 8u);
  ASSERT_FALSE(b.steps.empty());
  const json& tmpl = rec.at("phases")[1].at("round_template");
  ASSERT_EQ(tmpl.size(), b.steps.size());
  uint64_t captured = 0;
  for (size_t i = 0; i < b.steps.size(); ++i) {
    const results::RwwReplayStep& s = b.steps[i];
    EXPECT_EQ(s.segment_index, i);
    if (i > 0) {
      EXPECT_GT(s.step, b.steps[i - 1].step);  // in capture order
    }
    EXPECT_EQ(tmpl[i].at("duration_ns"), s.length_ns);
    EXPECT_LE(s.length_ns, b.step_ns);
    EXPECT_EQ(tmpl[i].at("threads"), 1);
    EXPECT_EQ(s.queue_depth, std::max<uint32_t>(1, static_cast<uint32_t>(std::ceil(s.captured_qd_mean))));
    EXPECT_EQ(tmpl[i].at("queue_depth"), s.queue_depth);
    EXPECT_EQ(tmpl[i].at("streams").size(), s.streams);
    EXPECT_DOUBLE_EQ(s.iops, 1000.0 * std::min<uint32_t>(s.queue_depth, 64));  // the fake's IOPS at TC 1 x QD
    captured += s.captured_ios;
  }
  EXPECT_GT(captured, 5000u);  // the capture's 6,391 IOs less the flushes and idle steps
}

// The built-in sysbench capture: 16 KiB InnoDB pages, its sequential streams run sequential.
TEST(RwwCapture, TheSysbenchReferenceCaptureIsEmbeddedToo) {
  RwwHarness h(std::vector<std::pair<std::string, std::string>>{{"rww.capture", "captures/sysbench.ptcap"}});
  const json rec = make_test("rww-sweep")->run(h.ctx);
  const results::AppliedWorkload w = results::read_applied_workload(rec.at("applied_workload"));
  ASSERT_GE(w.streams.size(), 4u);
  EXPECT_EQ(w.streams[0].name, "RND 16KiB R");  // pts/captures/README.md
  bool sequential = false;
  for (const workload::StreamSpec& s : h.exec.segments.back().streams) {
    EXPECT_EQ(s.block_sizes.front().bytes % 16384, 0u) << s.name;
    if (s.name.rfind("SEQ", 0) == 0) {
      sequential = true;
      EXPECT_EQ(s.pattern, workload::AccessPattern::sequential) << s.name;
    }
  }
  EXPECT_TRUE(sequential);
}

TEST(RwwCapture, AStreamTheDeviceCannotIssueIsOmittedAndAMissingCaptureIsBadInput) {
  RwwHarness big({}, 16384);  // a 16 KiB logical block: the 8 KiB streams cannot be issued
  const json rec = make_test("rww-streams")->run(big.ctx);
  EXPECT_FALSE(rec.at("omitted").empty());
  for (const SegmentSpec& s : big.exec.segments) {
    for (const workload::StreamSpec& st : s.streams) EXPECT_EQ(st.block_sizes[0].bytes % 16384, 0u) << st.name;
  }
  RwwHarness missing(std::vector<std::pair<std::string, std::string>>{{"rww.capture", "/nonexistent/capture.ptcap"}});
  try {
    (void)make_test("rww-sweep")->run(missing.ctx);
    ADD_FAILURE() << "a missing capture ran";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("rww.capture"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ptsuite::pts
