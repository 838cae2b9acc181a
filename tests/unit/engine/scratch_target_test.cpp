// ScratchTarget: loop device or O_DIRECT file in /dev/shm, random fill, and cleanup on every
// path (normal destruction, exception unwinding, moves). Each test points the scratch
// directory at a private temp dir so "nothing left behind" can be checked exactly.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include <ptsuite/engine/scratch_target.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/fd.hpp>

#include "support/loop_support.hpp"
#include "support/temp_dir.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::engine {
namespace {

using test_support::loop_bound_to;
using test_support::ShmTempDir;

size_t entries_in(const std::string& dir) {
  return static_cast<size_t>(std::distance(std::filesystem::directory_iterator(dir), {}));
}

// The first `bytes` of `path`, read without O_DIRECT.
std::vector<unsigned char> head_of(const std::string& path, size_t bytes) {
  std::vector<unsigned char> data(bytes);
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  EXPECT_TRUE(fd.valid()) << path;
  EXPECT_EQ(::pread(fd.get(), data.data(), bytes, 0), static_cast<ssize_t>(bytes));
  return data;
}

class ScratchTargetTest : public ::testing::Test {
 protected:
  ScratchOptions options() const {
    ScratchOptions o;
    o.directory = m_dir.path();
    return o;
  }
  ShmTempDir m_dir;
};

TEST_F(ScratchTargetTest, FileKindIsAnODirectFileRemovedOnDestruction) {
  std::string path;
  {
    const ScratchTarget scratch = ScratchTarget::create(1 << 20, false, options());
    EXPECT_EQ(scratch.kind(), ScratchKind::file);
    EXPECT_EQ(scratch.loop(), nullptr);
    path = scratch.path();
    EXPECT_EQ(path.rfind(m_dir.path() + "/ptsuite-scratch-", 0), 0u) << path;
    EXPECT_EQ(std::filesystem::file_size(path), 1u << 20);
    EXPECT_NE(scratch.description().find("O_DIRECT file"), std::string::npos) << scratch.description();
    const Target target = Target::open(test_support::writable(path).writable());
    EXPECT_EQ(target.geometry().capacity_bytes, 1u << 20);
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_EQ(entries_in(m_dir.path()), 0u);
}

TEST_F(ScratchTargetTest, SizeIsRoundedUpToWholePagesAndZeroIsRefused) {
  const ScratchTarget scratch = ScratchTarget::create(5000, false, options());
  EXPECT_EQ(scratch.size_bytes(), 8192u);
  EXPECT_EQ(std::filesystem::file_size(scratch.path()), 8192u);
  EXPECT_THROW(ScratchTarget::create(0, false, options()), UsageError);
  EXPECT_EQ(entries_in(m_dir.path()), 1u);  // the refused one left nothing
}

TEST_F(ScratchTargetTest, RandomFillIsSeededAndNotZero) {
  ScratchOptions o = options();
  o.fill_random = true;
  o.fill_seed = 7;
  const ScratchTarget a = ScratchTarget::create(3 << 20, false, o);
  const ScratchTarget b = ScratchTarget::create(3 << 20, false, o);
  o.fill_seed = 8;
  const ScratchTarget c = ScratchTarget::create(3 << 20, false, o);
  const std::vector<unsigned char> head_a = head_of(a.path(), 3 << 20);
  EXPECT_EQ(head_a, head_of(b.path(), 3 << 20));
  EXPECT_NE(head_a, head_of(c.path(), 3 << 20));
  // Pseudo-random bytes are zero about once in 256, up to the very end of the target.
  EXPECT_LT(std::count(head_a.begin(), head_a.end(), 0), static_cast<long>(head_a.size() / 128));
  EXPECT_LT(std::count(head_a.end() - 4096, head_a.end(), 0), 64);
}

TEST_F(ScratchTargetTest, FileIsRemovedWhenAnExceptionUnwinds) {
  std::string path;
  try {
    const ScratchTarget scratch = ScratchTarget::create(1 << 20, false, options());
    path = scratch.path();
    throw std::runtime_error("unwind");
  } catch (const std::runtime_error&) {
  }
  EXPECT_FALSE(path.empty());
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST_F(ScratchTargetTest, MovedFromTargetsLeaveTheResourcesToTheirNewOwner) {
  std::string path;
  {
    ScratchTarget first = ScratchTarget::create(1 << 20, false, options());
    path = first.path();
    ScratchTarget second = std::move(first);
    { const ScratchTarget sink = std::move(second); }  // the owner goes here
    EXPECT_FALSE(std::filesystem::exists(path));
    ScratchTarget third = ScratchTarget::create(1 << 20, false, options());
    const std::string third_path = third.path();
    third = ScratchTarget::create(1 << 20, false, options());  // releases the old one
    EXPECT_FALSE(std::filesystem::exists(third_path));
    EXPECT_TRUE(std::filesystem::exists(third.path()));
  }
  EXPECT_EQ(entries_in(m_dir.path()), 0u);
}

TEST_F(ScratchTargetTest, LoopKindUnlinksItsBackingFileAndDetachesOnDestruction) {
  PTSUITE_SKIP_WITHOUT_LOOP();
  uint32_t number = 0;
  {
    const ScratchTarget scratch = ScratchTarget::create(4 << 20, true, options());
    ASSERT_EQ(scratch.kind(), ScratchKind::loop_device) << scratch.description();
    ASSERT_NE(scratch.loop(), nullptr);
    number = scratch.loop()->number();
    EXPECT_EQ(scratch.path(), "/dev/loop" + std::to_string(number));
    EXPECT_NE(scratch.description().find("direct IO"), std::string::npos) << scratch.description();
    // Nothing in the directory: a SIGKILL now would leave nothing behind.
    EXPECT_EQ(entries_in(m_dir.path()), 0u);
    EXPECT_TRUE(loop_bound_to(number, m_dir.path()));
    const Target target = Target::open(test_support::writable(scratch.path()).writable());
    EXPECT_EQ(target.kind(), TargetKind::block_device);
    EXPECT_EQ(target.geometry().capacity_bytes, 4u << 20);
  }
  EXPECT_FALSE(loop_bound_to(number, m_dir.path()));
}

TEST_F(ScratchTargetTest, LoopIsDetachedWhenAnExceptionUnwinds) {
  PTSUITE_SKIP_WITHOUT_LOOP();
  uint32_t number = 0;
  try {
    const ScratchTarget scratch = ScratchTarget::create(1 << 20, true, options());
    ASSERT_EQ(scratch.kind(), ScratchKind::loop_device) << scratch.description();
    number = scratch.loop()->number();
    throw std::runtime_error("unwind");
  } catch (const std::runtime_error&) {
  }
  EXPECT_FALSE(loop_bound_to(number, m_dir.path()));
}

TEST_F(ScratchTargetTest, LoopWithFourKibBlocksAndRandomFill) {
  PTSUITE_SKIP_WITHOUT_LOOP();
  ScratchOptions o = options();
  o.loop_logical_block_bytes = 4096;
  o.fill_random = true;
  const ScratchTarget scratch = ScratchTarget::create(2 << 20, true, o);
  ASSERT_EQ(scratch.kind(), ScratchKind::loop_device) << scratch.description();
  const Target target = Target::open_read_only(scratch.path());
  EXPECT_EQ(target.geometry().logical_block_bytes, 4096u);
  const std::vector<unsigned char> head = head_of(scratch.path(), 1 << 20);
  EXPECT_LT(std::count(head.begin(), head.end(), 0), static_cast<long>(head.size() / 128));
}

// A loop the kernel refuses (3000-byte blocks are not a power of two) must not lose the target:
// it falls back to the file, says why, and leaves no loop device bound.
TEST_F(ScratchTargetTest, RefusedLoopFallsBackToAFileAndSaysWhy) {
  PTSUITE_SKIP_WITHOUT_LOOP();
  ScratchOptions o = options();
  o.loop_logical_block_bytes = 3000;
  const ScratchTarget scratch = ScratchTarget::create(1 << 20, true, o);
  EXPECT_EQ(scratch.kind(), ScratchKind::file);
  EXPECT_NE(scratch.description().find("block size 3000"), std::string::npos) << scratch.description();
  EXPECT_TRUE(std::filesystem::exists(scratch.path()));
  for (const auto& entry : std::filesystem::directory_iterator("/sys/block")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("loop", 0) == 0) {
      EXPECT_FALSE(loop_bound_to(static_cast<uint32_t>(std::stoul(name.substr(4))), m_dir.path())) << name;
    }
  }
}

TEST_F(ScratchTargetTest, WithoutRootOrLoopSupportFallsBackToAFileAndSaysWhy) {
  const std::string reason = LoopDevice::unavailable_reason();
  if (reason.empty()) {
    GTEST_SKIP() << "loop devices are available here: the fallback is covered by prefer_loop=false";
  }
  const ScratchTarget scratch = ScratchTarget::create(1 << 20, true, options());
  EXPECT_EQ(scratch.kind(), ScratchKind::file);
  EXPECT_NE(scratch.description().find(reason), std::string::npos) << scratch.description();
}

}  // namespace
}  // namespace ptsuite::engine
