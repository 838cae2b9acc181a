#include <ptsuite/util/command_line.hpp>

namespace ptsuite {

std::string join_command_line(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& word : argv) {
    out += (out.empty() ? "" : " ") + word;
  }
  return out;
}

}  // namespace ptsuite
