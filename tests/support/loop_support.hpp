// Contract: loop block devices for tests, created over files in /dev/shm and always detached.
//
// Tests that need a real block device either derive from LoopDeviceFixture:
//
//   class MyTest : public ptsuite::test_support::LoopDeviceFixture {};
//   TEST_F(MyTest, Works) {
//     auto& loop = attach_loop(16 << 20);                 // 16 MiB, 512-byte blocks, direct IO
//     // loop.device.path() is "/dev/loopN"; loop.backing_path is the file behind it
//   }
//
// (a fixture overriding SetUp() calls LoopDeviceFixture::SetUp() first and returns when
// IsSkipped()), or call PTSUITE_SKIP_WITHOUT_LOOP() at the top of a plain TEST and own an
// engine::LoopDevice themselves.
//
// Skipping: when not root, without a loop driver, or when attaching is refused here (e.g. in a
// container), the test is SKIPPED with the reason, never failed. The reason comes from one
// probe per process that attaches and detaches a loop over a 1 MiB file.
// Cleanup: devices are detached (engine::LoopDevice, with autoclear as the backstop) before the
// fixture's temp dir is removed, on every path including failed assertions and exceptions.
// Partition tests: pass engine::LoopOptions{.partition_scan = true}.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <ptsuite/engine/loop_device.hpp>

#include "support/temp_dir.hpp"

namespace ptsuite::test_support {

// Empty when loop devices work here, else why not. Probed once per process.
const std::string& loop_skip_reason();

#define PTSUITE_SKIP_WITHOUT_LOOP()                                                                \
  do {                                                                                             \
    if (!::ptsuite::test_support::loop_skip_reason().empty()) {                                    \
      GTEST_SKIP() << "loop devices unavailable: " << ::ptsuite::test_support::loop_skip_reason(); \
    }                                                                                              \
  } while (false)

struct LoopBackedDevice {
  std::string backing_path;
  engine::LoopDevice device;
};

// Waits until udevd has handled the block-device events queued so far (its blkid probe of
// a new device); returns at once where no udevd runs.
void settle_udev();

// Attaches a loop device over `backing_path` (an existing regular file), then settle_udev().
engine::LoopDevice attach_loop_over(const std::string& backing_path, const engine::LoopOptions& options = {});

// /sys/block/loop<N>/<attribute> without its trailing newline ("loop/dio", "queue/
// logical_block_size", "loop/backing_file", ...); empty when the attribute does not exist
// (the loop/ attributes exist only while the device is bound).
std::string loop_sysfs_attribute(uint32_t number, const std::string& attribute);

// Whether loop<N> is bound to a backing file whose path contains `backing_name`. After our
// detach the number may be reused by someone else, hence the name check.
bool loop_bound_to(uint32_t number, const std::string& backing_name);

class LoopDeviceFixture : public ::testing::Test {
 protected:
  void SetUp() override;

  // A new size_bytes file of zeros in temp_dir() with a loop device over it; owned by the
  // fixture (valid until the test ends).
  LoopBackedDevice& attach_loop(uint64_t size_bytes, const engine::LoopOptions& options = {});
  [[nodiscard]] const ShmTempDir& temp_dir() const noexcept { return m_temp_dir; }

 private:
  ShmTempDir m_temp_dir{"ptsuite-loop-test"};              // declared first: removed last
  std::vector<std::unique_ptr<LoopBackedDevice>> m_loops;  // detached before the dir goes
};

}  // namespace ptsuite::test_support
