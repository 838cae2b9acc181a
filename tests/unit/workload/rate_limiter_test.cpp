// RateLimiter: the linear schedule n / R_io and bytes / R_b, per-thread shares, decimal MB/s.
#include <gtest/gtest.h>

#include <ptsuite/workload/rate_limiter.hpp>

namespace ptsuite::workload {
namespace {

TEST(RateLimiter, UnlimitedByDefault) {
  const RateLimiter none;
  EXPECT_FALSE(none.enabled());
  EXPECT_EQ(none.earliest_offset_ns(1'000'000, 1ULL << 40), 0u);
  EXPECT_FALSE(RateLimiter::for_thread(RateLimit{}, 4).enabled());
}

TEST(RateLimiter, IopsScheduleIsLinearFromTheStart) {
  const RateLimiter r(1000, 0);  // one IO per millisecond
  EXPECT_TRUE(r.enabled());
  EXPECT_EQ(r.earliest_offset_ns(0, 0), 0u);
  EXPECT_EQ(r.earliest_offset_ns(1, 4096), 1'000'000u);
  EXPECT_EQ(r.earliest_offset_ns(1000, 0), 1'000'000'000u);
  // 3 IOPS: IO 1 is due at 333333333.3 ns, rounded up so it is never early.
  const RateLimiter third(3, 0);
  EXPECT_EQ(third.earliest_offset_ns(1, 0), 333'333'334u);
  EXPECT_EQ(third.earliest_offset_ns(3, 0), 1'000'000'000u);
}

TEST(RateLimiter, BandwidthScheduleUsesBytesIssued) {
  const RateLimiter r(0, 1e6);  // 1 MB/s = 1 byte per microsecond
  EXPECT_EQ(r.earliest_offset_ns(10, 0), 0u);
  EXPECT_EQ(r.earliest_offset_ns(1, 4096), 4'096'000u);
  EXPECT_EQ(r.earliest_offset_ns(2, 1'000'000), 1'000'000'000u);
}

TEST(RateLimiter, BothLimitsTakeTheLaterTime) {
  const RateLimiter r(100, 1e6);                                // 10 ms per IO, 1 us per byte
  EXPECT_EQ(r.earliest_offset_ns(1, 4096), 10'000'000u);        // IOPS binds
  EXPECT_EQ(r.earliest_offset_ns(1, 65536 * 4), 262'144'000u);  // bandwidth binds
}

TEST(RateLimiter, ThreadsShareTheTotalAndMbIsDecimal) {
  RateLimit total;
  total.iops = 4000;
  total.mb_per_s = 8;  // 8 * 10^6 bytes/s over 4 threads = 2 * 10^6 each
  const RateLimiter share = RateLimiter::for_thread(total, 4);
  EXPECT_EQ(share.earliest_offset_ns(1, 0), 1'000'000u);  // 1000 IOPS each
  EXPECT_EQ(share.earliest_offset_ns(0, 2'000'000), 1'000'000'000u);
}

TEST(RateLimiter, FarFutureSaturatesInsteadOfOverflowing) {
  const RateLimiter r(1e-9, 0);
  EXPECT_EQ(r.earliest_offset_ns(~0ULL, 0), ~0ULL);
}

}  // namespace
}  // namespace ptsuite::workload
