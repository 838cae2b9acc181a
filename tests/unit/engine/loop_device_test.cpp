// LoopDevice: native attach (LOOP_CONFIGURE and the legacy ioctl sequence), the flags the
// kernel reports back through sysfs, partition scanning, and detaching on every path.
// Root only: skipped with the reason otherwise.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <ptsuite/engine/loop_device.hpp>
#include <ptsuite/util/fd.hpp>

#include "support/loop_support.hpp"

namespace ptsuite::engine {
namespace {

using test_support::loop_bound_to;
using test_support::loop_sysfs_attribute;
using test_support::LoopDeviceFixture;

class LoopDeviceTest : public LoopDeviceFixture {};

TEST_F(LoopDeviceTest, AttachesWithDirectIoAutoclearAndTheRequestedBlockSize) {
  LoopOptions options;
  options.logical_block_bytes = 4096;
  const auto& loop = attach_loop(8 << 20, options);
  const LoopDevice& device = loop.device;
  ASSERT_TRUE(device.attached());
  EXPECT_EQ(device.path(), "/dev/loop" + std::to_string(device.number()));
  EXPECT_TRUE(std::filesystem::is_block_file(device.path()));
  EXPECT_EQ(loop_sysfs_attribute(device.number(), "loop/backing_file"), loop.backing_path);
  EXPECT_EQ(loop_sysfs_attribute(device.number(), "loop/autoclear"), "1");
  EXPECT_EQ(loop_sysfs_attribute(device.number(), "loop/partscan"), "0");
  EXPECT_EQ(loop_sysfs_attribute(device.number(), "loop/dio"), device.direct_io() ? "1" : "0");
  EXPECT_TRUE(device.direct_io()) << "tmpfs supports direct IO since Linux 6.6";
  EXPECT_EQ(loop_sysfs_attribute(device.number(), "queue/logical_block_size"), "4096");
  EXPECT_EQ(loop_sysfs_attribute(device.number(), "size"), std::to_string((8 << 20) / 512));
}

TEST_F(LoopDeviceTest, LegacyIoctlSequenceGivesTheSameDevice) {
  LoopOptions options;
  options.logical_block_bytes = 4096;
  options.legacy_setup = true;
  const auto& loop = attach_loop(4 << 20, options);
  const uint32_t number = loop.device.number();
  EXPECT_EQ(loop_sysfs_attribute(number, "loop/backing_file"), loop.backing_path);
  EXPECT_EQ(loop_sysfs_attribute(number, "loop/autoclear"), "1");
  EXPECT_EQ(loop_sysfs_attribute(number, "loop/dio"), "1");
  EXPECT_TRUE(loop.device.direct_io());
  EXPECT_EQ(loop_sysfs_attribute(number, "queue/logical_block_size"), "4096");
}

TEST_F(LoopDeviceTest, BufferedWhenAskedTo) {
  LoopOptions options;
  options.direct_io = false;
  const auto& loop = attach_loop(1 << 20, options);
  EXPECT_FALSE(loop.device.direct_io());
  EXPECT_EQ(loop_sysfs_attribute(loop.device.number(), "loop/dio"), "0");
}

// LO_FLAGS_PARTSCAN is what lets the kernel (re)read a partition table: BLKRRPART fails with
// EINVAL on a loop device without it. (Observing partitions themselves needs the kernel's
// partition parsers, which some kernels, this project's test machines included, leave out;
// BLKPG_ADD_PARTITION works either way.)
TEST_F(LoopDeviceTest, PartitionScanLetsTheKernelRereadPartitions) {
  LoopOptions scan;
  scan.partition_scan = true;
  const auto& with_scan = attach_loop(4 << 20, scan);
  const auto& without_scan = attach_loop(4 << 20);
  EXPECT_EQ(loop_sysfs_attribute(with_scan.device.number(), "loop/partscan"), "1");
  EXPECT_EQ(loop_sysfs_attribute(without_scan.device.number(), "loop/partscan"), "0");
  EXPECT_EQ(::ioctl(with_scan.device.fd(), BLKRRPART, 0), 0) << std::strerror(errno);
  EXPECT_EQ(::ioctl(without_scan.device.fd(), BLKRRPART, 0), -1);
  EXPECT_EQ(errno, EINVAL);
}

TEST_F(LoopDeviceTest, LegacySetupAlsoHonoursPartitionScan) {
  LoopOptions options;
  options.partition_scan = true;
  options.legacy_setup = true;
  const auto& loop = attach_loop(4 << 20, options);
  EXPECT_EQ(loop_sysfs_attribute(loop.device.number(), "loop/partscan"), "1");
  EXPECT_EQ(::ioctl(loop.device.fd(), BLKRRPART, 0), 0) << std::strerror(errno);
}

TEST_F(LoopDeviceTest, DetachIsIdempotentAndUnbindsTheDevice) {
  const std::string backing = temp_dir().create_file("d.img", 1 << 20);
  LoopDevice device = test_support::attach_loop_over(backing);
  const uint32_t number = device.number();
  ASSERT_TRUE(loop_bound_to(number, backing));
  device.detach();
  EXPECT_FALSE(device.attached());
  EXPECT_FALSE(loop_bound_to(number, backing));
  device.detach();
}

TEST_F(LoopDeviceTest, DestructorDetachesAlsoWhenAnExceptionUnwinds) {
  const std::string backing = temp_dir().create_file("e.img", 1 << 20);
  uint32_t number = 0;
  try {
    const LoopDevice device = test_support::attach_loop_over(backing);
    number = device.number();
    ASSERT_TRUE(loop_bound_to(number, backing));
    throw std::runtime_error("unwind");
  } catch (const std::runtime_error&) {
  }
  EXPECT_FALSE(loop_bound_to(number, backing));
}

TEST_F(LoopDeviceTest, MoveAssignmentDetachesTheOverwrittenDevice) {
  const std::string first_backing = temp_dir().create_file("m1.img", 1 << 20);
  const std::string second_backing = temp_dir().create_file("m2.img", 1 << 20);
  LoopDevice first = test_support::attach_loop_over(first_backing);
  LoopDevice second = test_support::attach_loop_over(second_backing);
  const uint32_t first_number = first.number();
  const uint32_t second_number = second.number();
  first = std::move(second);
  EXPECT_FALSE(loop_bound_to(first_number, first_backing));
  EXPECT_TRUE(loop_bound_to(second_number, second_backing));
  EXPECT_EQ(first.number(), second_number);
  first.detach();
  EXPECT_FALSE(loop_bound_to(second_number, second_backing));
}

// Someone else's LOOP_CLR_FD while we hold the device only marks it for detaching (the kernel
// waits for the last close); our detach() must still complete the job without an error.
TEST_F(LoopDeviceTest, DetachToleratesAClearByOthers) {
  const std::string backing = temp_dir().create_file("o.img", 1 << 20);
  LoopDevice device = test_support::attach_loop_over(backing);
  {
    const UniqueFd other(::open(device.path().c_str(), O_RDONLY | O_CLOEXEC));
    ASSERT_TRUE(other.valid());
    ASSERT_EQ(::ioctl(other.get(), LOOP_CLR_FD, 0), 0);
  }
  device.detach();
  EXPECT_FALSE(device.attached());
  EXPECT_FALSE(loop_bound_to(device.number(), backing));
}

TEST(LoopDeviceAvailability, ReasonIsEmptyExactlyWhenUsable) {
  const std::string reason = LoopDevice::unavailable_reason();
  if (::geteuid() != 0) {
    EXPECT_NE(reason.find("root"), std::string::npos) << reason;
  } else if (!std::filesystem::exists("/dev/loop-control")) {
    EXPECT_NE(reason.find("loop-control"), std::string::npos) << reason;
  } else {
    EXPECT_EQ(reason, "");
  }
}

}  // namespace
}  // namespace ptsuite::engine
