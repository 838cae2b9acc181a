#include <ptsuite/workload/rate_limiter.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include <ptsuite/util/units.hpp>

namespace ptsuite::workload {

namespace {

constexpr long double k_ns_per_s = 1e9L;

// count * 10^9 / rate in long double (64-bit mantissa: count * 10^9 is exact below 1.8e19),
// rounded up so that an IO is never issued before its due time; saturates far in the future.
uint64_t due_ns(uint64_t count, double rate_per_s) noexcept {
  if (rate_per_s <= 0) {
    return 0;
  }
  const long double ns = std::ceil(static_cast<long double>(count) * k_ns_per_s / rate_per_s);
  return ns >= 1.8e19L ? std::numeric_limits<uint64_t>::max() : static_cast<uint64_t>(ns);
}

}  // namespace

RateLimiter::RateLimiter(double ios_per_s, double bytes_per_s) noexcept
    : m_ios_per_s(ios_per_s > 0 ? ios_per_s : 0), m_bytes_per_s(bytes_per_s > 0 ? bytes_per_s : 0) {}

RateLimiter RateLimiter::for_thread(const RateLimit& total, uint32_t threads) noexcept {
  const double n = threads > 0 ? static_cast<double>(threads) : 1.0;
  return RateLimiter(total.iops / n, total.mb_per_s * units::k_decimal_mb / n);
}

uint64_t RateLimiter::earliest_offset_ns(uint64_t ios_issued, uint64_t bytes_issued) const noexcept {
  return std::max(due_ns(ios_issued, m_ios_per_s), due_ns(bytes_issued, m_bytes_per_s));
}

}  // namespace ptsuite::workload
