#include <ptsuite/util/clock.hpp>

#include <array>

namespace ptsuite {

std::string utc_now_iso8601() { return utc_iso8601(time(nullptr)); }

std::string utc_iso8601(int64_t unix_seconds) {
  const time_t t = static_cast<time_t>(unix_seconds);
  tm utc{};
  gmtime_r(&t, &utc);
  std::array<char, 32> buf{};
  const size_t n = strftime(buf.data(), buf.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return std::string(buf.data(), n);
}

}  // namespace ptsuite
