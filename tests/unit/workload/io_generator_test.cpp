// IoGenerator: repeatability under a seed, alignment and bounds of every IO, and the
// distributions (block sizes, R/W mix, zones, uniform offsets) within statistical tolerance;
// sequential slices, wrap and resume.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <vector>

#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/io_generator.hpp>

#include "support/target_geometry.hpp"
#include "unit/workload/statistics.hpp"

namespace ptsuite::workload {
namespace {

using units::k_kib;
using units::k_mib;

using test_support::geometry;

WorkloadSpec cbw_spec() {
  WorkloadSpec s;
  s.engine = "null";
  s.limits.duration_ns = 1'000'000'000;
  s.read_pct = 40;
  s.block_sizes = {{512, 4},  {1024, 1},  {1536, 1},       {2048, 1},       {2560, 1},       {3072, 1},
                   {3584, 1}, {4096, 67}, {8 * k_kib, 10}, {16 * k_kib, 7}, {32 * k_kib, 3}, {64 * k_kib, 3}};
  s.zones = {{50, 5}, {30, 15}, {20, 80}};
  s.seed = 12345;
  return s;
}

std::vector<IoDecision> generate(const ResolvedWorkload& w, uint32_t thread, size_t n, uint64_t cursor = 0) {
  IoGenerator gen(w, thread, cursor);
  std::vector<IoDecision> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    out.push_back(gen.next());
  }
  return out;
}

bool same(const IoDecision& a, const IoDecision& b) {
  return a.op == b.op && a.length_bytes == b.length_bytes && a.offset_bytes == b.offset_bytes;
}

TEST(IoGenerator, SameSeedAndThreadGiveTheSameOffsetsSizesAndDirections) {
  const ResolvedWorkload w = resolve(cbw_spec(), geometry(256 * k_mib));
  const auto a = generate(w, 0, 20'000);
  const auto b = generate(w, 0, 20'000);
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_TRUE(same(a[i], b[i])) << i;
  }
  // The data pattern draws from its own stream: it cannot change the IO sequence.
  WorkloadSpec zeros = cbw_spec();
  zeros.data = DataPattern::zeros;
  const auto c = generate(resolve(zeros, geometry(256 * k_mib)), 0, 20'000);
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_TRUE(same(a[i], c[i])) << i;
  }
}

TEST(IoGenerator, DifferentSeedOrThreadGivesADifferentSequence) {
  WorkloadSpec s = cbw_spec();
  const ResolvedWorkload w1 = resolve(s, geometry(256 * k_mib));
  s.seed = 12346;
  const ResolvedWorkload w2 = resolve(s, geometry(256 * k_mib));
  const auto a = generate(w1, 0, 1000);
  const auto b = generate(w2, 0, 1000);
  const auto c = generate(w1, 1, 1000);
  size_t same_seed_diff = 0;
  size_t same_thread_diff = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    same_seed_diff += a[i].offset_bytes == b[i].offset_bytes ? 1 : 0;
    same_thread_diff += a[i].offset_bytes == c[i].offset_bytes ? 1 : 0;
  }
  // Random offsets over 256 MiB coincide by chance only rarely.
  EXPECT_LT(same_seed_diff, 20u);
  EXPECT_LT(same_thread_diff, 20u);
}

void expect_aligned_and_inside(const ResolvedWorkload& w, size_t n) {
  std::map<uint64_t, uint64_t> align_of;
  for (const ResolvedBlockSize& b : w.block_sizes) {
    align_of[b.bytes] = b.align_bytes;
  }
  const uint64_t range_end = w.range_offset_bytes + w.range_length_bytes;
  for (uint32_t thread = 0; thread < 2; ++thread) {
    for (const IoDecision& io : generate(w, thread, n)) {
      ASSERT_TRUE(align_of.count(io.length_bytes)) << io.length_bytes;
      ASSERT_EQ(io.offset_bytes % align_of[io.length_bytes], 0u) << io.offset_bytes << " " << io.length_bytes;
      ASSERT_EQ(io.offset_bytes % w.geometry.logical_block_bytes, 0u);
      ASSERT_GE(io.offset_bytes, w.range_offset_bytes);
      ASSERT_LE(io.offset_bytes + io.length_bytes, range_end);
    }
  }
}

TEST(IoGenerator, EveryRandomIoIsAlignedAndInsideTheRange) {
  WorkloadSpec s = cbw_spec();
  s.active_range.offset_bytes = 3 * 512;  // an awkward start: power-of-two sizes must round up
  s.active_range.length_bytes = 8 * k_mib + 512;
  expect_aligned_and_inside(resolve(s, geometry(64 * k_mib)), 200'000);

  // 4Kn with the sizes it can issue.
  s = cbw_spec();
  s.block_sizes = {{4096, 67}, {12 * k_kib, 10}, {16 * k_kib, 7}, {32 * k_kib, 3}, {64 * k_kib, 3}};
  s.active_range.pct = 75;
  expect_aligned_and_inside(resolve(s, geometry(64 * k_mib + 4096, 4096)), 200'000);
}

TEST(IoGenerator, CbwBlockSizesHitTheirWeights) {
  const ResolvedWorkload w = resolve(cbw_spec(), geometry(256 * k_mib));
  std::map<uint32_t, uint64_t> counts;
  constexpr size_t k_n = 1'000'000;
  for (const IoDecision& io : generate(w, 3, k_n)) {
    ++counts[io.length_bytes];
  }
  std::vector<uint64_t> observed;
  std::vector<double> p;
  for (const ResolvedBlockSize& b : w.block_sizes) {
    observed.push_back(counts[static_cast<uint32_t>(b.bytes)]);
    p.push_back(b.probability);
    EXPECT_TRUE(test::within_5_sigma(observed.back(), k_n, b.probability)) << b.bytes << ": " << observed.back();
  }
  EXPECT_LT(test::chi_square(observed, p), test::chi_square_critical_1e6(11));
}

TEST(IoGenerator, ReadShareFollowsReadPct) {
  for (double pct : {0.0, 0.5, 40.0, 70.0, 100.0}) {
    WorkloadSpec s = cbw_spec();
    s.read_pct = pct;
    const ResolvedWorkload w = resolve(s, geometry(256 * k_mib));
    constexpr size_t k_n = 400'000;
    uint64_t reads = 0;
    for (const IoDecision& io : generate(w, 0, k_n)) {
      reads += io.op == engine::IoOp::read ? 1 : 0;
    }
    if (pct == 0 || pct == 100) {
      EXPECT_EQ(reads, pct == 0 ? 0u : k_n);
    } else {
      EXPECT_TRUE(test::within_5_sigma(reads, k_n, pct / 100)) << pct << "%: " << reads;
    }
  }
}

TEST(IoGenerator, ZonesHitFiftyThirtyTwentyInTheirRanges) {
  const ResolvedWorkload w = resolve(cbw_spec(), geometry(1024 * k_mib));
  constexpr size_t k_n = 1'000'000;
  std::vector<uint64_t> per_zone(3, 0);
  // Inside zone A (the hot 5 %), its two halves must be hit equally often (uniform inside).
  std::vector<uint64_t> zone_a_halves(2, 0);
  for (const IoDecision& io : generate(w, 0, k_n)) {
    size_t z = 0;
    while (z + 1 < w.zones.size() && io.offset_bytes >= w.zones[z + 1].offset_bytes) {
      ++z;
    }
    ++per_zone[z];
    if (z == 0) {
      ++zone_a_halves[io.offset_bytes < w.zones[0].length_bytes / 2 ? 0 : 1];
    }
  }
  EXPECT_TRUE(test::within_5_sigma(per_zone[0], k_n, 0.5)) << per_zone[0];
  EXPECT_TRUE(test::within_5_sigma(per_zone[1], k_n, 0.3)) << per_zone[1];
  EXPECT_TRUE(test::within_5_sigma(per_zone[2], k_n, 0.2)) << per_zone[2];
  EXPECT_TRUE(test::within_5_sigma(zone_a_halves[0], per_zone[0], 0.5)) << zone_a_halves[0];
}

TEST(IoGenerator, ActiveRangeSegmentsHoldEveryIoAndShareTheIosEqually) {
  WorkloadSpec s;
  s.engine = "null";
  s.limits.ios = 1;
  s.seed = 7;
  s.active_range.pct = 75;
  s.active_range.amount_bytes = 4 * k_mib;
  s.active_range.segments = 2048;  // PTS-C 1.0's count: 2 KiB each at 512-byte blocks
  s.block_sizes = {{512, 1}, {1024, 1}};
  const ResolvedWorkload w = resolve(s, geometry(1024 * k_mib));
  ASSERT_EQ(w.zones.size(), 2048u);
  constexpr size_t k_n = 2'048'000;
  std::vector<uint64_t> per_segment(w.zones.size(), 0);
  for (const IoDecision& io : generate(w, 0, k_n)) {
    // The segment whose start is the last at or below the offset (binary search).
    const auto it = std::upper_bound(w.zones.begin(), w.zones.end(), io.offset_bytes,
                                     [](uint64_t off, const ResolvedZone& z) { return off < z.offset_bytes; });
    ASSERT_NE(it, w.zones.begin());
    const ResolvedZone& z = *std::prev(it);
    ASSERT_LE(io.offset_bytes + io.length_bytes, z.offset_bytes + z.length_bytes)
        << "an IO at " << io.offset_bytes << " leaves its segment into the unaddressed gap";
    ++per_segment[static_cast<size_t>(std::prev(it) - w.zones.begin())];
  }
  const std::vector<double> p(w.zones.size(), 1.0 / static_cast<double>(w.zones.size()));
  EXPECT_LT(test::chi_square(per_segment, p), test::chi_square_critical_1e6(static_cast<unsigned>(w.zones.size() - 1)));
}

TEST(IoGenerator, UniformOffsetsCoverTheRangeEvenly) {
  WorkloadSpec s;
  s.engine = "null";
  s.limits.ios = 1;
  s.seed = 99;
  const ResolvedWorkload w = resolve(s, geometry(64 * k_mib));
  constexpr size_t k_buckets = 64;
  constexpr size_t k_n = 640'000;
  std::vector<uint64_t> counts(k_buckets, 0);
  for (const IoDecision& io : generate(w, 0, k_n)) {
    ++counts[io.offset_bytes * k_buckets / w.range_length_bytes];
  }
  const std::vector<double> p(k_buckets, 1.0 / k_buckets);
  EXPECT_LT(test::chi_square(counts, p), test::chi_square_critical_1e6(k_buckets - 1));
}

ResolvedWorkload sequential(uint32_t threads, std::vector<BlockSizeWeight> sizes, uint64_t range_bytes) {
  WorkloadSpec s;
  s.engine = "null";
  s.pattern = AccessPattern::sequential;
  s.read_pct = 0;
  s.threads = threads;
  s.block_sizes = std::move(sizes);
  s.active_range.length_bytes = range_bytes;
  s.limits.ios = 1;
  return resolve(s, geometry(64 * k_mib));
}

TEST(IoGenerator, SequentialThreadsWalkTheirOwnSliceAndWrap) {
  const ResolvedWorkload w = sequential(4, {{128 * k_kib, 1}}, 4 * k_mib);
  ASSERT_EQ(w.sequential.slice_bytes, 1 * k_mib);
  for (uint32_t t = 0; t < 4; ++t) {
    const auto ios = generate(w, t, 20);  // 8 IOs per slice: wraps twice
    for (size_t i = 0; i < ios.size(); ++i) {
      EXPECT_EQ(ios[i].offset_bytes, t * k_mib + (i % 8) * 128 * k_kib) << t << " " << i;
      EXPECT_EQ(ios[i].op, engine::IoOp::write);
    }
  }
  IoGenerator gen(w, 0);
  for (int i = 0; i < 20; ++i) {
    gen.next();
  }
  EXPECT_EQ(gen.sequential_wraps(), 2u);
  EXPECT_EQ(gen.sequential_cursor_bytes(), 4 * 128 * k_kib);
}

TEST(IoGenerator, SequentialResumesFromASavedCursor) {
  const ResolvedWorkload w = sequential(2, {{64 * k_kib, 1}}, 8 * k_mib);
  const auto whole = generate(w, 1, 100);
  IoGenerator first(w, 1);
  for (int i = 0; i < 37; ++i) {
    first.next();
  }
  IoGenerator resumed(w, 1, first.sequential_cursor_bytes());
  for (size_t i = 37; i < whole.size(); ++i) {
    const IoDecision io = resumed.next();
    ASSERT_EQ(io.offset_bytes, whole[i].offset_bytes) << i;
  }
  // A cursor at or past the slice end restarts at the slice start.
  IoGenerator restarted(w, 1, w.sequential.slice_bytes);
  EXPECT_EQ(restarted.next().offset_bytes, w.sequential.start_bytes + w.sequential.slice_bytes);
}

TEST(IoGenerator, SequentialMixedSizesAreContiguousAndWrapBeforeTheEnd) {
  const ResolvedWorkload w = sequential(1, {{4096, 1}, {12 * k_kib, 1}, {64 * k_kib, 1}}, 1 * k_mib);
  IoGenerator gen(w, 0);
  uint64_t expected = 0;
  for (int i = 0; i < 5000; ++i) {
    const IoDecision io = gen.next();
    if (expected + io.length_bytes > w.sequential.slice_bytes) {
      expected = 0;  // wrapped: the IO would have crossed the slice end
    }
    ASSERT_EQ(io.offset_bytes, expected) << i;
    ASSERT_LE(io.offset_bytes + io.length_bytes, w.sequential.slice_bytes);
    expected += io.length_bytes;
  }
  EXPECT_GT(gen.sequential_wraps(), 0u);
}

TEST(ProbabilityThreshold, MapsTheUnitIntervalOntoUint64) {
  EXPECT_EQ(probability_threshold(0), 0u);
  EXPECT_EQ(probability_threshold(-1), 0u);
  EXPECT_EQ(probability_threshold(0.5), 1ULL << 63);
  EXPECT_EQ(probability_threshold(0.25), 1ULL << 62);
  EXPECT_EQ(probability_threshold(1.0), ~0ULL);
  EXPECT_EQ(probability_threshold(2.0), ~0ULL);
}

}  // namespace
}  // namespace ptsuite::workload
