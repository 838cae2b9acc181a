// resolve(): every input check throws UsageError naming its option, and the accepted forms are
// bound to the geometry as documented (alignment rule, ranges, zones, slots, sequential slices).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/workload_spec.hpp>
#include "support/target_geometry.hpp"

namespace ptsuite::workload {
namespace {

using units::k_kib;
using units::k_mib;

using test_support::geometry;

WorkloadSpec base_spec() {
  WorkloadSpec spec;
  spec.engine = "null";  // always available
  spec.limits.duration_ns = 1'000'000'000;
  return spec;
}

std::vector<BlockSizeWeight> cbw_mix() {
  return {{512, 4},  {1024, 1},  {1536, 1},       {2048, 1},       {2560, 1},       {3072, 1},
          {3584, 1}, {4096, 67}, {8 * k_kib, 10}, {16 * k_kib, 7}, {32 * k_kib, 3}, {64 * k_kib, 3}};
}

// Expects UsageError whose message starts with "<option>: " and contains `fragment`.
void expect_rejected(const WorkloadSpec& spec, const engine::TargetGeometry& g, const std::string& option,
                     const std::string& fragment = "") {
  try {
    resolve(spec, g);
    ADD_FAILURE() << "accepted; expected an error naming " << option;
  } catch (const UsageError& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_EQ(message.rfind(option + ": ", 0), 0u) << message;
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
  }
}

TEST(ResolveErrors, ThreadsAndQueueDepth) {
  const auto g = geometry(64 * k_mib);
  WorkloadSpec s = base_spec();
  s.threads = 0;
  expect_rejected(s, g, "threads", "1 to 1024");
  s.threads = k_max_threads + 1;
  expect_rejected(s, g, "threads");
  s = base_spec();
  s.queue_depth = 0;
  expect_rejected(s, g, "queue_depth");
  s.queue_depth = k_max_queue_depth + 1;
  expect_rejected(s, g, "queue_depth");
  s = base_spec();
  s.threads = 1024;
  s.queue_depth = 65536;
  expect_rejected(s, g, "queue_depth", "IO buffers");
}

TEST(ResolveErrors, ReadPercentage) {
  const auto g = geometry(64 * k_mib);
  for (double pct : {-1.0, 100.5, std::nan("")}) {
    WorkloadSpec s = base_spec();
    s.read_pct = pct;
    expect_rejected(s, g, "read_pct");
  }
}

TEST(ResolveErrors, BlockSizes) {
  const auto g = geometry(64 * k_mib);
  WorkloadSpec s = base_spec();
  s.block_sizes = {{0, 1}};
  expect_rejected(s, g, "block_size");
  s.block_sizes = {{1000, 1}};
  expect_rejected(s, g, "block_size", "not a multiple of the target's 512-byte logical block");
  s.block_sizes = {{128 * k_mib, 1}};
  expect_rejected(s, g, "block_size", "maximum");
  s.block_sizes = {};
  expect_rejected(s, g, "block_size");
  s.block_sizes = {{4096, 1}, {8192, 0}};
  expect_rejected(s, g, "bs_split", "8KiB");
  s.block_sizes = {{4096, 1}, {8192, -2}};
  expect_rejected(s, g, "bs_split");
  s.block_sizes = {{4096, 1}, {4096, 2}};
  expect_rejected(s, g, "bs_split", "twice");
  s.block_sizes = {{4096, 1}, {1000, 2}};
  expect_rejected(s, g, "bs_split", "1000B");
}

TEST(ResolveErrors, SubLogicalBlockSizesOn4KnNameTheSize) {
  const auto g = geometry(64 * k_mib, 4096);
  WorkloadSpec s = base_spec();
  s.block_sizes = {{512, 1}};
  expect_rejected(s, g, "block_size", "0.5KiB is smaller than the target's 4096-byte logical block");
  s.block_sizes = cbw_mix();
  expect_rejected(s, g, "bs_split", "0.5KiB");
  // Without the sub-4K sizes the CBW mix is fine on 4Kn.
  s.block_sizes = {{4096, 67}, {8 * k_kib, 10}, {16 * k_kib, 7}, {32 * k_kib, 3}, {64 * k_kib, 3}};
  EXPECT_NO_THROW(resolve(s, g));
}

TEST(ResolveErrors, BlockLargerThanTheRange) {
  const auto g = geometry(64 * k_mib);
  WorkloadSpec s = base_spec();
  s.block_sizes = {{1 * k_mib, 1}};
  s.active_range.offset_bytes = 0;
  s.active_range.length_bytes = 512 * k_kib;
  expect_rejected(s, g, "block_size", "larger than the active range");
}

TEST(ResolveErrors, ActiveRange) {
  const auto g = geometry(64 * k_mib);
  for (double pct : {0.0, -5.0, 100.01, std::nan("")}) {
    WorkloadSpec s = base_spec();
    s.active_range.pct = pct;
    expect_rejected(s, g, "range");
  }
  WorkloadSpec s = base_spec();
  s.active_range.offset_bytes = 32 * k_mib;
  s.active_range.length_bytes = 32 * k_mib + 4096;
  expect_rejected(s, g, "range", "beyond the target's capacity");
  s.active_range.offset_bytes = 80 * k_mib;
  s.active_range.length_bytes = 4096;
  expect_rejected(s, g, "range", "beyond");
  s.active_range.offset_bytes = std::numeric_limits<uint64_t>::max() - 100;  // no overflow
  s.active_range.length_bytes = 1 * k_mib;
  expect_rejected(s, g, "range");
  s.active_range.offset_bytes = 100;
  expect_rejected(s, g, "range", "multiples");
  s.active_range.offset_bytes = 0;
  s.active_range.length_bytes = 0;
  expect_rejected(s, g, "range");
  // 0.001 % of 64 KiB is less than one logical block.
  s = base_spec();
  s.active_range.pct = 0.001;
  expect_rejected(s, geometry(64 * k_kib), "range", "less than one logical block");
}

TEST(ResolveErrors, Zones) {
  const auto g = geometry(64 * k_mib);
  WorkloadSpec s = base_spec();
  s.zones = {{50, 5}, {30, 15}, {10, 80}};
  expect_rejected(s, g, "zones", "IO shares sum to 90");
  s.zones = {{50, 5}, {30, 15}, {20, 70}};
  expect_rejected(s, g, "zones", "range shares to 90");
  s.zones = {{50, 0}, {50, 100}};
  expect_rejected(s, g, "zones");
  s.zones = {{-10, 50}, {110, 50}};
  expect_rejected(s, g, "zones");
  s.zones = {{50, 50}, {50, 50}};
  s.pattern = AccessPattern::sequential;
  expect_rejected(s, g, "zones", "random pattern only");
  // The first zone (1 % of 1 MiB = 10 KiB, from 4 KiB) cannot hold a 64 KiB-aligned start.
  s = base_spec();
  s.active_range.offset_bytes = 4096;
  s.active_range.length_bytes = 1 * k_mib;
  s.block_sizes = {{64 * k_kib, 1}};
  s.zones = {{50, 1}, {50, 99}};
  expect_rejected(s, g, "zones", "zone 1");
}

TEST(ResolveErrors, ActiveRangeSegments) {
  const auto g = geometry(64 * k_mib);
  WorkloadSpec s = base_spec();
  s.active_range.segments = 4;
  expect_rejected(s, g, "segments", "need an ActiveRange amount");
  s.active_range.segments = 0;
  expect_rejected(s, g, "segments", "out of range");
  s.active_range.segments = k_max_ar_segments + 1;
  expect_rejected(s, g, "segments", "out of range");
  s.active_range.segments = 4;
  s.active_range.amount_bytes = 128 * k_mib;
  expect_rejected(s, g, "amount", "more than the active range");
  // 64 KiB in 32 segments = 2 KiB each: a 4 KiB IO does not fit in one.
  s.active_range.amount_bytes = 64 * k_kib;
  s.active_range.segments = 32;
  expect_rejected(s, g, "segments", "leaves 2KiB per segment, less than the 4KiB block");
  s.active_range.amount_bytes = 8 * k_mib;
  s.zones = {{50, 50}, {50, 50}};
  expect_rejected(s, g, "segments", "cannot be combined");
  s.zones.clear();
  s.pattern = AccessPattern::sequential;
  expect_rejected(s, g, "segments", "random pattern only");
}

TEST(Resolve, ActiveRangeSegmentsAreEqualAlignedAndSpreadOverTheRange) {
  WorkloadSpec s = base_spec();
  s.active_range.pct = 75;  // PTS-C: 48 MiB of 64 MiB
  s.active_range.amount_bytes = 8 * k_mib;
  s.active_range.segments = 16;
  s.block_sizes = {{4 * k_kib, 1}, {64 * k_kib, 1}};
  s.limits = {};
  s.limits.bytes_range_multiple = 2;
  const ResolvedWorkload w = resolve(s, geometry(64 * k_mib));
  ASSERT_TRUE(w.segmented);
  ASSERT_EQ(w.zones.size(), 16u);
  EXPECT_EQ(w.addressed_bytes, 8 * k_mib);
  EXPECT_EQ(w.byte_limit, 16 * k_mib) << "the range multiple applies to the addressed amount";
  const uint64_t stride = 3 * k_mib;  // 48 MiB / 16
  for (size_t i = 0; i < w.zones.size(); ++i) {
    EXPECT_EQ(w.zones[i].offset_bytes, i * stride) << i;
    EXPECT_EQ(w.zones[i].length_bytes, 512 * k_kib) << i;
    EXPECT_DOUBLE_EQ(w.zones[i].probability, 1.0 / 16);
    // Slots hold a whole IO inside the segment: the last 64 KiB start is 448 KiB in.
    const OffsetSlots& big = w.slots[i * 2 + 1];
    EXPECT_EQ(big.first_offset_bytes, i * stride);
    EXPECT_EQ(big.count, 8u) << i;
    EXPECT_EQ(w.slots[i * 2].count, 128u) << i;
  }
  // An amount that does not divide evenly is rounded down to whole 64 KiB units per segment.
  s.active_range.amount_bytes = 8 * k_mib + 1000;
  s.active_range.segments = 3;
  const ResolvedWorkload odd = resolve(s, geometry(64 * k_mib));
  EXPECT_EQ(odd.zones[0].length_bytes % (64 * k_kib), 0u);
  EXPECT_EQ(odd.zones[1].offset_bytes % (64 * k_kib), 0u);
  EXPECT_LE(odd.zones[2].offset_bytes + odd.zones[2].length_bytes, odd.range_length_bytes);
}

TEST(ResolveErrors, Limits) {
  const auto g = geometry(64 * k_mib);
  WorkloadSpec s = base_spec();
  s.limits = {};
  expect_rejected(s, g, "duration", "no limit given");
  s.limits.bytes = 4096;
  s.limits.bytes_range_multiple = 2;
  expect_rejected(s, g, "bytes", "not both");
  s.limits = {};
  s.limits.bytes_range_multiple = -1;
  expect_rejected(s, g, "bytes");
  s.limits.bytes_range_multiple = std::nan("");
  expect_rejected(s, g, "bytes");
  s.limits.bytes_range_multiple = 1e-12;  // less than a byte of the range
  expect_rejected(s, g, "bytes");
}

TEST(ResolveErrors, RatesIntervalCpusEngine) {
  const auto g = geometry(64 * k_mib);
  WorkloadSpec s = base_spec();
  s.rate.iops = -1;
  expect_rejected(s, g, "rate_iops");
  s.rate.iops = std::numeric_limits<double>::infinity();
  expect_rejected(s, g, "rate_iops");
  s = base_spec();
  s.rate.mb_per_s = -0.5;
  expect_rejected(s, g, "rate_mbps");
  s = base_spec();
  s.interval_ns = 1'000'000;
  expect_rejected(s, g, "interval", "minimum");
  s = base_spec();
  s.cpus = {0, 100000};
  expect_rejected(s, g, "cpus", "CPU 100000");
  s.cpus = {-1};
  expect_rejected(s, g, "cpus");
  s = base_spec();
  s.engine = "bogus";
  expect_rejected(s, g, "engine", "bogus");
}

TEST(ResolveErrors, SequentialSlicesSmallerThanABlock) {
  const auto g = geometry(64 * k_mib);
  WorkloadSpec s = base_spec();
  s.pattern = AccessPattern::sequential;
  s.block_sizes = {{1 * k_mib, 1}};
  s.active_range.length_bytes = 4 * k_mib;
  s.threads = 8;  // 512 KiB per thread < 1 MiB
  expect_rejected(s, g, "threads", "per thread");
}

TEST(ResolveErrors, EmptyOrOddGeometry) {
  expect_rejected(base_spec(), geometry(0), "target");
  expect_rejected(base_spec(), geometry(64 * k_mib, 1000), "target");
}

TEST(Resolve, AlignmentRule) {
  // Power-of-two sizes align to themselves; others to the logical block.
  WorkloadSpec s = base_spec();
  s.block_sizes = cbw_mix();
  const ResolvedWorkload r = resolve(s, geometry(64 * k_mib));
  ASSERT_EQ(r.block_sizes.size(), 12u);
  for (const ResolvedBlockSize& b : r.block_sizes) {
    const bool pow2 = (b.bytes & (b.bytes - 1)) == 0;
    EXPECT_EQ(b.align_bytes, pow2 ? b.bytes : 512u) << b.bytes;
  }
  EXPECT_EQ(r.max_block_bytes, 64 * k_kib);
  double sum = 0;
  for (const ResolvedBlockSize& b : r.block_sizes) {
    sum += b.probability;
  }
  EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_NEAR(r.block_sizes[7].probability, 0.67, 1e-12);

  // 4Kn: 12 KiB is not a power of two, so it aligns to the 4 KiB logical block.
  s.block_sizes = {{12 * k_kib, 1}, {8 * k_kib, 1}};
  const ResolvedWorkload r4 = resolve(s, geometry(64 * k_mib, 4096));
  EXPECT_EQ(r4.block_sizes[0].align_bytes, 4096u);
  EXPECT_EQ(r4.block_sizes[1].align_bytes, 8192u);
}

TEST(Resolve, RangeAsPercentRoundsDownToTheLogicalBlock) {
  WorkloadSpec s = base_spec();
  s.active_range.pct = 75;
  const ResolvedWorkload r = resolve(s, geometry(1000 * 4096 + 512, 4096));
  EXPECT_EQ(r.range_offset_bytes, 0u);
  // floor((4096000 + 512) * 0.75) = 3072384 -> 3072000 (a multiple of 4096)
  EXPECT_EQ(r.range_length_bytes, 3072000u);
  ASSERT_EQ(r.zones.size(), 1u);
  EXPECT_EQ(r.zones[0].length_bytes, r.range_length_bytes);
}

TEST(Resolve, ExplicitRangeAndOffsetSlots) {
  WorkloadSpec s = base_spec();
  s.active_range.offset_bytes = 512;  // not 4 KiB aligned: the first 4 KiB slot is at 4096
  s.active_range.length_bytes = 1 * k_mib;
  const ResolvedWorkload r = resolve(s, geometry(64 * k_mib));
  EXPECT_EQ(r.range_offset_bytes, 512u);
  ASSERT_EQ(r.slots.size(), 1u);
  EXPECT_EQ(r.slots[0].first_offset_bytes, 4096u);
  // Last start <= 512 + 1 MiB - 4096, rounded down to 4096: 1 MiB - 4096. Slots 4096 .. 1 MiB - 4096.
  EXPECT_EQ(r.slots[0].count, 255u);
}

TEST(Resolve, ZonesSplitTheRangeInOrder) {
  WorkloadSpec s = base_spec();
  s.active_range.length_bytes = 100 * k_mib;
  s.zones = {{50, 5}, {30, 15}, {20, 80}};
  const ResolvedWorkload r = resolve(s, geometry(128 * k_mib));
  ASSERT_EQ(r.zones.size(), 3u);
  EXPECT_EQ(r.zones[0].offset_bytes, 0u);
  EXPECT_EQ(r.zones[0].length_bytes, 5 * k_mib);
  EXPECT_EQ(r.zones[1].offset_bytes, 5 * k_mib);
  EXPECT_EQ(r.zones[1].length_bytes, 15 * k_mib);
  EXPECT_EQ(r.zones[2].offset_bytes, 20 * k_mib);
  EXPECT_EQ(r.zones[2].length_bytes, 80 * k_mib);
  EXPECT_DOUBLE_EQ(r.zones[0].probability, 0.5);
  EXPECT_DOUBLE_EQ(r.zones[2].probability, 0.2);
  // Slots start inside the zone; the last zone's IOs end inside the range.
  EXPECT_EQ(r.slots[2].first_offset_bytes, 20 * k_mib);
  EXPECT_EQ(r.slots[2].count, 80 * k_mib / 4096);
  EXPECT_EQ(r.slots[0].count, 5 * k_mib / 4096);
}

TEST(Resolve, ByteLimitAsAMultipleOfTheRange) {
  WorkloadSpec s = base_spec();
  s.limits = {};
  s.limits.bytes_range_multiple = 2;
  s.active_range.pct = 50;
  const ResolvedWorkload r = resolve(s, geometry(64 * k_mib));
  EXPECT_EQ(r.byte_limit, 64 * k_mib);
  EXPECT_FALSE(r.writes);
  s.read_pct = 99.5;
  EXPECT_TRUE(resolve(s, geometry(64 * k_mib)).writes);
}

TEST(Resolve, SequentialSlicesAreAlignedAndDisjoint) {
  WorkloadSpec s = base_spec();
  s.pattern = AccessPattern::sequential;
  s.threads = 3;
  s.block_sizes = {{128 * k_kib, 1}};
  s.active_range.offset_bytes = 4096;  // rounded up to 128 KiB for the slices
  s.active_range.length_bytes = 16 * k_mib;
  const ResolvedWorkload r = resolve(s, geometry(64 * k_mib));
  EXPECT_EQ(r.sequential.start_bytes, 128 * k_kib);
  // usable = 16 MiB + 4 KiB - 128 KiB; / 3 rounded down to 128 KiB
  EXPECT_EQ(r.sequential.slice_bytes, (16 * k_mib + 4096 - 128 * k_kib) / 3 / (128 * k_kib) * (128 * k_kib));
  EXPECT_LE(r.sequential.start_bytes + 3 * r.sequential.slice_bytes, r.range_offset_bytes + r.range_length_bytes);
  EXPECT_TRUE(r.slots.empty());
}

TEST(ThreadShare, SharesSumToTheTotal) {
  for (uint64_t total : {0ULL, 1ULL, 7ULL, 1000ULL, 1001ULL}) {
    for (uint32_t threads : {1u, 2u, 3u, 8u}) {
      uint64_t sum = 0;
      for (uint32_t i = 0; i < threads; ++i) {
        const uint64_t share = thread_share(total, threads, i);
        EXPECT_LE(share, total / threads + 1);
        sum += share;
      }
      EXPECT_EQ(sum, total);
    }
  }
}

}  // namespace
}  // namespace ptsuite::workload
