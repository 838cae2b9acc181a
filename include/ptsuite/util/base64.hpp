// Contract: Base64 (RFC 4648, standard alphabet, with padding, no line breaks) through Debian's
// libcrypto (EVP_EncodeBlock / EVP_DecodeBlock). The history stores a run's bundle files as
// Base64 text (history/store.hpp), so both of its backends hold any bytes in a TEXT column.
// base64_decode() throws UsageError naming `what` for text that is not Base64. Pure; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace ptsuite {

std::string base64_encode(std::string_view bytes);
std::string base64_decode(std::string_view text, const std::string& what);

}  // namespace ptsuite
