// Contract: SHA-256 (FIPS 180-4) through Debian's libcrypto (OpenSSL 3, EVP API). Used for the
// bundle manifest (bundle/manifest.hpp), key fingerprints (bundle/signature.hpp), the plan
// fingerprint and stable chart ids.
//
// Sha256 is a streaming hasher: update() any number of times with any chunk sizes, then
// final() once; the digest does not depend on how the input was split. After final() the
// object is spent: reset() starts a new message. Not thread-safe per object; separate objects
// are independent. Movable, not copyable. sha256_file_hex() reads the file in 1 MiB chunks
// (bounded memory for raw data of any size) and throws SystemError when the file cannot be
// opened or read. A libcrypto failure (only out of memory in practice) throws SystemError.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

struct evp_md_ctx_st;  // OpenSSL's EVP_MD_CTX

namespace ptsuite {

class Sha256 {
 public:
  using Digest = std::array<uint8_t, 32>;

  Sha256();

  void reset();
  void update(const void* data, size_t size_bytes);
  void update(std::string_view data) { update(data.data(), data.size()); }
  Digest final();

 private:
  struct Free {
    void operator()(evp_md_ctx_st* ctx) const noexcept;
  };
  std::unique_ptr<evp_md_ctx_st, Free> m_ctx;
};

// Lower-case hexadecimal, two characters per byte.
std::string to_hex(const Sha256::Digest& digest);
std::string sha256_hex(std::string_view data);
std::string sha256_file_hex(const std::filesystem::path& path);

}  // namespace ptsuite
