// Block-device targets on loop devices: the geometry Target reads back (BLKGETSIZE64,
// BLKSSZGET, BLKPBSZGET) against what the loop was configured with, and errors a real block
// layer produces (misaligned IO, IO past the end) arriving as IoErrorRecords through IoQueue.
#include <gtest/gtest.h>

#include <cerrno>

#include <ptsuite/engine/engine_registry.hpp>
#include <ptsuite/engine/io_queue.hpp>
#include <ptsuite/engine/target.hpp>

#include "support/loop_support.hpp"
#include "support/test_outputs.hpp"

namespace ptsuite::engine {
namespace {

constexpr uint64_t k_reap_timeout_ns = 5'000'000'000;

class LoopTarget : public test_support::LoopDeviceFixture {};

TEST_F(LoopTarget, GeometryOfA512ByteBlockLoop) {
  const auto& loop = attach_loop(6 << 20);
  const Target target = Target::open_read_only(loop.device.path());
  EXPECT_EQ(target.kind(), TargetKind::block_device);
  EXPECT_EQ(target.device_number(), loop.device.device_number());
  const TargetGeometry& g = target.geometry();
  EXPECT_EQ(g.capacity_bytes, 6u << 20);
  EXPECT_EQ(g.logical_block_bytes, 512u);
  EXPECT_GE(g.physical_block_bytes, 512u);
  EXPECT_GT(g.memory_alignment_bytes, 0u);
  EXPECT_LE(g.memory_alignment_bytes, g.logical_block_bytes);
}

TEST_F(LoopTarget, GeometryOfA4096ByteBlockLoop) {
  LoopOptions options;
  options.logical_block_bytes = 4096;
  const auto& loop = attach_loop(6 << 20, options);
  const Target target = Target::open(test_support::writable(loop.device.path()).writable());
  const TargetGeometry& g = target.geometry();
  EXPECT_EQ(g.capacity_bytes, 6u << 20);
  EXPECT_EQ(g.logical_block_bytes, 4096u);
  EXPECT_EQ(g.physical_block_bytes, 4096u);
  EXPECT_LE(g.memory_alignment_bytes, g.logical_block_bytes);
}

// A 512-byte IO on a 4096-byte-block device violates O_DIRECT alignment: the kernel fails it
// and IoQueue must turn that into an error record, not statistics.
TEST_F(LoopTarget, MisalignedIoOnARealDeviceBecomesAnErrorRecord) {
  LoopOptions options;
  options.logical_block_bytes = 4096;
  const auto& loop = attach_loop(1 << 20, options);
  const Target target = Target::open_read_only(loop.device.path());
  for (const char* name : {"sync", "libaio"}) {
    IoQueue q(create_engine(name), target, 4, 4096);
    q.stage(IoOp::read, 512, 512);
    const int flushed = q.flush();
    if (flushed == 0) {
      ASSERT_EQ(q.reap(1, k_reap_timeout_ns), 1) << name;
    }
    ASSERT_TRUE(q.has_error()) << name;
    EXPECT_EQ(q.first_error()->errnum, EINVAL) << name;
    EXPECT_EQ(q.first_error()->offset_bytes, 512u) << name;
    EXPECT_FALSE(q.first_error()->short_transfer) << name;
    EXPECT_EQ(q.stats().read.ios, 0u) << name;
    EXPECT_EQ(q.free_slots(), 4u) << name;
  }
}

// A read crossing the end of a block device transfers only the part before the end: a short
// transfer, recorded as EIO with the byte count the kernel returned.
TEST_F(LoopTarget, ReadAtTheEndIsAShortTransfer) {
  const auto& loop = attach_loop(1 << 20);
  const Target target = Target::open_read_only(loop.device.path());
  for (const char* name : {"sync", "libaio"}) {
    IoQueue q(create_engine(name), target, 2, 8192);
    q.stage(IoOp::read, 0, 4096);                 // fine
    q.stage(IoOp::read, (1 << 20) - 4096, 8192);  // half beyond the end
    ASSERT_EQ(q.flush(), 0) << name;
    q.drain();
    EXPECT_EQ(q.stats().read.ios, 1u) << name;
    ASSERT_EQ(q.error_count(), 1u) << name;
    EXPECT_TRUE(q.first_error()->short_transfer) << name;
    EXPECT_EQ(q.first_error()->errnum, EIO) << name;
    EXPECT_EQ(q.first_error()->result, 4096) << name;
  }
}

}  // namespace
}  // namespace ptsuite::engine
