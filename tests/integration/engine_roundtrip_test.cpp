// Real IO through IoQueue with the sync, libaio and io_uring engines, on an O_DIRECT file in /dev/shm and
// on a loop device over such a file, at queue depth 1 and 32. Writes are checked by reading the
// backing file through a separate, buffered descriptor; reads by comparing every returned
// buffer with data put on the medium through that same separate path. The null engine must
// leave the medium untouched.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include <ptsuite/engine/engine_registry.hpp>
#include <ptsuite/engine/io_queue.hpp>
#include <ptsuite/engine/loop_device.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/util/fd.hpp>

#include "support/loop_support.hpp"
#include "support/temp_dir.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::engine {
namespace {

constexpr uint64_t k_target_bytes = 8 << 20;
constexpr uint32_t k_max_block_bytes = 65536;
constexpr uint64_t k_roundtrip_reap_timeout_ns = 5'000'000'000;
// Sub-page, odd-multiple and large sizes, all multiples of the 512-byte logical block.
constexpr uint32_t k_sizes[] = {4096, 512, 65536, 12288, 1536, 8192, 32768};

uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The content of the 8-byte word at absolute offset `position` for a given seed, so expected
// data depends only on where it lives.
void fill_pattern(std::byte* data, size_t length, uint64_t offset, uint64_t seed) {
  for (size_t i = 0; i < length; i += 8) {
    const uint64_t word = mix((offset + i) ^ seed);
    std::memcpy(data + i, &word, 8);
  }
}

struct Io {
  uint64_t offset_bytes;
  uint32_t length_bytes;
};

// Non-overlapping IOs tiling most of the target, in a shuffled (seeded) order.
std::vector<Io> shuffled_layout(uint64_t seed) {
  std::vector<Io> ios;
  uint64_t offset = 0;
  for (size_t i = 0; offset + k_max_block_bytes <= k_target_bytes - 65536; ++i) {
    const uint32_t length = k_sizes[i % std::size(k_sizes)];
    ios.push_back({offset, length});
    offset += length + (i % 3 == 0 ? 512 : 0);  // leave some gaps that must stay untouched
  }
  for (size_t i = ios.size() - 1; i > 0; --i) {
    std::swap(ios[i], ios[mix(seed + i) % (i + 1)]);
  }
  return ios;
}

struct RoundTripCase {
  const char* engine;
  bool loop;
  uint32_t queue_depth;
};

class EngineRoundTrip : public ::testing::TestWithParam<RoundTripCase> {
 protected:
  void SetUp() override {
    const RoundTripCase& c = GetParam();
    for (const EngineInfo& info : list_engines()) {
      if (info.name == c.engine && !info.available) {
        GTEST_SKIP() << c.engine << " unavailable: " << info.unavailable_reason;
      }
    }
    m_backing = m_dir.create_file("backing.img", k_target_bytes);
    m_target_path = m_backing;
    if (c.loop) {
      PTSUITE_SKIP_WITHOUT_LOOP();
      m_loop.emplace(test_support::attach_loop_over(m_backing));
      m_target_path = m_loop->path();
    }
  }

  std::vector<std::byte> read_backing() const {
    std::vector<std::byte> image(k_target_bytes);
    const UniqueFd fd(::open(m_backing.c_str(), O_RDONLY | O_CLOEXEC));  // buffered, separate
    EXPECT_EQ(::pread(fd.get(), image.data(), image.size(), 0), static_cast<ssize_t>(image.size()));
    return image;
  }

  void write_backing(uint64_t seed) const {
    std::vector<std::byte> image(k_target_bytes);
    fill_pattern(image.data(), image.size(), 0, seed);
    const UniqueFd fd(::open(m_backing.c_str(), O_WRONLY | O_CLOEXEC));
    ASSERT_EQ(::pwrite(fd.get(), image.data(), image.size(), 0), static_cast<ssize_t>(image.size()));
  }

  // Keeps the queue full until every IO of `ios` is done, refilling slots as they free up.
  void write_all(IoQueue& q, const std::vector<Io>& ios, uint64_t seed) {
    size_t next = 0;
    while (next < ios.size() || q.in_flight() > 0) {
      while (q.free_slots() > 0 && next < ios.size()) {
        const Io& io = ios[next++];
        const std::span<std::byte> buffer = q.stage(IoOp::write, io.offset_bytes, io.length_bytes);
        fill_pattern(buffer.data(), buffer.size(), io.offset_bytes, seed);
      }
      ASSERT_EQ(q.flush(), 0);
      const int reaped = q.reap(1, k_roundtrip_reap_timeout_ns);
      ASSERT_TRUE(reaped >= 0 || reaped == -EINTR) << reaped;
      ASSERT_FALSE(q.has_error()) << "errno " << q.first_error()->errnum;
    }
  }

