// Bucket layout, bookkeeping and percentile edge cases of LatencyHistogram. The accuracy of
// percentiles on large random samples is in percentile_accuracy_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <random>

#include <ptsuite/stats/latency_histogram.hpp>

namespace ptsuite::stats {
namespace {

using H = LatencyHistogram;
constexpr uint64_t k_max = std::numeric_limits<uint64_t>::max();

// floor(log2 v) for v > 0, written independently of the header (a loop, not countl_zero).
unsigned octave_of(uint64_t v) {
  unsigned k = 0;
  while (v > 1) {
    v >>= 1;
    ++k;
  }
  return k;
}

TEST(LatencyHistogramLayout, EveryBucketIsContiguousWithTheNextAndIndexesBack) {
  EXPECT_EQ(H::k_bucket_count, 7424u);
  EXPECT_EQ(H::bucket_lower_ns(0), 0u);
  for (size_t i = 0; i < H::k_bucket_count; ++i) {
    const uint64_t lower = H::bucket_lower_ns(i);
    const uint64_t upper = H::bucket_upper_ns(i);
    ASSERT_LE(lower, upper) << "bucket " << i;
    ASSERT_EQ(H::bucket_index(lower), i) << "bucket " << i;
    ASSERT_EQ(H::bucket_index(upper), i) << "bucket " << i;
    const uint64_t mid = H::bucket_midpoint_ns(i);
    ASSERT_GE(mid, lower);
    ASSERT_LE(mid, upper);
    if (i + 1 < H::k_bucket_count) {
      ASSERT_EQ(upper + 1, H::bucket_lower_ns(i + 1)) << "gap or overlap after bucket " << i;
    }
  }
  EXPECT_EQ(H::bucket_upper_ns(H::k_bucket_count - 1), k_max);  // no overflow in octave 63
  EXPECT_EQ(H::bucket_lower_ns(H::k_bucket_count - 1), uint64_t{255} << 56);
  EXPECT_EQ(H::bucket_midpoint_ns(H::k_bucket_count - 1), (uint64_t{255} << 56) + (uint64_t{1} << 55));
}

TEST(LatencyHistogramLayout, BucketWidthsFollowTheOctaves) {
  for (size_t i = 0; i < H::k_bucket_count; ++i) {
    const uint64_t lower = H::bucket_lower_ns(i);
    const uint64_t width_minus_1 = H::bucket_upper_ns(i) - lower;
    if (lower < 256) {
      ASSERT_EQ(width_minus_1, 0u) << "values below 256 ns must be exact; bucket " << i;
      ASSERT_EQ(H::bucket_midpoint_ns(i), lower);
    } else {
      const unsigned k = octave_of(lower);
      ASSERT_EQ(width_minus_1, (uint64_t{1} << (k - 7)) - 1) << "bucket " << i;  // 128 buckets per octave
      ASSERT_EQ(H::bucket_midpoint_ns(i), lower + (uint64_t{1} << (k - 8))) << "bucket " << i;
    }
  }
}

TEST(LatencyHistogramLayout, IndexIsMonotoneAndStepsByOneAroundEveryPowerOfTwo) {
  for (unsigned k = 0; k < 64; ++k) {
    const uint64_t p = uint64_t{1} << k;
    const uint64_t from = p > 1000 ? p - 1000 : 0;
    for (uint64_t v = from; v < p + 1000; ++v) {
      const size_t i = H::bucket_index(v);
      const size_t next = H::bucket_index(v + 1);
      ASSERT_TRUE(next == i || next == i + 1) << "v=" << v;
      ASSERT_LE(H::bucket_lower_ns(i), v) << "v=" << v;
      ASSERT_GE(H::bucket_upper_ns(i), v) << "v=" << v;
      if (v < 256) {
        ASSERT_EQ(i, v);
      }
    }
  }
  // The top of the range.
  for (uint64_t v = k_max - 5000; v != k_max; ++v) {
    ASSERT_LE(H::bucket_index(v), H::bucket_index(v + 1));
  }
  EXPECT_EQ(H::bucket_index(k_max), H::k_bucket_count - 1);
  EXPECT_EQ(H::bucket_index(0), 0u);
}

TEST(LatencyHistogramLayout, RelativeBucketWidthIsAtMostOneOver128) {
  for (size_t i = 256; i < H::k_bucket_count; ++i) {
    const uint64_t lower = H::bucket_lower_ns(i);
    const uint64_t width = H::bucket_upper_ns(i) - lower + 1;
    ASSERT_LE(width * 128, lower) << "bucket " << i;  // exact: width / lower <= 1/128
  }
}

TEST(LatencyHistogram, EmptyHistogram) {
  const H h;
  EXPECT_EQ(h.total_count(), 0u);
  EXPECT_TRUE(h.nonzero_buckets().empty());
  for (double p : {0.0001, 1.0, 50.0, 99.9999, 100.0}) {
    EXPECT_EQ(h.value_at_percentile_ns(p), 0u) << p;
  }
}

TEST(LatencyHistogram, RecordNEqualsRepeatedRecord) {
  H a;
  H b;
  for (const uint64_t v : std::initializer_list<uint64_t>{0, 7, 255, 256, 1'000'003, k_max}) {
    for (int i = 0; i < 5; ++i) {
      a.record(v);
    }
    b.record_n(v, 5);
  }
  EXPECT_EQ(a, b);
  EXPECT_EQ(b.total_count(), 30u);
  const auto nz = b.nonzero_buckets();
  ASSERT_EQ(nz.size(), 6u);
  EXPECT_EQ(nz.front(), (std::pair<size_t, uint64_t>{0, 5}));
  EXPECT_EQ(nz.back(), (std::pair<size_t, uint64_t>{H::k_bucket_count - 1, 5}));
  for (size_t i = 1; i < nz.size(); ++i) {
    EXPECT_LT(nz[i - 1].first, nz[i].first);
  }
}

TEST(LatencyHistogram, MergeEqualsRecordingEverythingInOne) {
  std::mt19937_64 rng(42);
  std::lognormal_distribution<double> dist(11.0, 2.0);
  H all;
  H parts[4];
  for (int i = 0; i < 200'000; ++i) {
    const auto v = static_cast<uint64_t>(dist(rng));
    all.record(v);
    parts[rng() % 4].record(v);
  }
  H merged;
  for (const H& part : parts) {
    merged.merge(part);
  }
  EXPECT_EQ(merged, all);
  EXPECT_EQ(merged.total_count(), 200'000u);
  // Merge order does not matter.
  H reversed = parts[3];
  reversed.merge(parts[2]);
  reversed.merge(parts[1]);
  reversed.merge(parts[0]);
  EXPECT_EQ(reversed, all);
}

TEST(LatencyHistogram, ClearEmptiesEverything) {
  H h;
  h.record(5);
  h.record_n(1'000'000, 3);
  h.clear();
  EXPECT_EQ(h, H{});
  EXPECT_EQ(h.total_count(), 0u);
  EXPECT_EQ(h.value_at_percentile_ns(50), 0u);
}

TEST(LatencyHistogram, NearestRankOnSmallExactValues) {
  H h;
  for (uint64_t v = 1; v <= 100; ++v) {
    h.record(v);  // below 256 ns: exact
  }
  EXPECT_EQ(h.value_at_percentile_ns(1), 1u);       // rank ceil(0.01 * 100) = 1
  EXPECT_EQ(h.value_at_percentile_ns(1.5), 2u);     // rank ceil(1.5) = 2
  EXPECT_EQ(h.value_at_percentile_ns(50), 50u);     // rank 50
  EXPECT_EQ(h.value_at_percentile_ns(50.01), 51u);  // rank ceil(50.01) = 51
  EXPECT_EQ(h.value_at_percentile_ns(99), 99u);
  EXPECT_EQ(h.value_at_percentile_ns(99.9), 100u);
  EXPECT_EQ(h.value_at_percentile_ns(100), 100u);
  EXPECT_EQ(h.value_at_percentile_ns(0.0001), 1u);
}

TEST(LatencyHistogram, DecimalPercentilesDoNotSlipARank) {
  // 99.9 % of N = 1000 is exactly rank 999, but the double product 99.9 / 100 * 1000 rounds to
  // 999.0000000000001 and its ceiling to rank 1000 (likewise 99.9 * 41000 / 100). Values below
  // 256 ns are exact, so the ranked sample is visible directly.
  for (const uint64_t n : {1000ull, 41000ull}) {
    H h;
    h.record_n(10, n * 999 / 1000);  // ranks 1 .. 0.999 N
    h.record_n(20, n / 1000);        // the top 0.1 %
    EXPECT_EQ(h.value_at_percentile_ns(99.9), 10u) << "N=" << n;
    EXPECT_EQ(h.value_at_percentile_ns(99.90001), 20u) << "N=" << n;
  }
  H million;
  million.record_n(10, 999'999);
  million.record(20);
  EXPECT_EQ(million.value_at_percentile_ns(99.9999), 10u);  // rank 999'999 exactly
  EXPECT_EQ(million.value_at_percentile_ns(99.99991), 20u);
}

TEST(LatencyHistogram, PercentileIsTheMidpointOfTheRankedSamplesBucket) {
  H h;
  h.record(1'000'000);  // octave 19: width 2^12 = 4096, bucket [999'424, 1'003'519]
  const size_t i = H::bucket_index(1'000'000);
  EXPECT_EQ(H::bucket_lower_ns(i), 999'424u);
  EXPECT_EQ(H::bucket_upper_ns(i), 1'003'519u);
  EXPECT_EQ(h.value_at_percentile_ns(50), 999'424u + 2048u);
  EXPECT_EQ(h.value_at_percentile_ns(100), 999'424u + 2048u);  // unclamped: summarize() clamps
}

TEST(LatencyHistogram, OutOfRangePercentilesClampToTheExtremes) {
  H h;
  h.record(3);
  h.record(9);
  EXPECT_EQ(h.value_at_percentile_ns(0), 3u);
  EXPECT_EQ(h.value_at_percentile_ns(-5), 3u);
  EXPECT_EQ(h.value_at_percentile_ns(std::numeric_limits<double>::quiet_NaN()), 3u);
  EXPECT_EQ(h.value_at_percentile_ns(250), 9u);
}

// shrink_to_fit keeps the used range only; every operation gives what the full form gives, and
// recording or merging outside the kept range widens it again.
TEST(LatencyHistogram, AShrunkHistogramBehavesLikeTheFullOneAndWidensWhenNeeded) {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> dist(11.0, 1.0);
  H full;
  for (int i = 0; i < 50'000; ++i) {
    full.record(static_cast<uint64_t>(dist(rng)));
  }
  H shrunk = full;
  shrunk.shrink_to_fit();
  EXPECT_LT(shrunk.stored_buckets(), H::k_bucket_count / 4);  // a few octaves, not all 58
  EXPECT_EQ(shrunk, full);
  EXPECT_EQ(shrunk.nonzero_buckets(), full.nonzero_buckets());
  for (double p : {0.0, 1.0, 50.0, 99.0, 99.999, 100.0}) {
    EXPECT_EQ(shrunk.value_at_percentile_ns(p), full.value_at_percentile_ns(p)) << p;
  }
  for (size_t i : {size_t{0}, H::bucket_index(60'000), H::k_bucket_count - 1}) {
    EXPECT_EQ(shrunk.count_at(i), full.count_at(i)) << i;
  }
  // Outside the range on both sides: record, record_n and merge widen.
  for (H* h : {&full, &shrunk}) {
    h->record(3);
    h->record_n(k_max, 2);
  }
  EXPECT_EQ(shrunk, full);
  H other;
  other.record(1);
  other.record(1'000'000'000'000);
  H shrunk_other = other;
  shrunk_other.shrink_to_fit();
  EXPECT_EQ(shrunk_other.stored_buckets(), H::bucket_index(1'000'000'000'000) - H::bucket_index(1) + 1);
  full.merge(other);
  shrunk.merge(shrunk_other);
  EXPECT_EQ(shrunk, full);
  EXPECT_EQ(shrunk.total_count(), full.total_count());
  // An empty histogram shrinks to nothing and still records.
  H empty;
  empty.shrink_to_fit();
  EXPECT_EQ(empty.stored_buckets(), 0u);
  EXPECT_EQ(empty.stored_capacity(), 0u);  // the 58 KiB are released, not only cleared
  EXPECT_EQ(empty, H{});
  empty.record(42);
  EXPECT_EQ(empty.value_at_percentile_ns(50), 42u);
}

}  // namespace
}  // namespace ptsuite::stats
