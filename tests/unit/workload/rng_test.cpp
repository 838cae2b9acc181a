// The seeded generators: published reference vectors, seeding, stream independence and an
// unbiased bounded draw.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include <ptsuite/workload/rng.hpp>

#include "unit/workload/statistics.hpp"

namespace ptsuite::workload {
namespace {

TEST(SplitMix64, MatchesTheReferenceOutputFromStateZero) {
  SplitMix64 sm(0);
  EXPECT_EQ(sm.next(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(sm.next(), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(sm.next(), 0x06c45d188009454fULL);
  EXPECT_EQ(sm.next(), 0xf88bb8a8724c81ecULL);
  EXPECT_EQ(mix64(0), 0xe220a8397b1dcdafULL);
}

TEST(Xoshiro256StarStar, MatchesThePublishedReferenceVector) {
  // Blackman & Vigna's reference implementation from state {1, 2, 3, 4} (as in rand_xoshiro).
  Xoshiro256StarStar rng(1, 2, 3, 4);
  const std::vector<uint64_t> expected = {11520ULL,
                                          0ULL,
                                          1509978240ULL,
                                          1215971899390074240ULL,
                                          1216172134540287360ULL,
                                          607988272756665600ULL,
                                          16172922978634559625ULL,
                                          8476171486693032832ULL,
                                          10595114339597558777ULL,
                                          2904607092377533576ULL};
  for (uint64_t e : expected) {
    EXPECT_EQ(rng.next(), e);
  }
}

TEST(Xoshiro256StarStar, SameSeedSameStreamDifferentSeedDifferentStream) {
  Xoshiro256StarStar a(42), b(42), c(43);
  int differing = 0;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t va = a.next();
    EXPECT_EQ(va, b.next());
    differing += va != c.next() ? 1 : 0;
  }
  EXPECT_EQ(differing, 1000);
}

TEST(Xoshiro256StarStar, OutputUsesAllSixtyFourBits) {
  // The PTS asks for >= 48 bits: every bit, including the top 16, must take both values.
  Xoshiro256StarStar rng(7);
  uint64_t ones = 0;
  uint64_t zeros = 0;
  for (int i = 0; i < 256; ++i) {
    const uint64_t v = rng.next();
    ones |= v;
    zeros |= ~v;
  }
  EXPECT_EQ(ones, ~0ULL);
  EXPECT_EQ(zeros, ~0ULL);
}

TEST(DeriveSeed, ThreadsAndStreamsGetDistinctSeeds) {
  std::set<uint64_t> seeds;
  for (uint64_t seed : {0ULL, 1ULL, 2ULL, 0xffffffffffffffffULL}) {
    for (uint32_t thread = 0; thread < 64; ++thread) {
      seeds.insert(derive_seed(seed, thread, RngStream::io_decisions));
      seeds.insert(derive_seed(seed, thread, RngStream::data));
    }
  }
  EXPECT_EQ(seeds.size(), 4u * 64u * 2u);
  EXPECT_EQ(derive_seed(5, 3, RngStream::data), derive_seed(5, 3, RngStream::data));
}

TEST(Bounded, StaysInRangeAndHandlesTheEdges) {
  Xoshiro256StarStar rng(3);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_EQ(rng.bounded(1), 0u);
    EXPECT_LT(rng.bounded(7), 7u);
    EXPECT_LT(rng.bounded(~0ULL), ~0ULL);
  }
  // n just above 2^63: the rejection path is taken about half of the time.
  const uint64_t n = (1ULL << 63) + 12345;
  for (int i = 0; i < 1000; ++i) {
    EXPECT_LT(rng.bounded(n), n);
  }
}

TEST(Bounded, IsUniformByChiSquare) {
  // 10 buckets of a non-power-of-two range: a modulo-biased or off-by-one draw fails.
  constexpr uint64_t k_n = 10;
  constexpr uint64_t k_draws = 1'000'000;
  Xoshiro256StarStar rng(2024);
  std::vector<uint64_t> counts(k_n, 0);
  for (uint64_t i = 0; i < k_draws; ++i) {
    ++counts[rng.bounded(k_n)];
  }
  const std::vector<double> p(k_n, 1.0 / k_n);
  EXPECT_LT(test::chi_square(counts, p), test::chi_square_critical_1e6(k_n - 1));
}

TEST(Bounded, LargeRangeHasNoModuloBias) {
  // n = 3 * 2^62: a plain `next() % n` would put 1/2 of the draws in the lower third of
  // [0, n) instead of 1/3.
  const uint64_t n = 3ULL << 62;
  constexpr uint64_t k_draws = 300'000;
  Xoshiro256StarStar rng(11);
  uint64_t lower_third = 0;
  for (uint64_t i = 0; i < k_draws; ++i) {
    lower_third += rng.bounded(n) < (1ULL << 62) ? 1 : 0;
  }
  EXPECT_TRUE(test::within_5_sigma(lower_third, k_draws, 1.0 / 3.0)) << lower_third;
}

}  // namespace
}  // namespace ptsuite::workload
