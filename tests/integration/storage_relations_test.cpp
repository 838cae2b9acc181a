// Issue 36 item 1 on real loop devices: the relations one step further out than a target's own
// mounts, each built for real, each tried with the real binary, the bytes hashed before and
// after. A second loop device over a mounted image is refused by every writer (purge,
// workload, run, replay, scenario run, app run); so are a loop device over a mounted block
// device, a loop device with an offset into a mounted region (and a window that only touches
// it is not), and loops over partitions of loop devices (and over a sibling partition, not).
// md, dm and LVM: tests/vm/guest/checks/46-relations.sh.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <ptsuite/util/sha256.hpp>
#include "integration/workload_process.hpp"
#include "support/loop_support.hpp"
#include "support/storage_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace ptsuite {
namespace {

using test_support::range_sha256;
using test_support::WindowLoop;
using workload::test::ProcessResult;
using workload::test::run_ptsuite;

constexpr uint64_t k_mib = 1ULL << 20;

// A short write workload on `target`: exit 0 when the gate lets it through, 3 when it refuses.
ProcessResult write_some(const std::string& target) {
  return run_ptsuite({"workload", "--target", target, "--read-pct", "0", "--ios", "64", "--block-size", "4KiB",
                      "--allow-destructive", "--quiet"});
}

void expect_refused(const ProcessResult& r, const std::string& why, const std::string& what) {
  EXPECT_EQ(r.exit_code, 3) << what << ": " << r.err;
  EXPECT_NE(r.err.find(why), std::string::npos) << what << ": " << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << what << ": one line: " << r.err;
}

TEST(StorageRelations, ASecondLoopDeviceOverAMountedImageIsRefusedByEveryWriter) {
  PTSUITE_SKIP_WITHOUT_LOOP();
  test_support::ShmTempDir dir("ptsuite-gate-second-loop");
  test_support::MountedImage m(dir);
  if (!m.skip_reason().empty()) GTEST_SKIP() << m.skip_reason();
  const std::string before = sha256_file_hex(m.image());
  const std::string target = m.second();
  const std::string mounted = "is mounted at " + m.mount_point();
  const std::vector<std::pair<std::string, std::vector<std::string>>> writers = {
      {"device purge", {"device", "purge", target, "--method", "zero-fill", "--allow-destructive"}},
      {"workload",
       {"workload", "--target", target, "--read-pct", "0", "--ios", "64", "--allow-destructive", "--quiet"}},
      {"run",
       {"run", "iops", "--quick", "--target", target, "--allow-destructive", "--out", dir.file("run"), "--no-history",
        "--format", "none"}},
      {"replay", {"replay", "pgbench", "--target", target, "--allow-destructive", "--quiet", "--no-history"}},
      {"scenario run",
       {"scenario", "run", "write-pressure", "--quick", "--target", target, "--allow-destructive", "--out",
        dir.file("scenario"), "--quiet", "--no-history"}},
      {"app run",
       {"app", "run", "pgbench", "--quick", "--target", target, "--allow-destructive", "--out", dir.file("app"),
        "--quiet"}},
  };
  for (const auto& [what, args] : writers) {
    expect_refused(run_ptsuite(args), mounted, what);
  }
  EXPECT_EQ(sha256_file_hex(m.image()), before) << "the mounted image was written";
  for (const char* out : {"run", "scenario", "app"}) EXPECT_FALSE(std::filesystem::exists(dir.file(out))) << out;
}

TEST(StorageRelations, ALoopDeviceOverAMountedBlockDeviceIsRefused) {
  PTSUITE_SKIP_WITHOUT_LOOP();
  test_support::ShmTempDir dir("ptsuite-gate-loop-blk");
  test_support::MountedImage m(dir);
  if (!m.skip_reason().empty()) GTEST_SKIP() << m.skip_reason();
  const WindowLoop over(m.first(), 0, 0);  // a loop device whose backing object is L1 itself
  ASSERT_TRUE(over.ok());
  const std::string before = sha256_file_hex(m.image());
  expect_refused(write_some(over.path()), "is mounted at " + m.mount_point(), "a loop over the mounted L1");
  expect_refused(run_ptsuite({"device", "purge", over.path(), "--method", "zero-fill", "--allow-destructive"}),
                 "is a loop device over " + m.first().substr(5), "purge of a loop over the mounted L1");
  EXPECT_EQ(sha256_file_hex(m.image()), before);
}

// The image's [16 MiB, 32 MiB) is a mounted filesystem seen through a loop device with an
// offset. Loops over the rest of the image are other bytes; one sector into the window is not.
TEST(StorageRelations, ALoopWithAnOffsetIsRefusedExactlyWhenItOverlapsTheMountedRegion) {
  PTSUITE_SKIP_WITHOUT_LOOP();
  test_support::ShmTempDir dir("ptsuite-gate-window");
  const std::string image = dir.create_file("image.img", 64 * k_mib);
  const WindowLoop window(image, 16 * k_mib, 16 * k_mib);
  ASSERT_TRUE(window.ok());
  const test_support::ReadOnlyExt4 mount(window.path(), dir.file("mnt"));
  if (!mount.ok()) GTEST_SKIP() << "mkfs.ext4 or a read-only ext4 mount is not possible here";
  const std::string region = range_sha256(image, 16 * k_mib, 16 * k_mib);
  {
    const WindowLoop after(image, 32 * k_mib, 16 * k_mib);  // begins where the window ends
    const WindowLoop before(image, 0, 16 * k_mib);          // ends where it begins
    ASSERT_TRUE(after.ok() && before.ok());
    EXPECT_EQ(write_some(after.path()).exit_code, 0) << "a loop device over other bytes of the image";
    EXPECT_EQ(write_some(before.path()).exit_code, 0);
  }
  {
    const WindowLoop after(image, 32 * k_mib - 4096, 16 * k_mib);  // one 4 KiB block into it
    const WindowLoop before(image, 0, 16 * k_mib + 4096);
    ASSERT_TRUE(after.ok() && before.ok());
    expect_refused(write_some(after.path()), "is mounted at " + dir.file("mnt"), "4 KiB into the window");
    expect_refused(write_some(before.path()), "(bytes 16777216 to 33554432)", "4 KiB into it from below");
  }
  expect_refused(write_some(image), "is mounted at " + dir.file("mnt"), "the image file");
  EXPECT_EQ(range_sha256(image, 16 * k_mib, 16 * k_mib), region) << "the mounted region was written";
}

// A loop device with two partitions (BLKPG), the first mounted. Loops over the mounted
// partition and over the whole disk share its bytes; a loop over the other partition does not.
TEST(StorageRelations, LoopsOverPartitionsOfALoopDeviceFollowThePartitionsBytes) {
  PTSUITE_SKIP_WITHOUT_LOOP();
  test_support::ShmTempDir dir("ptsuite-gate-parts");
  const std::string image = dir.create_file("disk.img", 64 * k_mib);
  const WindowLoop disk(image, 0, 0, /*partscan=*/true);
  ASSERT_TRUE(disk.ok());
  const std::string p1 = test_support::add_blkpg_partition(disk, 1, 1 * k_mib, 16 * k_mib);
  const std::string p2 = test_support::add_blkpg_partition(disk, 2, 17 * k_mib, 16 * k_mib);
  if (p1.empty() || p2.empty()) GTEST_SKIP() << "partitions on a loop device (BLKPG) are not possible here";
  const test_support::ReadOnlyExt4 mount(p1, dir.file("mnt"));
  if (!mount.ok()) GTEST_SKIP() << "mkfs.ext4 or a read-only ext4 mount is not possible here";
  const std::string region = range_sha256(image, 1 * k_mib, 16 * k_mib);
  const std::string mounted = "is mounted at " + dir.file("mnt");
  {
    const WindowLoop over_p1(p1, 0, 0);
    const WindowLoop over_disk(disk.path(), 0, 0);
    ASSERT_TRUE(over_p1.ok() && over_disk.ok());
    expect_refused(write_some(over_p1.path()), mounted, "a loop over the mounted partition");
    expect_refused(write_some(over_disk.path()), mounted, "a loop over the partitioned loop device");
    expect_refused(run_ptsuite({"device", "purge", over_p1.path(), "--method", "zero-fill", "--allow-destructive"}),
                   mounted, "purge of a loop over the mounted partition");
  }
  expect_refused(write_some(image), mounted, "the partitioned image file");
  {
    const WindowLoop over_p2(p2, 0, 0);
    ASSERT_TRUE(over_p2.ok());
    EXPECT_EQ(write_some(over_p2.path()).exit_code, 0) << "a loop over the sibling partition";
  }
  EXPECT_EQ(range_sha256(image, 1 * k_mib, 16 * k_mib), region) << "the mounted partition was written";
}

}  // namespace
}  // namespace ptsuite
