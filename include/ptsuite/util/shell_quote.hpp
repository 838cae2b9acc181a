// Contract: one word of a command line a user can paste into a POSIX shell: returned as is when
// it holds only characters the shell takes literally, else in single quotes (a quote inside
// becomes '\''). For the commands ptsuite suggests ("continue with: ptsuite resume DIR").
#pragma once

#include <string>
#include <string_view>

namespace ptsuite {

inline std::string shell_quote(std::string_view word) {
  const bool plain = !word.empty() && word.find_first_not_of(
                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                          "0123456789_./:@%+=,-") == std::string_view::npos;
  if (plain) {
    return std::string(word);
  }
  std::string out = "'";
  for (const char c : word) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

}  // namespace ptsuite
