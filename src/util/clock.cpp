#include <ptsuite/util/clock.hpp>

#include <array>

namespace ptsuite {

std::string utc_now_iso8601() {
  const time_t now = time(nullptr);
  tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> buf{};
  const size_t n = strftime(buf.data(), buf.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return std::string(buf.data(), n);
}

}  // namespace ptsuite
