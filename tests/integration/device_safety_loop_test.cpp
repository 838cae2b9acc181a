// The refusal matrix on real loop devices: a mounted loop device, a loop device with a
// mounted partition, swap on a loop device, a loop device held by device-mapper (where dm
// exists), and no consent flag. Each is refused — by the library and by the CLI with exit 3
// and one line — with 0 bytes written (the backing file's checksum is unchanged; for swap,
// which the kernel itself may write to, the device's written bytes equal the kernel's swap-out).
#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <fstream>
#include <iterator>

#include <ptsuite/device/passthrough.hpp>
#include <ptsuite/device/purge.hpp>
#include <ptsuite/device/safety.hpp>
#include <ptsuite/util/error.hpp>
#include "integration/device_loop_fixture.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::device {
namespace {

using testing::ActiveSwap;
using testing::file_checksum;
using testing::loop_skip_reason;
using testing::LoopDevice;
using testing::ReadOnlyMount;
using testing::run_command;
using testing::run_ptsuite;
using testing::TempDir;
using testing::unique_name;

constexpr uint64_t k_safety_target_bytes = 64ULL << 20;

// Tries every destructive entry point on `target`; each must refuse with `expected` in the
// message. Returns nothing; failures are test failures.
void expect_refused_everywhere(const std::string& target, const std::string& expected) {
  PurgeOptions opts;
  opts.method = PurgeMethod::zero_fill;
  opts.allow_destructive = true;
  try {
    purge(target, opts);
    ADD_FAILURE() << "purge was not refused";
  } catch (const SafetyRefusal& e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
  EXPECT_THROW((void)test_support::writable(target), SafetyRefusal);  // no token, no channel
  EXPECT_THROW(require_destructive_allowed(target, true), SafetyRefusal);
  const auto cli = run_ptsuite("device purge " + target + " --method zero-fill --allow-destructive");
  EXPECT_EQ(cli.exit_code, 3) << cli.err;
  EXPECT_NE(cli.err.find(expected), std::string::npos) << cli.err;
  EXPECT_EQ(std::count(cli.err.begin(), cli.err.end(), '\n'), 1) << cli.err;
}

class DeviceSafetyLoop : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const auto why = loop_skip_reason(); !why.empty()) GTEST_SKIP() << why;
    if (run_command("(command -v mkfs.ext4 && command -v mkswap)") != 0) GTEST_SKIP() << "mkfs.ext4/mkswap missing";
  }
};

TEST_F(DeviceSafetyLoop, MountedLoopDeviceIsRefused) {
  LoopDevice loop(k_safety_target_bytes, false);
  ASSERT_TRUE(loop.ok());
  TempDir dir;
  ReadOnlyMount mount(loop.path(), dir.path());
  ASSERT_TRUE(mount.ok());
  const uint64_t before = file_checksum(loop.backing());
  expect_refused_everywhere(loop.path(), loop.name() + " is mounted at " + dir.path());
  EXPECT_EQ(file_checksum(loop.backing()), before);
}

TEST_F(DeviceSafetyLoop, LoopDeviceWithMountedPartitionIsRefused) {
  LoopDevice loop(k_safety_target_bytes, true);
  ASSERT_TRUE(loop.ok());
  ASSERT_TRUE(loop.add_partition(1 << 20, 32 << 20));
  TempDir dir;
  ReadOnlyMount mount(loop.partition_path(), dir.path());
  ASSERT_TRUE(mount.ok());
  const uint64_t before = file_checksum(loop.backing());
  expect_refused_everywhere(loop.path(), "partition " + loop.name() + "p1 is mounted at " + dir.path());
  EXPECT_EQ(file_checksum(loop.backing()), before);
}

// One counter of /proc/vmstat ("pswpout": pages the kernel wrote to swap).
uint64_t vmstat_counter(const std::string& key) {
  std::ifstream in("/proc/vmstat");
  std::string name;
  uint64_t value = 0;
  while (in >> name >> value) {
    if (name == key) {
      return value;
    }
  }
  ADD_FAILURE() << "no " << key << " in /proc/vmstat";
  return 0;
}

// Sectors (512 bytes) written to a block device since it appeared: field 7 of
// /sys/block/<name>/stat (Documentation/block/stat.rst).
uint64_t written_sectors(const std::string& name) {
  std::ifstream in("/sys/block/" + name + "/stat");
  uint64_t fields[7] = {};
  for (uint64_t& f : fields) {
    in >> f;
  }
  EXPECT_TRUE(in.good()) << "cannot read /sys/block/" << name << "/stat";
  return fields[6];
}

