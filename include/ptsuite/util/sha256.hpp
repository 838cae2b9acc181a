// Contract: SHA-256 (FIPS 180-4), implemented here from the standard. Used for the bundle
// manifest (report/manifest.hpp) and for stable chart ids; not for anything secret (no
// constant-time guarantees are needed or made).
//
// Sha256 is a streaming hasher: update() any number of times with any chunk sizes, then
// final() once; the digest does not depend on how the input was split. After final() the
// object is spent: reset() starts a new message. Not thread-safe per object; separate objects
// are independent. sha256_file_hex() reads the file in 1 MiB chunks (bounded memory for raw
// data of any size) and throws SystemError when the file cannot be opened or read.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace ptsuite {

class Sha256 {
 public:
  using Digest = std::array<uint8_t, 32>;

  Sha256() noexcept { reset(); }

  void reset() noexcept;
  void update(const void* data, size_t size_bytes) noexcept;
  void update(std::string_view data) noexcept { update(data.data(), data.size()); }
  // Pads the message (FIPS 180-4 §5.1.1), processes the last block(s), returns the digest.
  Digest final() noexcept;

 private:
  void compress(const uint8_t* block) noexcept;  // one 64-byte block (§6.2.2)

  std::array<uint32_t, 8> m_state{};
  std::array<uint8_t, 64> m_block{};
  size_t m_block_used = 0;      // bytes waiting in m_block
  uint64_t m_length_bytes = 0;  // total message length so far
};

// Lower-case hexadecimal, two characters per byte.
std::string to_hex(const Sha256::Digest& digest);
std::string sha256_hex(std::string_view data);
std::string sha256_file_hex(const std::filesystem::path& path);

}  // namespace ptsuite
