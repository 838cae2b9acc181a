// The console texts of `ptsuite workload`: the progress line and the IO error line.
#include <gtest/gtest.h>

#include <cerrno>

#include "cli/console.hpp"

namespace ptsuite::cli {
namespace {

TEST(Console, ProgressLineShowsElapsedRemainingIopsAndMbps) {
  workload::Progress p;
  p.elapsed_ns = 12'000'000'000;
  p.expected_ns = 30'000'000'000;
  p.live_iops = 245'300;
  p.live_mb_per_s = 1004.7;
  EXPECT_EQ(format_progress(p), "  12.0s / 30.0s  remaining 18.0s  245.3k IOPS  1004.7 MB/s");
  p.expected_ns = 0;  // unknown end (byte or IO limit before the first sample)
  p.live_iops = 950;
  EXPECT_EQ(format_progress(p), "  12.0s  950.0 IOPS  1004.7 MB/s");
  p.expected_ns = p.elapsed_ns;
  p.live_iops = 1'210'000;
  EXPECT_EQ(format_progress(p), "  12.0s / 12.0s  remaining 0s  1.21M IOPS  1004.7 MB/s");
}

TEST(Console, IoErrorLineNamesOperationOffsetAndCause) {
  workload::WorkloadResult r;
  engine::IoErrorRecord e;
  e.errnum = EFBIG;
  e.op = engine::IoOp::write;
  e.offset_bytes = 4194304;
  e.length_bytes = 65536;
  e.result = -EFBIG;
  r.first_error = e;
  r.error_count = 1;
  EXPECT_EQ(describe_io_error(r), "write of 64KiB at offset 4194304 failed: File too large (1 error)");
  e.errnum = EIO;
  e.op = engine::IoOp::read;
  e.result = 0;
  e.short_transfer = true;
  r.first_error = e;
  r.error_count = 3;
  EXPECT_EQ(describe_io_error(r), "read of 64KiB at offset 4194304 failed: short transfer (0 bytes) (3 errors)");
}

}  // namespace
}  // namespace ptsuite::cli