// Active swap is the kernel's to write: it may page out to it at any moment (it did, under
// the memory pressure of an ASan run). So instead of the backing file's checksum, the bytes
// written to the device are accounted for: everything written during the attempts must be
// the kernel's swap-out (pswpout pages of 4 KiB; ours is the only swap device). Any byte
// from ptsuite would show as a surplus.
TEST_F(DeviceSafetyLoop, SwapOnLoopDeviceIsRefused) {
  LoopDevice loop(k_safety_target_bytes, false);
  ASSERT_TRUE(loop.ok());
  ActiveSwap swap(loop.path());
  if (!swap.ok()) GTEST_SKIP() << "swapon not permitted here";
  std::ifstream swaps("/proc/swaps");
  const std::string swaps_text((std::istreambuf_iterator<char>(swaps)), std::istreambuf_iterator<char>());
  if (std::count(swaps_text.begin(), swaps_text.end(), '\n') != 2) {
    GTEST_SKIP() << "another swap device is active; the kernel's swap-out could not be told apart";
  }
  const uint64_t sectors_before = written_sectors(loop.name());
  const uint64_t swapped_before = vmstat_counter("pswpout");
  expect_refused_everywhere(loop.path(), loop.name() + " is active swap");
  // pswpout counts a page when its write is submitted, the device's stat when it completes:
  // give swap-out still in flight up to 2 s to land.
  const auto page_bytes = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  uint64_t written_bytes = 0;
  uint64_t swapped_bytes = 0;
  for (int i = 0; i < 200; ++i) {
    swapped_bytes = (vmstat_counter("pswpout") - swapped_before) * page_bytes;
    written_bytes = (written_sectors(loop.name()) - sectors_before) * 512;
    if (written_bytes == swapped_bytes) {
      break;
    }
    ::usleep(10'000);
  }
  EXPECT_EQ(written_bytes, swapped_bytes) << "bytes written to the device beyond the kernel's own swap-out";
}

TEST_F(DeviceSafetyLoop, LoopDeviceHeldByDeviceMapperIsRefused) {
  if (::access("/dev/mapper/control", F_OK) != 0 || run_command("command -v dmsetup") != 0) {
    GTEST_SKIP() << "no device-mapper on this kernel (holders are covered by the fake-sysfs tests)";
  }
  LoopDevice loop(k_safety_target_bytes, false);
  ASSERT_TRUE(loop.ok());
  const std::string name = unique_name("ptsuite-devtest-dm");
  if (run_command("dmsetup create " + name + " --table '0 " + std::to_string(k_safety_target_bytes / 512) + " linear " +
                  loop.path() + " 0'") != 0) {
    GTEST_SKIP() << "dmsetup create failed";
  }
  const uint64_t before = file_checksum(loop.backing());
  expect_refused_everywhere(loop.path(), loop.name() + " is held by dm-");
  EXPECT_EQ(file_checksum(loop.backing()), before);
  EXPECT_EQ(run_command("dmsetup remove " + name), 0);
}

TEST_F(DeviceSafetyLoop, NoConsentFlagIsRefused) {
  LoopDevice loop(k_safety_target_bytes, false);
  ASSERT_TRUE(loop.ok());
  const uint64_t before = file_checksum(loop.backing());
  PurgeOptions opts;
  opts.method = PurgeMethod::zero_fill;
  try {
    purge(loop.path(), opts);
    ADD_FAILURE() << "not refused";
  } catch (const SafetyRefusal& e) {
    EXPECT_NE(std::string(e.what()).find("--allow-destructive"), std::string::npos);
  }
  EXPECT_THROW((void)open_destructive_channel(test_support::writable(loop.path()).writable(), false), SafetyRefusal);
  const auto cli = run_ptsuite("device purge " + loop.path() + " --method zero-fill");
  EXPECT_EQ(cli.exit_code, 3);
  EXPECT_NE(cli.err.find("--allow-destructive"), std::string::npos) << cli.err;
  EXPECT_EQ(file_checksum(loop.backing()), before);
  // The unused device itself passes the gate once consent is given.
  EXPECT_TRUE(check_destructive_allowed(loop.path()).allowed);
}

TEST(DeviceSafetyFile, PurgeOfAFileNeedsConsentToo) {
  TempDir dir;
  const std::string file = dir.path() + "/target.img";
  {
    std::ofstream out(file, std::ios::binary);
    out << std::string(1 << 20, 'x');
  }
  const uint64_t before = file_checksum(file);
  const auto cli = run_ptsuite("device purge " + file + " --method zero-fill");
  EXPECT_EQ(cli.exit_code, 3);
  EXPECT_EQ(file_checksum(file), before);
  EXPECT_EQ(run_ptsuite("device purge " + file + " --method nvme-format --allow-destructive").exit_code, 2);
  EXPECT_EQ(file_checksum(file), before);
}

}  // namespace
}  // namespace ptsuite::device
