// DataFiller: deterministic from (seed, thread, IO sequence, buffer), unique per 512-byte sector
// (defeats deduplication), incompressible, the documented layout of the random pattern, and
// that a buffer's base is copied only when the buffer does not hold it.
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

constexpr uint32_t k_buffers = 4;

std::vector<std::byte> filled(DataFiller& f, size_t bytes, uint64_t sequence, uint32_t buffer_index = 0) {
  std::vector<std::byte> buf(bytes, std::byte{0xAA});
  f.invalidate(buffer_index);  // a fresh vector never holds the base
  f.fill(buf, sequence, buffer_index);
  return buf;
}

TEST(DataFiller, SameInputsGiveTheSameBytes) {
  for (DataPattern p : {DataPattern::random, DataPattern::refill, DataPattern::zeros}) {
    DataFiller a(p, 7, 2, 64 * 1024, k_buffers);
    DataFiller b(p, 7, 2, 64 * 1024, k_buffers);
    for (uint64_t seq : {0ULL, 1ULL, 12345ULL}) {
      for (uint32_t buffer = 0; buffer < k_buffers; ++buffer) {
        EXPECT_EQ(filled(a, 8192, seq, buffer), filled(b, 8192, seq, buffer)) << to_string(p);
      }
    }
  }
}

TEST(DataFiller, SeedThreadAndSequenceEachChangeTheData) {
  for (DataPattern p : {DataPattern::random, DataPattern::refill}) {
    DataFiller base(p, 7, 0, 4096, k_buffers);
    DataFiller other_seed(p, 8, 0, 4096, k_buffers);
    DataFiller other_thread(p, 7, 1, 4096, k_buffers);
    const auto ref = filled(base, 4096, 10);
    EXPECT_NE(ref, filled(other_seed, 4096, 10)) << to_string(p);
    EXPECT_NE(ref, filled(other_thread, 4096, 10)) << to_string(p);
    EXPECT_NE(ref, filled(base, 4096, 11)) << to_string(p);
  }
}

TEST(DataFiller, ZerosAreZero) {
  DataFiller f(DataPattern::zeros, 1, 0, 4096, k_buffers);
  EXPECT_EQ(filled(f, 4096, 5), std::vector<std::byte>(4096, std::byte{0}));
}

TEST(DataFiller, RandomFollowsTheDocumentedLayout) {
  // Regenerate IOs from the published recipe: pool from the data stream, each buffer's base
  // copied cyclically from its hashed pool offset, a 16-byte tag at the start of every
  // 512-byte sector.
  const uint64_t seed = 99;
  const uint32_t thread = 3;
  DataFiller f(DataPattern::random, seed, thread, 64 * 1024, k_buffers);
  ASSERT_EQ(f.pool_bytes(), DataFiller::k_min_pool_bytes);
  SplitMix64 keys(derive_seed(seed, thread, RngStream::data));
  const uint64_t offset_key = keys.next();
  const uint64_t tag0_key = keys.next();
  keys.next();  // reserved
  keys.next();  // refill key
  std::vector<uint64_t> pool(f.pool_bytes() / 8);
  Xoshiro256StarStar pool_rng(keys.next());
  for (uint64_t& w : pool) {
    w = pool_rng.next();
  }
  const uint64_t thread_tag = mix64(mix64(seed ^ 0x7461672d74687264ULL) + thread);
  const size_t length = 16 * 1024;
  for (const auto& [seq, buffer_index] : {std::pair<uint64_t, uint32_t>{4242, 1}, {4243, 3}}) {
    const auto got = filled(f, length, seq, buffer_index);
    const size_t start_word = mix64(offset_key ^ buffer_index) & (pool.size() - 1);
    for (size_t sector = 0; sector < length / 512; ++sector) {
      const uint64_t w0 = mix64(tag0_key + (seq << 17 | sector));
      uint64_t got0 = 0;
      uint64_t got1 = 0;
      std::memcpy(&got0, got.data() + sector * 512, 8);
      std::memcpy(&got1, got.data() + sector * 512 + 8, 8);
      ASSERT_EQ(got0, w0) << sector;
      ASSERT_EQ(got1, w0 ^ thread_tag) << sector;
      for (size_t word = 2; word < 64; ++word) {
        const size_t index = (start_word + sector * 64 + word) % pool.size();
        uint64_t v = 0;
        std::memcpy(&v, got.data() + sector * 512 + word * 8, 8);
        ASSERT_EQ(v, pool[index]) << sector << " " << word;
      }
    }
  }
}

