// The applied test workload: the top read/write streams until 80 % of the IOs are covered,
// weights renormalized; flush streams passed over; the synthetic capture's streams.
#include <gtest/gtest.h>

#include <cmath>

#include <ptsuite/capture/characterize.hpp>
#include <ptsuite/replay/synthesis.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/workload/io_generator.hpp>

#include "support/synthetic_capture.hpp"
#include "support/temp_dir.hpp"

namespace ptsuite::replay {
namespace {

results::IoStreamStats stream(const std::string& name, const std::string& op, double share) {
  results::IoStreamStats s;
  s.name = name;
  s.op = op;
  s.size_bytes = 4096;
  s.io_share = share;
  return s;
}

TEST(Synthesis, TakesTheTopStreamsUntilTheGoalAndRenormalizes) {
  results::IoCharacterization c;
  c.streams = {stream("RND 4KiB R", "read", 0.5), stream("FLUSH", "flush", 0.2), stream("SEQ 4KiB W", "write", 0.3),
               stream("RND 8KiB W", "write", 0.1)};
  const AppliedWorkload w = synthesize(c);
  ASSERT_EQ(w.streams.size(), 2u);  // 0.5 + 0.3 = 0.8 reaches the goal
  EXPECT_EQ(w.passed_over, 1u);
  EXPECT_DOUBLE_EQ(w.covered, 0.8);
  EXPECT_DOUBLE_EQ(w.streams[0].weight, 0.625);
  EXPECT_DOUBLE_EQ(w.streams[1].weight, 0.375);
  EXPECT_TRUE(w.streams[1].write);
  EXPECT_EQ(synthesize(c, 0.5).streams.size(), 1u);
  EXPECT_THROW(synthesize(c, 0), UsageError);
  EXPECT_EQ(to_json(w)["streams"].size(), 2u);
  EXPECT_NE(to_text(w).find("SEQ 4KiB W"), std::string::npos);
}

TEST(Synthesis, TheSyntheticCapturesStreams) {
  const test_support::ShmTempDir dir("ptsuite-synthesis");
  const std::string path = dir.file("s.ptcap");
  test_support::write_synthetic_capture(path);
  capture::CharacterizeOptions o;
  o.step_ns = test_support::k_synthetic_step_ns;
  const AppliedWorkload w = synthesize(capture::characterize_file(path, o));
  double weights = 0;
  for (const AppliedStream& s : w.streams) weights += s.weight;
  EXPECT_NEAR(weights, 1.0, 1e-12);
  EXPECT_GE(w.covered, 0.8);
  // The biggest stream: 4 KiB random reads (step 0's third, step 1's and all of step 2's).
  ASSERT_FALSE(w.streams.empty());
  EXPECT_EQ(w.streams[0].name, "RND 4KiB R");
}

// The applied test workload runs as a weighted multi-stream workload: one stream per applied
// stream with its weight, pattern, size and direction; a size the target's logical block does
// not divide is left out (named) and the rest renormalised; the generator's issued mix then
// follows the weights within 5 sigma of a binomial count (statistics.hpp's bound, here for
// 100,000 IOs at most 0.8 percentage points).
TEST(Synthesis, TheAppliedWorkloadRunsAsWeightedStreams) {
  results::IoCharacterization c;
  c.streams = {stream("RND 4KiB R", "read", 0.5), stream("SEQ 4KiB W", "write", 0.3),
               stream("RND 512B W", "write", 0.1)};
  c.streams[1].sequential = true;
  c.streams[2].size_bytes = 512;
  const AppliedWorkload w = synthesize(c, 0.9);
  std::vector<std::string> left_out;
  const std::vector<workload::StreamSpec> streams = to_streams(w, 4096, &left_out);
  ASSERT_EQ(streams.size(), 2u);
  ASSERT_EQ(left_out, std::vector<std::string>{"RND 512B W"});
  EXPECT_EQ(streams[1].pattern, workload::AccessPattern::sequential);
  EXPECT_EQ(streams[1].read_pct, 0.0);
  EXPECT_EQ(streams[0].block_sizes.front().bytes, 4096u);
  workload::WorkloadSpec spec;
  spec.engine = "null";
  spec.limits.ios = 1;
  spec.streams = streams;
  engine::TargetGeometry g;
  g.capacity_bytes = 64ULL << 20;
  g.logical_block_bytes = g.physical_block_bytes = g.memory_alignment_bytes = 4096;
  const workload::ResolvedWorkload r = workload::resolve(spec, g);
  EXPECT_NEAR(r.stream_probabilities[0], 0.5 / 0.8, 1e-12);
  workload::IoGenerator gen(r, 0);
  uint64_t reads = 0;
  constexpr uint64_t k_ios = 100'000;
  for (uint64_t i = 0; i < k_ios; ++i) reads += gen.next().op == engine::IoOp::read ? 1 : 0;
  const double p = 0.625;
  EXPECT_LE(std::fabs(static_cast<double>(reads) - k_ios * p), 5 * std::sqrt(k_ios * p * (1 - p)));
}

}  // namespace
}  // namespace ptsuite::replay
