// The safety gate against a fake /proc and /sys tree: every refusal reason, the partition and
// holder-chain cases, btrfs' anonymous device numbers, and the allowed cases.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <ptsuite/device/safety.hpp>
#include <ptsuite/util/error.hpp>
#include "device/sysfs.hpp"
#include "unit/device/fake_system_tree.hpp"

namespace ptsuite::device {
namespace {

using testing::FakeSystemTree;

class SafetyFakeTree : public ::testing::Test {
 protected:
  void SetUp() override {
    sda_ = tree_.add_disk("sda", 8, 0, "pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0");
    sda_rel_ = std::filesystem::relative(sda_, tree_.root()).string();
    sda1_ = tree_.add_partition(sda_rel_, "sda1", 8, 1, 1);
    sda2_ = tree_.add_partition(sda_rel_, "sda2", 8, 2, 2);
    sdb_ = tree_.add_disk("sdb", 8, 16);
    tree_.add_disk("vda", 254, 0);
    tree_.add_mount(254, 0, "/", "/dev/vda");
  }
  SafetyVerdict check(unsigned major, unsigned minor) {
    return check_device_number_allowed(major, minor, "/dev/x", tree_.roots());
  }

  FakeSystemTree tree_;
  std::filesystem::path sda_, sda1_, sda2_, sdb_;
  std::string sda_rel_;
};

TEST_F(SafetyFakeTree, UnusedDiskIsAllowed) {
  const auto v = check(8, 16);
  EXPECT_TRUE(v.allowed) << v.reason;
  EXPECT_TRUE(v.reason.empty());
}

TEST_F(SafetyFakeTree, RootDeviceIsRefused) {
  const auto v = check(254, 0);
  EXPECT_FALSE(v.allowed);
  EXPECT_EQ(v.reason, "refusing to write to /dev/x: vda backs the root filesystem /");
}

TEST_F(SafetyFakeTree, MountedDiskIsRefusedByDeviceNumber) {
  // The source name is deliberately wrong: matching is by device number.
  tree_.add_mount(8, 16, "/mnt/data", "/dev/some-alias");
  const auto v = check(8, 16);
  EXPECT_FALSE(v.allowed);
  EXPECT_EQ(v.reason, "refusing to write to /dev/x: sdb is mounted at /mnt/data");
}

TEST_F(SafetyFakeTree, MountPointEscapesAreDecoded) {
  tree_.add_mount(8, 16, "/mnt/my\\040disk", "/dev/sdb");
  EXPECT_EQ(check(8, 16).reason, "refusing to write to /dev/x: sdb is mounted at /mnt/my disk");
}

TEST_F(SafetyFakeTree, DiskWithMountedPartitionIsRefused) {
  tree_.add_mount(8, 2, "/home", "/dev/sda2");
  const auto v = check(8, 0);
  EXPECT_FALSE(v.allowed);
  EXPECT_EQ(v.reason, "refusing to write to /dev/x: partition sda2 is mounted at /home");
}

TEST_F(SafetyFakeTree, SiblingPartitionIsIndependentButParentDiskCounts) {
  tree_.add_mount(8, 2, "/home", "/dev/sda2");
  EXPECT_TRUE(check(8, 1).allowed);  // sda1 while sda2 is mounted
  EXPECT_FALSE(check(8, 2).allowed);
  tree_.add_swap("/dev/sda");
  EXPECT_EQ(check(8, 1).reason, "refusing to write to /dev/x: parent disk sda is active swap");
}

TEST_F(SafetyFakeTree, BtrfsAnonymousDeviceNumberIsMatchedBySource) {
  tree_.add_mount(0, 45, "/srv", "/dev/sda1", "btrfs");
  EXPECT_EQ(check(8, 0).reason, "refusing to write to /dev/x: partition sda1 is mounted at /srv");
}

TEST_F(SafetyFakeTree, BtrfsMemberDeviceIsRefused) {
  tree_.write("sys/fs/btrfs/0123-4567/devices/.keep", "");
  std::filesystem::remove(tree_.root() / "sys/fs/btrfs/0123-4567/devices/.keep");
  std::filesystem::create_directory_symlink(sdb_, tree_.root() / "sys/fs/btrfs/0123-4567/devices/sdb");
  EXPECT_EQ(check(8, 16).reason, "refusing to write to /dev/x: sdb is a member of a mounted btrfs filesystem");
}

TEST_F(SafetyFakeTree, SwapPartitionIsRefused) {
  tree_.add_swap("/dev/sda1");
  EXPECT_EQ(check(8, 0).reason, "refusing to write to /dev/x: partition sda1 is active swap");
}

TEST_F(SafetyFakeTree, SwapThroughDevSymlinkIsResolved) {
  std::filesystem::create_directories(tree_.root() / "dev/disk/by-id");
  tree_.write("dev/sdb", "");
  std::filesystem::create_symlink("../../sdb", tree_.root() / "dev/disk/by-id/ata-SSD_123");
  tree_.add_swap("/dev/disk/by-id/ata-SSD_123");
  EXPECT_EQ(check(8, 16).reason, "refusing to write to /dev/x: sdb is active swap");
}

TEST_F(SafetyFakeTree, HolderIsRefusedAndNamed) {
  const auto dm = tree_.add_disk("dm-3", 253, 3);
  tree_.add_holder(sdb_, "dm-3", dm, "sdb");
  EXPECT_EQ(check(8, 16).reason, "refusing to write to /dev/x: sdb is held by dm-3 (device-mapper, md, LVM or bcache)");
}

TEST_F(SafetyFakeTree, HolderChainToMountIsExplained) {
  const auto md = tree_.add_disk("md0", 9, 0);
  const auto dm = tree_.add_disk("dm-0", 253, 0);
  tree_.add_holder(sda1_, "md0", md, "sda1");
  tree_.add_holder(md, "dm-0", dm, "md0");
  tree_.add_mount(253, 0, "/var", "/dev/mapper/vg-var");
  EXPECT_EQ(check(8, 0).reason,
            "refusing to write to /dev/x: partition sda1 is held by md0, which is held by dm-0, "
            "which is mounted at /var");
}

TEST_F(SafetyFakeTree, RootThroughHolderChainMarksTheLowerDevice) {
  // "/" on dm-1 whose slave is sda2: sda (the disk) backs root.
  FakeSystemTree tree;
  const auto sdc = tree.add_disk("sdc", 8, 32);
  const auto sdc2 = tree.add_partition(std::filesystem::relative(sdc, tree.root()).string(), "sdc2", 8, 34, 2);
  const auto dm = tree.add_disk("dm-1", 253, 1);
  tree.add_holder(sdc2, "dm-1", dm, "sdc2");
  tree.add_mount(253, 1, "/", "/dev/mapper/root");
  const auto v = check_device_number_allowed(8, 32, "/dev/sdc", tree.roots());
  EXPECT_EQ(v.reason, "refusing to write to /dev/sdc: partition sdc2 backs the root filesystem /");
}

TEST_F(SafetyFakeTree, UnknownDeviceNumberIsRefused) {
  const auto v = check(7, 99);
  EXPECT_FALSE(v.allowed);
  EXPECT_NE(v.reason.find("7:99"), std::string::npos);
  EXPECT_EQ(v.reason.find('\n'), std::string::npos);
}

TEST(Safety, RegularFilesAndMissingPathsAreAllowedWithoutFlag) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto file = dir / "ptsuite-safety-regular-file";
  std::ofstream(file) << "x";
  EXPECT_TRUE(check_destructive_allowed(file.string()).allowed);
  EXPECT_NO_THROW(require_destructive_allowed(file.string(), false));
  EXPECT_TRUE(check_destructive_allowed((dir / "ptsuite-no-such-file").string()).allowed);
  std::filesystem::remove(file);
}

TEST(Safety, RootDiskOfThisMachineIsRefusedReadOnly) {
  // Only reads /proc and /sys. Skips where "/" is not on a block device (containers).
  const auto mounts = sysfs::read_mountinfo({});
  const sysfs::MountEntry* root = nullptr;
  for (const auto& m : mounts) {
    if (m.mount_point == "/") root = &m;
  }
  if (root == nullptr || root->devnum.major == 0) {
    GTEST_SKIP() << "/ is not on a block device here";
  }
  const auto v = check_device_number_allowed(root->devnum.major, root->devnum.minor, "root", {});
  EXPECT_FALSE(v.allowed);
  EXPECT_NE(v.reason.find("backs the root filesystem"), std::string::npos) << v.reason;
}

TEST(SysfsParsing, DevnumAndEscapes) {
  EXPECT_EQ(sysfs::parse_devnum("259:12"), (sysfs::DevNum{259, 12}));
  EXPECT_FALSE(sysfs::parse_devnum("259"));
  EXPECT_FALSE(sysfs::parse_devnum("a:1"));
  EXPECT_FALSE(sysfs::parse_devnum(":1"));
  EXPECT_EQ(sysfs::unescape_octal("/a\\040b\\011c\\134"), "/a b\tc\\");
  EXPECT_EQ(sysfs::unescape_octal("tail\\04"), "tail\\04");
}

}  // namespace
}  // namespace ptsuite::device

