// Contract: time sources. monotonic_ns() is CLOCK_MONOTONIC in nanoseconds (vDSO, ~45 ns a
// call), the only clock used for latency and durations. utc_now_iso8601() is wall-clock time
// for records ("2026-11-21T18:19:00Z"), never for measuring.
#pragma once

#include <cstdint>
#include <ctime>
#include <string>

namespace ptsuite {

inline uint64_t monotonic_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

std::string utc_now_iso8601();
// `unix_seconds` (seconds since 1970, UTC) in the same form.
std::string utc_iso8601(int64_t unix_seconds);

}  // namespace ptsuite
