// Weighted multi-stream workloads (WorkloadSpec::streams): resolve() checks and binds every
// stream; IoGenerator draws each IO's stream by the weights (checked against the shares with a
// chi-square bound at a false-alarm probability of ~1e-6, statistics.hpp), every stream's sizes,
// directions and range are exactly its own, and a sequential stream stays sequential (its own
// cursor per thread) however the other streams interleave.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/io_generator.hpp>

#include "support/target_geometry.hpp"
#include "unit/workload/statistics.hpp"

namespace ptsuite::workload {
namespace {

using units::k_kib;
using units::k_mib;

using test_support::geometry;

StreamSpec stream(const char* name, double weight, AccessPattern pattern, double read_pct, uint64_t bytes) {
  StreamSpec s;
  s.name = name;
  s.weight = weight;
  s.pattern = pattern;
  s.read_pct = read_pct;
  s.block_sizes = {{bytes, 1.0}};
  return s;
}

// A pgbench-like applied test workload: 8 KiB random reads and writes, a sequential WAL-like
// write stream and a second sequential stream of 128 KiB reads confined to the last quarter.
WorkloadSpec four_streams(uint32_t threads = 1) {
  WorkloadSpec s;
  s.engine = "null";
  s.threads = threads;
  s.queue_depth = 4;
  s.limits.duration_ns = 1'000'000'000;
  s.seed = 777;
  s.streams = {stream("RND 8KiB R", 50, AccessPattern::random, 100, 8 * k_kib),
               stream("RND 8KiB W", 25, AccessPattern::random, 0, 8 * k_kib),
               stream("SEQ 16KiB W", 15, AccessPattern::sequential, 0, 16 * k_kib),
               stream("SEQ 128KiB R", 10, AccessPattern::sequential, 100, 128 * k_kib)};
  s.streams[3].range_start_pct = 75;
  s.streams[3].range_pct = 25;
  return s;
}

TEST(MultiStream, ResolveBindsEveryStreamToItsPartOfTheRange) {
  const ResolvedWorkload w = resolve(four_streams(2), geometry(64 * k_mib));
  ASSERT_EQ(w.streams.size(), 4U);
  EXPECT_DOUBLE_EQ(w.stream_probabilities[0], 0.50);
  EXPECT_DOUBLE_EQ(w.stream_probabilities[3], 0.10);
  EXPECT_EQ(w.max_block_bytes, 128 * k_kib);
  EXPECT_TRUE(w.writes);
  EXPECT_EQ(w.streams[0].range_offset_bytes, 0U);
  EXPECT_EQ(w.streams[0].range_length_bytes, 64 * k_mib);
  EXPECT_EQ(w.streams[3].range_offset_bytes, 48 * k_mib);
  EXPECT_EQ(w.streams[3].range_length_bytes, 16 * k_mib);
  EXPECT_EQ(w.streams[3].sequential.slice_bytes, 8 * k_mib);  // 16 MiB over 2 threads
  EXPECT_NE(w.streams[0].spec.seed, w.streams[1].spec.seed);
  EXPECT_TRUE(w.block_sizes.empty());
}

TEST(MultiStream, ResolveRejectsBadStreamsNamingThem) {
  WorkloadSpec s = four_streams();
  s.streams[1].weight = 0;
  EXPECT_THROW(resolve(s, geometry(64 * k_mib)), UsageError);
  s = four_streams();
  s.streams[3].range_start_pct = 90;  // 90 % + 25 % leaves the range
  EXPECT_THROW(resolve(s, geometry(64 * k_mib)), UsageError);
  s = four_streams();
  s.streams[2].block_sizes = {{1000, 1.0}};  // not a multiple of the logical block
  try {
    resolve(s, geometry(64 * k_mib));
    ADD_FAILURE() << "a bad stream block size resolved";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("SEQ 16KiB W"), std::string::npos) << e.what();
  }
  s = four_streams();
  s.zones = {{100, 100}};
  EXPECT_THROW(resolve(s, geometry(64 * k_mib)), UsageError);
}

TEST(MultiStream, TheIssuedMixMatchesTheSharesAndEachStreamIsExactlyItself) {
  const ResolvedWorkload w = resolve(four_streams(), geometry(64 * k_mib));
  IoGenerator gen(w, 0);
  constexpr size_t k_ios = 200'000;
  std::vector<uint64_t> per_stream(4, 0);
  for (size_t i = 0; i < k_ios; ++i) {
    const IoDecision io = gen.next();
    ASSERT_LT(io.stream, 4U);
    ++per_stream[io.stream];
    const ResolvedWorkload& s = w.streams[io.stream];
    EXPECT_EQ(io.length_bytes, s.block_sizes.front().bytes);
    EXPECT_EQ(io.op, s.spec.read_pct == 100 ? engine::IoOp::read : engine::IoOp::write);
    EXPECT_GE(io.offset_bytes, s.range_offset_bytes);
    EXPECT_LE(io.offset_bytes + io.length_bytes, s.range_offset_bytes + s.range_length_bytes);
    EXPECT_EQ(io.offset_bytes % io.length_bytes, 0U);
  }
  // Pearson's chi-square over the 4 streams (3 degrees of freedom), bound at p ~ 1e-6; and each
  // share within 5 sigma of its binomial count (for 200,000 IOs, 5 sigma of the 10 % stream is
  // 0.34 percentage points).
  EXPECT_LT(test::chi_square(per_stream, w.stream_probabilities), test::chi_square_critical_1e6(3));
  for (size_t s = 0; s < 4; ++s) {
    EXPECT_TRUE(test::within_5_sigma(per_stream[s], k_ios, w.stream_probabilities[s])) << s << ": " << per_stream[s];
  }
}

TEST(MultiStream, SequentialStreamsStaySequentialPerThreadWhateverInterleaves) {
  const ResolvedWorkload w = resolve(four_streams(2), geometry(64 * k_mib));
  for (uint32_t t = 0; t < 2; ++t) {
    IoGenerator gen(w, t);
    std::map<uint32_t, uint64_t> next_offset;  // stream -> where its next IO must start
    uint64_t sequential_ios = 0;
    for (size_t i = 0; i < 50'000; ++i) {
      const IoDecision io = gen.next();
      const ResolvedWorkload& s = w.streams[io.stream];
      if (s.spec.pattern != AccessPattern::sequential) continue;
      ++sequential_ios;
      const uint64_t slice_start = s.sequential.start_bytes + t * s.sequential.slice_bytes;
      const auto it = next_offset.find(io.stream);
      const uint64_t expected = it == next_offset.end() ? slice_start : it->second;
      // A stream wraps to its slice start only when the next IO would cross the slice's end.
      if (expected + io.length_bytes > slice_start + s.sequential.slice_bytes) {
        EXPECT_EQ(io.offset_bytes, slice_start);
      } else {
        EXPECT_EQ(io.offset_bytes, expected) << "stream " << io.stream << " IO " << i;
      }
      next_offset[io.stream] = io.offset_bytes + io.length_bytes;
    }
    EXPECT_GT(sequential_ios, 10'000U);
  }
}

TEST(MultiStream, SameSeedSameSequenceAndAnotherSeedAnother) {
  const ResolvedWorkload a = resolve(four_streams(), geometry(64 * k_mib));
  WorkloadSpec other = four_streams();
  other.seed = 778;
  const ResolvedWorkload b = resolve(other, geometry(64 * k_mib));
  IoGenerator g1(a, 0);
  IoGenerator g2(a, 0);
  IoGenerator g3(b, 0);
  size_t differ = 0;
  for (size_t i = 0; i < 1000; ++i) {
    const IoDecision x = g1.next();
    const IoDecision y = g2.next();
    const IoDecision z = g3.next();
    EXPECT_TRUE(x.stream == y.stream && x.offset_bytes == y.offset_bytes && x.op == y.op);
    differ += x.stream != z.stream || x.offset_bytes != z.offset_bytes ? 1 : 0;
  }
  EXPECT_GT(differ, 500U);
}

}  // namespace
}  // namespace ptsuite::workload