namespace ptsuite::device {
namespace {

TEST(SafetyNamespaces, SanitizeChecksEveryNamespaceOfTheController) {
  testing::FakeSystemTree tree;
  const char* ctrl = "pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0";
  tree.add_disk("nvme0n1", 259, 0, ctrl);
  tree.add_disk("nvme0n2", 259, 1, ctrl);
  tree.add_disk("nvme1n1", 259, 2, "pci0000:00/0000:00:1c.0/0000:3e:00.0/nvme/nvme1");
  tree.write(std::string("sys/devices/") + ctrl + "/dev", "243:0\n");  // the controller's char dev
  EXPECT_TRUE(check_sibling_namespaces_allowed("nvme0n1", "/dev/nvme0n1", tree.roots()).allowed);
  tree.add_mount(259, 2, "/other", "/dev/nvme1n1");  // another controller: irrelevant
  EXPECT_TRUE(check_sibling_namespaces_allowed("nvme0n1", "/dev/nvme0n1", tree.roots()).allowed);
  tree.add_mount(259, 1, "/data", "/dev/nvme0n2");
  const auto v = check_sibling_namespaces_allowed("nvme0n1", "/dev/nvme0n1", tree.roots());
  EXPECT_FALSE(v.allowed);
  EXPECT_NE(v.reason.find("nvme0n2 is mounted at /data"), std::string::npos) << v.reason;
  EXPECT_NE(v.reason.find("erases every namespace"), std::string::npos);
  EXPECT_EQ(v.reason.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace ptsuite::device
