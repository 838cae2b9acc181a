// What the engines really write, read back from the medium through a separate buffered
// descriptor:
//   * engine equivalence: with the same seed, libaio and io_uring issue exactly the IOs the
//     generator decides (direction, size, offset, data) at any queue depth: every written
//     sector carries the tag of a write the generator addressed to it (WrittenDataModel), the
//     counts match the generator's, and at QD 1 the two engines leave byte-identical images;
//   * the default `random` data: every written 4 KiB block incompressible (zstd, Debian's
//     libzstd; compressed size >= 0.99 x original) and no two equal, also when reads of
//     compressible data (zeros) land in the same buffers between writes.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <ptsuite/engine/engine_registry.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/util/fd.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/workload_runner.hpp>

#include "support/temp_dir.hpp"
#include "support/test_outputs.hpp"
#include "support/written_data.hpp"

namespace ptsuite::workload {
namespace {

using units::k_mib;
constexpr size_t k_block_bytes = 4096;

std::string unavailable_reason(const std::string& name) {
  for (const engine::EngineInfo& info : engine::list_engines()) {
    if (info.name == name) {
      return info.unavailable_reason;
    }
  }
  return "not registered";
}

std::vector<std::byte> read_file(const std::string& path, uint64_t bytes) {
  std::vector<std::byte> image(bytes);
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));  // buffered: a separate path
  EXPECT_EQ(::pread(fd.get(), image.data(), image.size(), 0), static_cast<ssize_t>(image.size()));
  return image;
}

// A recognisable, non-zero image: each 8-byte word holds its own offset, scrambled.
std::vector<std::byte> patterned_image(uint64_t bytes) {
  std::vector<std::byte> image(bytes);
  for (uint64_t offset = 0; offset < bytes; offset += 8) {
    const uint64_t word = (offset * 0x9e3779b97f4a7c15ULL) ^ 0x5555aaaa5555aaaaULL;
    std::memcpy(image.data() + offset, &word, 8);
  }
  return image;
}

void write_file(const std::string& path, const std::vector<std::byte>& image) {
  const UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
  ASSERT_EQ(::pwrite(fd.get(), image.data(), image.size(), 0), static_cast<ssize_t>(image.size()));
}

class WrittenData : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    const std::string why_not = unavailable_reason(GetParam());
    if (!why_not.empty()) {
      GTEST_SKIP() << GetParam() << " unavailable here: " << why_not;
    }
  }

  // Runs `spec` on a file holding `before`; returns the result, the resolved workload and the
  // image afterwards.
  WorkloadResult run_on_file(WorkloadSpec spec, const std::vector<std::byte>& before, ResolvedWorkload& resolved,
                             std::vector<std::byte>& after) {
    const std::string file = m_dir.create_file("target-" + std::to_string(m_runs++) + ".img", before.size());
    write_file(file, before);
    spec.engine = GetParam();
    WorkloadResult result;
    {
      const engine::Target target = engine::Target::open(test_support::writable(file).writable());
      resolved = resolve(spec, target.geometry());
      result = run_workload(resolved, target, RunControl{});
    }
    after = read_file(file, before.size());
    return result;
  }

  test_support::ShmTempDir m_dir;
  int m_runs = 0;
};

WorkloadSpec mixed_random_spec(uint32_t threads, uint32_t queue_depth, uint64_t ios) {
  WorkloadSpec s;
  s.pattern = AccessPattern::random;
  s.read_pct = 30;
  s.block_sizes = {{4096, 3}, {16384, 1}};
  s.threads = threads;
  s.queue_depth = queue_depth;
  s.limits.ios = ios;
  s.seed = 77;
  return s;
}

