// Contract: PTS R/W mix notation. The spec writes mixes as %R/%W ("65/35" = 65 % read,
// 35 % write; "100/0" = all reads). parse_rw_mix() accepts "R/W" with both parts 0..100
// summing to 100 and returns the read percentage; format_rw_mix() is its inverse.
#pragma once

#include <string>
#include <string_view>

namespace ptsuite::pts {

struct RwMix {
  double read_pct = 100;
  [[nodiscard]] double write_pct() const noexcept { return 100.0 - read_pct; }
  friend bool operator==(const RwMix&, const RwMix&) = default;
};

RwMix parse_rw_mix(std::string_view text, std::string_view what);  // throws UsageError
std::string format_rw_mix(RwMix mix);                              // "65/35", "95/5", "40/60"

}  // namespace ptsuite::pts
