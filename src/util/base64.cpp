// Base64 through libcrypto (util/base64.hpp).
#include <ptsuite/util/base64.hpp>

#include <openssl/evp.h>

#include <ptsuite/util/error.hpp>

namespace ptsuite {

std::string base64_encode(std::string_view bytes) {
  // 4 output characters per 3 input bytes, rounded up, plus the terminating NUL EVP writes.
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

std::string base64_decode(std::string_view text, const std::string& what) {
  if (text.size() % 4 != 0) {
    throw UsageError(what, "not Base64 (its length is not a multiple of 4)");
  }
  std::string out(3 * (text.size() / 4) + 1, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0) {
    throw UsageError(what, "not Base64");
  }
  // EVP_DecodeBlock counts the padding's bytes as zeros: drop one per '='.
  size_t padding = 0;
  for (size_t i = text.size(); i > 0 && text[i - 1] == '=' && padding < 2; --i) ++padding;
  out.resize(static_cast<size_t>(n) - padding);
  return out;
}

}  // namespace ptsuite
