// The storage relation graph (device/storage_graph.hpp) against a fake /proc and /sys tree
// with real backing files: the overlap rule at both sides of its edge, loop windows (offset and
// size), a second loop device over a mounted image, partitions and their siblings, holders;
// and the safety checks and the target gate asking it. Real kernels: tests/integration/
// storage_relations_test.cpp (loop devices) and tests/vm (md, dm, LVM).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <ptsuite/device/safety.hpp>
#include <ptsuite/device/target_gate.hpp>
#include "device/storage_graph.hpp"
#include "support/temp_dir.hpp"
#include "unit/device/fake_system_tree.hpp"

namespace ptsuite::device {
namespace {

using graph::ByteRange;
using testing::FakeSystemTree;

TEST(StorageGraphRanges, HalfOpenRangesOverlapOnlyWhenTheyShareAByte) {
  EXPECT_FALSE(graph::overlaps({0, 10}, {10, 20}));  // touching is not sharing
  EXPECT_TRUE(graph::overlaps({0, 11}, {10, 20}));
  EXPECT_TRUE(graph::overlaps({15, 16}, {10, 20}));
  EXPECT_FALSE(graph::overlaps({20, 30}, {10, 20}));
  EXPECT_TRUE(graph::overlaps({0, k_unknown_size}, {1ULL << 60, (1ULL << 60) + 1}));  // unknown: everything
  EXPECT_EQ(graph::intersect({0, 11}, {10, 20}), (ByteRange{10, 11}));
  EXPECT_TRUE(graph::intersect({0, 10}, {10, 20}).empty());
}

class StorageGraphFake : public ::testing::Test {
 protected:
  void SetUp() override {
    image_ = files_.create_file("image.img", 64ULL << 20);          // 64 MiB, sparse
    std::ofstream(image_, std::ios::in | std::ios::out) << "data";  // allocated: holds data
  }
  [[nodiscard]] SafetyVerdict check_loop(unsigned minor) const {
    return check_device_number_allowed(7, minor, "/dev/loop" + std::to_string(minor), tree_.roots());
  }
  [[nodiscard]] std::optional<std::string> gate_file(const std::string& path) const {
    GateRequest r(path, TargetAccess::read_write, true, "workload", tree_.roots());
    r.lock_dir = locks_.path();
    return check_target_gate(r);
  }