TEST_P(WrittenData, EveryWriteIsTheGeneratorsIoAtAnyQueueDepth) {
  const std::vector<std::byte> before = patterned_image(32 * k_mib);
  ResolvedWorkload w;
  std::vector<std::byte> after;
  const WorkloadResult r = run_on_file(mixed_random_spec(2, 16, 8000), before, w, after);
  ASSERT_EQ(r.stop_reason, StopReason::ios);
  ASSERT_EQ(r.error_count, 0u);
  const test_support::WrittenDataModel model(w, 4000);
  EXPECT_EQ(r.stats.read.ios, model.read_ios());
  EXPECT_EQ(r.stats.write.ios, model.write_ios());
  EXPECT_EQ(r.stats.write.bytes, model.write_bytes());
  EXPECT_EQ(model.check(after, before), "");
}

TEST_P(WrittenData, AtQueueDepthOneTheImageEqualsLibaios) {
  const std::vector<std::byte> before = patterned_image(8 * k_mib);
  const WorkloadSpec spec = mixed_random_spec(1, 1, 1500);
  ResolvedWorkload w;
  std::vector<std::byte> after;
  const WorkloadResult r = run_on_file(spec, before, w, after);
  ASSERT_EQ(r.error_count, 0u);
  EXPECT_EQ(test_support::WrittenDataModel(w, 1500).check(after, before), "");

  // The reference run, with libaio on another file.
  const std::string file = m_dir.create_file("reference.img", before.size());
  write_file(file, before);
  WorkloadSpec reference = spec;
  reference.engine = "libaio";
  {
    const engine::Target target = engine::Target::open(test_support::writable(file).writable());
    run_workload(resolve(reference, target.geometry()), target, RunControl{});
  }
  EXPECT_TRUE(read_file(file, before.size()) == after) << GetParam() << " and libaio left different images";
}

double compressed_fraction(const std::byte* block, size_t bytes) {
  std::vector<char> out(ZSTD_compressBound(bytes));
  const size_t size = ZSTD_compress(out.data(), out.size(), block, bytes, 3);
  EXPECT_FALSE(ZSTD_isError(size)) << ZSTD_getErrorName(size);
  return static_cast<double>(size) / static_cast<double>(bytes);
}

TEST_P(WrittenData, BlocksAreIncompressibleAndNeverRepeatEvenAfterReadsOfZeros) {
  // Sequential, half reads, over a zero-filled file: each block is visited once, so the image
  // keeps every write, and the reads put zeros (maximally compressible) into the buffers that
  // the next writes reuse.
  WorkloadSpec s;
  s.pattern = AccessPattern::sequential;
  s.read_pct = 50;
  s.block_sizes = {{64 * 1024, 1}};
  s.threads = 2;
  s.queue_depth = 8;
  s.limits.bytes_range_multiple = 1;
  s.seed = 4;
  ResolvedWorkload w;
  std::vector<std::byte> after;
  const WorkloadResult r = run_on_file(s, std::vector<std::byte>(16 * k_mib), w, after);
  ASSERT_EQ(r.error_count, 0u);
  ASSERT_GT(r.stats.write.ios, 32u);  // several writes per buffer

  std::unordered_set<std::string_view> blocks;
  const std::vector<std::byte> zeros(k_block_bytes);
  uint64_t written = 0;
  double least_fraction = 2;
  for (size_t offset = 0; offset < after.size(); offset += k_block_bytes) {
    const std::byte* block = after.data() + offset;
    if (std::memcmp(block, zeros.data(), k_block_bytes) == 0) {
      continue;  // read, not written
    }
    ++written;
    EXPECT_TRUE(blocks.emplace(reinterpret_cast<const char*>(block), k_block_bytes).second)
        << "the 4 KiB block at " << offset << " repeats an earlier one";
    least_fraction = std::min(least_fraction, compressed_fraction(block, k_block_bytes));
  }
  EXPECT_EQ(written * k_block_bytes, r.stats.write.bytes) << "a written block is all zeros";
  EXPECT_GE(least_fraction, 0.99) << "zstd compressed a written 4 KiB block to " << least_fraction;
}

INSTANTIATE_TEST_SUITE_P(Engines, WrittenData, ::testing::Values("libaio", "io_uring"),
                         [](const auto& param_info) { return param_info.param; });

}  // namespace
}  // namespace ptsuite::workload
