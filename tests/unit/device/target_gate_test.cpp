// The one target gate (device/target_gate.hpp) against a fake /proc and /sys tree with real
// files: a file traced to the loop devices over it (mounted, held, swap), the consent rule for
// files that hold data, and ptsuite's advisory lock seen from another process and this one.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <ptsuite/device/target_gate.hpp>
#include <ptsuite/util/error.hpp>
#include "support/temp_dir.hpp"
#include "unit/device/fake_system_tree.hpp"

namespace ptsuite::device {
namespace {

using testing::FakeSystemTree;

class TargetGateFake : public ::testing::Test {
 protected:
  void SetUp() override {
    data_file_ = files_.file("disk.img");
    std::ofstream(data_file_) << std::string(8192, 'x');
    sparse_file_ = files_.create_file("sparse.img", 8 << 20);
    loop0_ = tree_.add_disk("loop0", 7, 0);
    tree_.write(std::filesystem::relative(loop0_, tree_.root()).string() + "/loop/backing_file", data_file_ + "\n");
  }
  [[nodiscard]] GateRequest request(const std::string& path, bool consent,
                                    TargetAccess access = TargetAccess::read_write) const {
    GateRequest r(path, access, consent, "workload", tree_.roots());
    r.lock_dir = locks_.path();
    return r;
  }