  test_support::ShmTempDir files_{"ptsuite-graph-files"};
  test_support::ShmTempDir locks_{"ptsuite-graph-locks"};
  FakeSystemTree tree_;
  std::string image_;
};

// The first miss: loop1 mounted, loop2 over the same image. loop2's own entry is free,
// but its bytes are loop1's.
TEST_F(StorageGraphFake, ASecondLoopDeviceOverAMountedImageIsRefused) {
  tree_.add_loop("loop1", 1, image_, 0, 64ULL << 20);
  tree_.add_loop("loop2", 2, image_, 0, 64ULL << 20);
  tree_.add_mount(7, 1, "/mnt/fs", "/dev/loop1");
  const SafetyVerdict v = check_loop(2);
  EXPECT_FALSE(v.allowed);
  EXPECT_EQ(v.reason, "refusing to write to /dev/loop2: loop1 is mounted at /mnt/fs (loop2 is a loop device over " +
                          image_ + "; loop1 is a loop device over " + image_ + ")");
  // The image itself and the mounted loop device too.
  EXPECT_NE(gate_file(image_).value_or("").find("loop1 is mounted at /mnt/fs"), std::string::npos);
  EXPECT_FALSE(check_loop(1).allowed);
}

// A loop device with an offset over a part of the image: the edge of the mounted window, both
// sides. loop1 presents [16 MiB, 32 MiB) and is mounted.
TEST_F(StorageGraphFake, ALoopWithAnOffsetIsRelatedExactlyWhenTheWindowsShareABlock) {
  constexpr uint64_t k_mib = 1ULL << 20;
  tree_.add_loop("loop1", 1, image_, 16 * k_mib, 16 * k_mib);
  tree_.add_mount(7, 1, "/mnt/window", "/dev/loop1");
  tree_.add_loop("loop3", 3, image_, 32 * k_mib, 16 * k_mib);        // starts where loop1 ends
  tree_.add_loop("loop4", 4, image_, 32 * k_mib - 512, 16 * k_mib);  // one sector into it
  tree_.add_loop("loop5", 5, image_, 0, 16 * k_mib);                 // ends where loop1 starts
  tree_.add_loop("loop6", 6, image_, 0, 16 * k_mib + 512);           // one sector into it
  EXPECT_TRUE(check_loop(3).allowed) << check_loop(3).reason;
  EXPECT_TRUE(check_loop(5).allowed) << check_loop(5).reason;
  const SafetyVerdict after = check_loop(4);
  const SafetyVerdict before = check_loop(6);
  EXPECT_FALSE(after.allowed);
  EXPECT_FALSE(before.allowed);
  EXPECT_NE(after.reason.find("loop1 is mounted at /mnt/window"), std::string::npos) << after.reason;
  EXPECT_NE(after.reason.find("loop1 is a loop device over " + image_ + " (bytes 16777216 to 33554432)"),
            std::string::npos)
      << after.reason;
}

TEST_F(StorageGraphFake, TheSetAroundAFileFollowsEveryWindowThatOverlapsIt) {
  constexpr uint64_t k_mib = 1ULL << 20;
  tree_.add_loop("loop1", 1, image_, 16 * k_mib, 16 * k_mib);
  const auto loop1 = sysfs::node_by_name("loop1", tree_.roots());
  ASSERT_TRUE(loop1);
  const graph::StorageSet s = graph::resolve_block(*loop1, tree_.roots());
  ASSERT_EQ(s.members.size(), 2u);
  EXPECT_EQ(s.members[1].edge, graph::Edge::loop_backing);
  EXPECT_EQ(s.members[1].range, (ByteRange{16 * k_mib, 32 * k_mib}));  // loop1's bytes in the image
  // A file of 16 MiB: loop1's window starts at its end.
  const std::string small = files_.create_file("small.img", 16 * k_mib);
  tree_.add_loop("loop2", 2, small, 16 * k_mib, 16 * k_mib);
  struct stat st {};
  ASSERT_EQ(::stat(small.c_str(), &st), 0);
  const graph::StorageSet f = graph::resolve_file({st.st_dev, st.st_ino}, small, 16 * k_mib, tree_.roots());
  EXPECT_EQ(f.members.size(), 1u) << f.relation(f.members.size() - 1);
}

// A partition's bytes are its disk's [start, start + size): the disk's other partitions are not
// related, the disk and anything over the partition are.
TEST_F(StorageGraphFake, PartitionsRelateToTheirDiskNotToEachOther) {
  FakeSystemTree tree;
  const auto sda = tree.add_disk("sda", 8, 0);
  const std::string rel = std::filesystem::relative(sda, tree.root()).string();
  tree.add_partition(rel, "sda1", 8, 1, 1);
  tree.add_partition(rel, "sda2", 8, 2, 2);
  tree.add_mount(8, 2, "/home", "/dev/sda2");
  EXPECT_TRUE(check_device_number_allowed(8, 1, "/dev/sda1", tree.roots()).allowed);
  EXPECT_EQ(check_device_number_allowed(8, 0, "/dev/sda", tree.roots()).reason,
            "refusing to write to /dev/sda: partition sda2 is mounted at /home");
}

TEST_F(StorageGraphFake, AHolderOverAnyRelatedLoopDeviceIsNamedWithTheChain) {
  const auto loop1 = tree_.add_loop("loop1", 1, image_, 0, 64ULL << 20);
  tree_.add_loop("loop2", 2, image_, 0, 64ULL << 20);
  const auto dm = tree_.add_disk("dm-0", 253, 0);
  tree_.add_holder(loop1, "dm-0", dm, "loop1");
  EXPECT_EQ(check_loop(2).reason,
            "refusing to write to /dev/loop2: loop1 is held by dm-0 (device-mapper, md, LVM or "
            "bcache) (loop2 is a loop device over " +
                image_ + "; loop1 is a loop device over " + image_ + ")");
  tree_.add_mount(253, 0, "/srv", "/dev/mapper/vg-srv");
  EXPECT_NE(check_loop(2).reason.find("loop1 is held by dm-0, which is mounted at /srv"), std::string::npos)
      << check_loop(2).reason;
  // The dm device itself stands on loop1, which stands on the image another loop device shows.
  EXPECT_NE(check_device_number_allowed(253, 0, "/dev/dm-0", tree_.roots()).reason.find("is mounted at /srv"),
            std::string::npos);
}

TEST_F(StorageGraphFake, AnIdleSecondLoopDeviceIsATargetGateRefusalNotASafetyOne) {
  tree_.add_loop("loop1", 1, image_, 0, 64ULL << 20);
  tree_.add_loop("loop2", 2, image_, 0, 64ULL << 20);
  EXPECT_TRUE(check_loop(2).allowed) << check_loop(2).reason;  // nothing uses the bytes
  const auto refusal = gate_file(image_);
  ASSERT_TRUE(refusal);
  EXPECT_EQ(*refusal, "refusing to write to " + image_ + ": loop1 is a loop device over " + image_ +
                          "; detach it first (losetup -d /dev/loop1) if it is no longer needed");
}

// A holder cycle in a broken sysfs must not make the walk spin.
TEST_F(StorageGraphFake, ACycleOfHoldersEnds) {
  const auto a = tree_.add_disk("dm-1", 253, 1);
  const auto b = tree_.add_disk("dm-2", 253, 2);
  tree_.add_holder(a, "dm-2", b, "dm-1");
  tree_.add_holder(b, "dm-1", a, "dm-2");
  const SafetyVerdict v = check_device_number_allowed(253, 1, "/dev/dm-1", tree_.roots());
  EXPECT_FALSE(v.allowed);
  EXPECT_NE(v.reason.find("dm-1 is held by dm-2"), std::string::npos) << v.reason;
}

}  // namespace
}  // namespace ptsuite::device
