// DataFiller: deterministic from (seed, thread, IO sequence), unique per 512-byte sector
// (defeats deduplication), incompressible, and the documented layout of the random pattern.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include <ptsuite/workload/data_fill.hpp>
#include <ptsuite/workload/rng.hpp>

namespace ptsuite::workload {
namespace {

std::vector<std::byte> filled(const DataFiller& f, size_t bytes, uint64_t sequence) {
  std::vector<std::byte> buf(bytes, std::byte{0xAA});
  f.fill(buf, sequence);
  return buf;
}

TEST(DataFiller, SameInputsGiveTheSameBytes) {
  for (DataPattern p : {DataPattern::random, DataPattern::refill, DataPattern::zeros}) {
    const DataFiller a(p, 7, 2, 64 * 1024);
    const DataFiller b(p, 7, 2, 64 * 1024);
    for (uint64_t seq : {0ULL, 1ULL, 12345ULL}) {
      EXPECT_EQ(filled(a, 8192, seq), filled(b, 8192, seq)) << to_string(p);
    }
  }
}

TEST(DataFiller, SeedThreadAndSequenceEachChangeTheData) {
  for (DataPattern p : {DataPattern::random, DataPattern::refill}) {
    const DataFiller base(p, 7, 0, 4096);
    const auto ref = filled(base, 4096, 10);
    EXPECT_NE(ref, filled(DataFiller(p, 8, 0, 4096), 4096, 10)) << to_string(p);
    EXPECT_NE(ref, filled(DataFiller(p, 7, 1, 4096), 4096, 10)) << to_string(p);
    EXPECT_NE(ref, filled(base, 4096, 11)) << to_string(p);
  }
}

TEST(DataFiller, ZerosAreZero) {
  const DataFiller f(DataPattern::zeros, 1, 0, 4096);
  EXPECT_EQ(filled(f, 4096, 5), std::vector<std::byte>(4096, std::byte{0}));
}

TEST(DataFiller, RandomFollowsTheDocumentedLayout) {
  // Regenerate one IO from the published recipe: pool from the data stream, cyclic copy from
  // a hashed offset, a 16-byte tag at the start of every 512-byte sector.
  const uint64_t seed = 99;
  const uint32_t thread = 3;
  const DataFiller f(DataPattern::random, seed, thread, 64 * 1024);
  ASSERT_EQ(f.pool_bytes(), DataFiller::k_min_pool_bytes);
  SplitMix64 keys(derive_seed(seed, thread, RngStream::data));
  const uint64_t offset_key = keys.next();
  const uint64_t tag0_key = keys.next();
  const uint64_t tag1_key = keys.next();
  keys.next();  // refill key
  std::vector<uint64_t> pool(f.pool_bytes() / 8);
  Xoshiro256StarStar pool_rng(keys.next());
  for (uint64_t& w : pool) {
    w = pool_rng.next();
  }
  const uint64_t seq = 4242;
  const size_t length = 16 * 1024;
  const auto got = filled(f, length, seq);
  const size_t start_word = mix64(offset_key ^ seq) & (pool.size() - 1);
  for (size_t sector = 0; sector < length / 512; ++sector) {
    const uint64_t w0 = mix64(tag0_key + (seq << 17 | sector));
    const uint64_t w1 = w0 ^ mix64(tag1_key + (uint64_t{thread} << 17 | sector));
    uint64_t got0 = 0;
    uint64_t got1 = 0;
    std::memcpy(&got0, got.data() + sector * 512, 8);
    std::memcpy(&got1, got.data() + sector * 512 + 8, 8);
    ASSERT_EQ(got0, w0) << sector;
    ASSERT_EQ(got1, w1) << sector;
    for (size_t word = 2; word < 64; ++word) {
      const size_t index = (start_word + sector * 64 + word) % pool.size();
      uint64_t v = 0;
      std::memcpy(&v, got.data() + sector * 512 + word * 8, 8);
      ASSERT_EQ(v, pool[index]) << sector << " " << word;
    }
  }
}

TEST(DataFiller, PoolWrapsAndGrowsWithTheLargestBlock) {
  // An IO longer than the distance to the pool's end continues at the pool start; with 1 MiB
  // blocks the pool is 2 MiB so no IO repeats pool content inside itself.
  const DataFiller big(DataPattern::random, 5, 0, 1 << 20);
  EXPECT_EQ(big.pool_bytes(), 2u << 20);
  const DataFiller odd(DataPattern::random, 5, 0, 1536 * 1024);  // 2 x 1.5 MiB -> 4 MiB
  EXPECT_EQ(odd.pool_bytes(), 4u << 20);
}

TEST(DataFiller, NoTwoSectorsAreEqualAcrossIosAndThreads) {
  // Deduplication works on whole sectors or blocks: every 512-byte sector written must differ.
  std::set<std::string> sectors;
  size_t total = 0;
  for (uint32_t thread = 0; thread < 4; ++thread) {
    const DataFiller f(DataPattern::random, 1, thread, 64 * 1024);
    for (uint64_t seq = 0; seq < 200; ++seq) {
      const auto buf = filled(f, 8192, seq);
      for (size_t s = 0; s < buf.size(); s += 512) {
        sectors.emplace(reinterpret_cast<const char*>(buf.data() + s), 512);
        ++total;
      }
    }
  }
  EXPECT_EQ(sectors.size(), total);
}

TEST(DataFiller, RandomDataLooksIncompressible) {
  // Byte histogram of 1 MiB of written data: every byte value near 1/256 (a compressor gains
  // nothing from an even histogram without repeats, checked above).
  const DataFiller f(DataPattern::random, 3, 0, 64 * 1024);
  std::vector<uint64_t> counts(256, 0);
  for (uint64_t seq = 0; seq < 256; ++seq) {
    for (std::byte b : filled(f, 4096, seq)) {
      ++counts[static_cast<uint8_t>(b)];
    }
  }
  const double expected = 256.0 * 4096 / 256;
  for (uint64_t c : counts) {
    EXPECT_NEAR(static_cast<double>(c), expected, 6 * std::sqrt(expected));
  }
}

}  // namespace
}  // namespace ptsuite::workload
