#include <ptsuite/pts/rw_mix.hpp>

#include <fmt/format.h>
#include <cmath>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {

RwMix parse_rw_mix(std::string_view text, std::string_view what) {
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos) {
    throw UsageError(std::string(what), fmt::format("\"{}\" is not a R/W mix; write %read/%write, e.g. 65/35", text));
  }
  const double read = units::parse_percent(text.substr(0, slash), what);
  const double write = units::parse_percent(text.substr(slash + 1), what);
  if (std::fabs(read + write - 100.0) > 1e-9) {
    throw UsageError(std::string(what), fmt::format("R/W mix \"{}\" does not add up to 100", text));
  }
  return RwMix{read};
}

std::string format_rw_mix(RwMix mix) { return fmt::format("{:g}/{:g}", mix.read_pct, 100.0 - mix.read_pct); }

}  // namespace ptsuite::pts
