// Contract: text from outside (a drive's model and serial, a claim id, a lock holder, a JSON
// key) made safe for a terminal line: every control character (C0, DEL) is written as \xNN,
// so an ANSI escape or a newline in a device string cannot rewrite the screen or forge a line.
// Other bytes (UTF-8 included) pass unchanged. Pure; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace ptsuite {

std::string printable(std::string_view text);

}  // namespace ptsuite