TEST(DataFiller, CopiesABufferBaseOnlyWhenTheBufferLacksIt) {
  // The per-IO work is the tags; the 496 other bytes of a sector are copied from the pool only
  // on first use or after invalidate() (a read landed in the buffer).
  DataFiller f(DataPattern::random, 5, 0, 64 * 1024, k_buffers);
  std::vector<std::byte> buf(8192);
  f.fill(buf, 1, 2);
  const std::vector<std::byte> first = buf;
  buf[100] = ~buf[100];  // a body byte, not a tag byte
  f.fill(buf, 2, 2);
  EXPECT_EQ(buf[100], ~first[100]) << "the base was copied again although the buffer held it";
  EXPECT_NE(std::memcmp(buf.data(), first.data(), 16), 0) << "the tag did not change";
  EXPECT_EQ(std::memcmp(buf.data() + 16, first.data() + 16, 84), 0);

  f.invalidate(2);
  f.fill(buf, 3, 2);
  EXPECT_EQ(buf[100], first[100]) << "invalidate() did not restore the base";

  // A longer IO than the buffer held extends the base; the held part stays as it is.
  std::vector<std::byte> big(16384);
  std::memcpy(big.data(), buf.data(), buf.size());
  big[200] = ~big[200];
  f.fill(big, 4, 2);
  EXPECT_EQ(big[200], ~buf[200]);
  DataFiller fresh(DataPattern::random, 5, 0, 64 * 1024, k_buffers);
  const auto reference = filled(fresh, 16384, 4, 2);
  EXPECT_EQ(std::memcmp(big.data() + 8192, reference.data() + 8192, 8192), 0);
}

TEST(DataFiller, PoolWrapsAndGrowsWithTheLargestBlock) {
  // An IO longer than the distance to the pool's end continues at the pool start; with 1 MiB
  // blocks the pool is 2 MiB so no IO repeats pool content inside itself.
  const DataFiller big(DataPattern::random, 5, 0, 1 << 20, 1);
  EXPECT_EQ(big.pool_bytes(), 2u << 20);
  const DataFiller odd(DataPattern::random, 5, 0, 1536 * 1024, 1);  // 2 x 1.5 MiB -> 4 MiB
  EXPECT_EQ(odd.pool_bytes(), 4u << 20);
}

TEST(DataFiller, NoTwoSectorsAreEqualAcrossIosAndThreads) {
  // Deduplication works on whole sectors or blocks: every 512-byte sector written must differ,
  // although the buffers are reused (as IoQueue slots are) and keep their base.
  std::set<std::string> sectors;
  size_t total = 0;
  for (uint32_t thread = 0; thread < 4; ++thread) {
    DataFiller f(DataPattern::random, 1, thread, 64 * 1024, k_buffers);
    std::vector<std::vector<std::byte>> buffers(k_buffers, std::vector<std::byte>(8192));
    for (uint64_t seq = 0; seq < 200; ++seq) {
      std::vector<std::byte>& buf = buffers[seq % k_buffers];
      f.fill(buf, seq, static_cast<uint32_t>(seq % k_buffers));
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
  DataFiller f(DataPattern::random, 3, 0, 64 * 1024, 256);
  std::vector<uint64_t> counts(256, 0);
  for (uint64_t seq = 0; seq < 256; ++seq) {
    for (std::byte b : filled(f, 4096, seq, static_cast<uint32_t>(seq))) {
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
