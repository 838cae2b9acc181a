#include <ptsuite/util/printable.hpp>

#include <fmt/format.h>

namespace ptsuite {

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      out += fmt::format("\\x{:02x}", u);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace ptsuite