  test_support::ShmTempDir files_{"ptsuite-gate-files"};
  test_support::ShmTempDir locks_{"ptsuite-gate-locks"};
  FakeSystemTree tree_;
  std::string data_file_, sparse_file_;
  std::filesystem::path loop0_;
};

TEST_F(TargetGateFake, AFileBackingAMountedLoopDeviceIsRefusedEvenWithConsent) {
  tree_.add_mount(7, 0, "/mnt/data", "/dev/loop0");
  const auto refusal = check_target_gate(request(data_file_, true));
  ASSERT_TRUE(refusal.has_value());
  EXPECT_EQ(*refusal, "refusing to write to " + data_file_ +
                          ": loop0 is mounted at /mnt/data (loop0 is a loop device over " + data_file_ + ")");
  EXPECT_THROW((void)pass_target_gate(request(data_file_, true)), SafetyRefusal);
}

TEST_F(TargetGateFake, AFileBackingAHeldLoopDeviceIsRefused) {
  const auto dm = tree_.add_disk("dm-0", 253, 0);
  tree_.add_holder(loop0_, "dm-0", dm, "loop0");
  const auto refusal = check_target_gate(request(data_file_, true));
  ASSERT_TRUE(refusal.has_value());
  EXPECT_NE(refusal->find("loop0 is held by dm-0"), std::string::npos) << *refusal;
}

TEST_F(TargetGateFake, AFileThatIsActiveSwapIsRefused) {
  tree_.append("proc/swaps", data_file_ + "\tfile\t\t8\t\t0\t\t-2\n");
  const auto refusal = check_target_gate(request(data_file_, true));
  ASSERT_TRUE(refusal.has_value());
  EXPECT_NE(refusal->find("active swap file"), std::string::npos) << *refusal;
}

TEST_F(TargetGateFake, AFileHoldingDataNeedsConsentASparseOneDoesNot) {
  const auto refusal = check_target_gate(request(data_file_, false));
  ASSERT_TRUE(refusal.has_value());
  EXPECT_NE(refusal->find("holding data"), std::string::npos) << *refusal;
  EXPECT_NE(refusal->find("--allow-destructive"), std::string::npos) << *refusal;
  EXPECT_FALSE(check_target_gate(request(sparse_file_, false)).has_value());
  // Reads need no consent and ignore mounts (nothing is written).
  tree_.add_mount(7, 0, "/mnt/data", "/dev/loop0");
  EXPECT_FALSE(check_target_gate(request(data_file_, false, TargetAccess::read_only)).has_value());
}

// A loop device attached over the file, idle (nothing mounted, no holder), is still its user:
// refused even with consent, naming the loop device and how to detach it.
TEST_F(TargetGateFake, AFileBackingAnAttachedIdleLoopDeviceIsRefusedEvenWithConsent) {
  const auto refusal = check_target_gate(request(data_file_, true));
  ASSERT_TRUE(refusal.has_value());
  EXPECT_EQ(*refusal, "refusing to write to " + data_file_ + ": loop0 is a loop device over " + data_file_ +
                          "; detach it first (losetup -d /dev/loop0) if it is no longer needed");
}

TEST_F(TargetGateFake, AMissingPathPassesAndOpeningItFailsLater) {
  EXPECT_FALSE(check_target_gate(request(files_.file("nope.img"), false)).has_value());
}

TEST_F(TargetGateFake, ATargetLockedByAnotherProcessIsRefusedForReadsToo) {
  int ready[2];
  int release[2];
  ASSERT_EQ(::pipe(ready), 0);
  ASSERT_EQ(::pipe(release), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    GateRequest r = request(sparse_file_, false);
    r.command = "run";
    const TargetGuard guard = pass_target_gate(r);
    char c = guard.holds_lock() ? 'y' : 'n';
    (void)!::write(ready[1], &c, 1);
    (void)!::read(release[0], &c, 1);
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ASSERT_EQ(c, 'y');
  const auto refusal = check_target_gate(request(sparse_file_, false, TargetAccess::read_only));
  ASSERT_TRUE(refusal.has_value());
  EXPECT_NE(refusal->find(fmt::format("held by pid {}: ptsuite run on {}", child, sparse_file_)), std::string::npos)
      << *refusal;
  (void)!::write(release[1], &c, 1);
  int status = 0;
  ::waitpid(child, &status, 0);
  // The kernel released the lock with the process: usable again.
  EXPECT_FALSE(check_target_gate(request(sparse_file_, false)).has_value());
  for (int fd : {ready[0], ready[1], release[0], release[1]}) ::close(fd);
}

TEST_F(TargetGateFake, TheSameTargetTwiceInOneProcessIsRefusedUntilTheGuardGoes) {
  {
    const TargetGuard first = pass_target_gate(request(sparse_file_, false));
    ASSERT_TRUE(first.holds_lock());
    const auto refusal = check_target_gate(request(sparse_file_, false));
    ASSERT_TRUE(refusal.has_value());
    EXPECT_NE(refusal->find("the same target given twice"), std::string::npos) << *refusal;
    // Another name of the same file (a hard link) meets the same lock.
    const std::string link = files_.file("alias.img");
    std::filesystem::create_hard_link(sparse_file_, link);
    EXPECT_TRUE(check_target_gate(request(link, false)).has_value());
  }
  EXPECT_FALSE(check_target_gate(request(sparse_file_, false)).has_value());
}

TEST_F(TargetGateFake, ALockOnTheLoopDeviceOverAFileRefusesTheFile) {
  // Another process's run on /dev/loop0 (lock key blk-7-0) while this one targets its backing
  // file: the lock file is locked by a child, as the run's guard would be.
  const std::string lock = locks_.file("ptsuite-blk-7-0.lock");
  std::ofstream(lock) << "pid 1: ptsuite run on /dev/loop0\n";
  int ready[2];
  int release[2];
  ASSERT_EQ(::pipe(ready), 0);
  ASSERT_EQ(::pipe(release), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const int fd = ::open(lock.c_str(), O_RDONLY);
    char c = ::flock(fd, LOCK_EX) == 0 ? 'y' : 'n';
    (void)!::write(ready[1], &c, 1);
    (void)!::read(release[0], &c, 1);
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  const auto refusal = check_target_gate(request(data_file_, true));
  ASSERT_TRUE(refusal.has_value());
  EXPECT_NE(refusal->find("/dev/loop0 is held by pid 1: ptsuite run on /dev/loop0"), std::string::npos) << *refusal;
  (void)!::write(release[1], &c, 1);
  ::waitpid(child, nullptr, 0);
  for (int fd : {ready[0], ready[1], release[0], release[1]}) ::close(fd);
}

}  // namespace
}  // namespace ptsuite::device