  test_support::ShmTempDir m_dir;
  std::string m_backing;
  std::string m_target_path;
  std::optional<LoopDevice> m_loop;  // declared after m_dir: detached before the dir goes
};

TEST_P(EngineRoundTrip, WrittenDataLandsExactlyWhereItWasAddressed) {
  const RoundTripCase& c = GetParam();
  const std::vector<Io> ios = shuffled_layout(1);
  const uint64_t seed = 0xabcdef;
  {
    const Target target = Target::open(test_support::writable(m_target_path).writable());
    IoQueue q(create_engine(c.engine), target, c.queue_depth, k_max_block_bytes);
    write_all(q, ios, seed);
    q.drain();
    uint64_t bytes = 0;
    for (const Io& io : ios) {
      bytes += io.length_bytes;
    }
    EXPECT_EQ(q.stats().write.ios, ios.size());
    EXPECT_EQ(q.stats().write.bytes, bytes);
    EXPECT_EQ(q.stats().read.ios, 0u);
    EXPECT_EQ(q.error_count(), 0u);
  }

  std::vector<std::byte> expected(k_target_bytes);  // zeros where nothing was written
  for (const Io& io : ios) {
    fill_pattern(expected.data() + io.offset_bytes, io.length_bytes, io.offset_bytes, seed);
  }
  const std::vector<std::byte> actual = read_backing();
  const auto mismatch = std::mismatch(expected.begin(), expected.end(), actual.begin());
  EXPECT_TRUE(mismatch.first == expected.end()) << "first difference at byte " << (mismatch.first - expected.begin());
}

TEST_P(EngineRoundTrip, ReadsReturnWhatIsOnTheMedium) {
  const RoundTripCase& c = GetParam();
  const uint64_t seed = 0x5eed;
  write_backing(seed);
  const std::vector<Io> ios = shuffled_layout(2);
  const Target target = Target::open_read_only(m_target_path);
  IoQueue q(create_engine(c.engine), target, c.queue_depth, k_max_block_bytes);

  // In waves of queue_depth: a buffer stays untouched from its completion until it is staged
  // again, so each wave's buffers can be checked after the wave is reaped.
  std::vector<std::byte> expected(k_max_block_bytes);
  for (size_t first = 0; first < ios.size(); first += c.queue_depth) {
    const size_t count = std::min<size_t>(c.queue_depth, ios.size() - first);
    std::vector<std::span<std::byte>> buffers;
    for (size_t i = 0; i < count; ++i) {
      const Io& io = ios[first + i];
      buffers.push_back(q.stage(IoOp::read, io.offset_bytes, io.length_bytes));
      std::memset(buffers.back().data(), 0xee, buffers.back().size());
    }
    ASSERT_EQ(q.flush(), 0);
    while (q.in_flight() > 0) {
      const int reaped = q.reap(q.in_flight(), k_roundtrip_reap_timeout_ns);
      ASSERT_TRUE(reaped >= 0 || reaped == -EINTR) << reaped;
    }
    ASSERT_FALSE(q.has_error()) << "errno " << q.first_error()->errnum;
    for (size_t i = 0; i < count; ++i) {
      const Io& io = ios[first + i];
      fill_pattern(expected.data(), io.length_bytes, io.offset_bytes, seed);
      ASSERT_EQ(std::memcmp(buffers[i].data(), expected.data(), io.length_bytes), 0)
          << "read of " << io.length_bytes << " bytes at " << io.offset_bytes;
    }
  }
  EXPECT_EQ(q.stats().read.ios, ios.size());
  EXPECT_EQ(q.stats().write.ios, 0u);
}

INSTANTIATE_TEST_SUITE_P(Engines, EngineRoundTrip,
                         ::testing::Values(RoundTripCase{"sync", false, 1}, RoundTripCase{"sync", false, 32},
                                           RoundTripCase{"libaio", false, 1}, RoundTripCase{"libaio", false, 32},
                                           RoundTripCase{"sync", true, 1}, RoundTripCase{"sync", true, 32},
                                           RoundTripCase{"libaio", true, 1}, RoundTripCase{"libaio", true, 32},
                                           RoundTripCase{"io_uring", false, 1}, RoundTripCase{"io_uring", false, 32},
                                           RoundTripCase{"io_uring", true, 1}, RoundTripCase{"io_uring", true, 32}),
                         [](const ::testing::TestParamInfo<RoundTripCase>& param_info) {
                           return std::string(param_info.param.engine) + (param_info.param.loop ? "_loop" : "_file") +
                                  "_qd" + std::to_string(param_info.param.queue_depth);
                         });

TEST(NullEngineRoundTrip, CountsEveryIoAndLeavesTheMediumUntouched) {
  test_support::ShmTempDir dir;
  const std::string path = dir.create_file("backing.img", k_target_bytes);
  const std::vector<Io> ios = shuffled_layout(3);
  {
    const Target target = Target::open(test_support::writable(path).writable());
    IoQueue q(create_engine("null"), target, 32, k_max_block_bytes);
    size_t next = 0;
    while (next < ios.size()) {
      while (q.free_slots() > 0 && next < ios.size()) {
        const std::span<std::byte> buffer = q.stage(IoOp::write, ios[next].offset_bytes, ios[next].length_bytes);
        std::memset(buffer.data(), 0xff, buffer.size());
        ++next;
      }
      ASSERT_EQ(q.flush(), 0);
      ASSERT_GE(q.reap(1, k_roundtrip_reap_timeout_ns), 1);
    }
    q.drain();
    EXPECT_EQ(q.stats().write.ios, ios.size());
  }
  std::vector<std::byte> image(k_target_bytes, std::byte{1});
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  ASSERT_EQ(::pread(fd.get(), image.data(), image.size(), 0), static_cast<ssize_t>(image.size()));
  EXPECT_TRUE(std::all_of(image.begin(), image.end(), [](std::byte b) { return b == std::byte{0}; }));
}

}  // namespace
}  // namespace ptsuite::engine
