// SHA-256 per FIPS 180-4 (August 2015). Section numbers below refer to that standard.
#include <ptsuite/util/sha256.hpp>

#include <fcntl.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/fd.hpp>

namespace ptsuite {

namespace {

// §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
constexpr std::array<uint32_t, 64> k_round_constants = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

// §5.3.3: the first 32 bits of the fractional parts of the square roots of the first 8 primes.
constexpr std::array<uint32_t, 8> k_initial_state = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

constexpr uint32_t rotr(uint32_t x, unsigned n) noexcept { return (x >> n) | (x << (32U - n)); }

// §4.1.2 functions.
constexpr uint32_t ch(uint32_t x, uint32_t y, uint32_t z) noexcept { return (x & y) ^ (~x & z); }
constexpr uint32_t maj(uint32_t x, uint32_t y, uint32_t z) noexcept { return (x & y) ^ (x & z) ^ (y & z); }
constexpr uint32_t big_sigma0(uint32_t x) noexcept { return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22); }
constexpr uint32_t big_sigma1(uint32_t x) noexcept { return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25); }
constexpr uint32_t small_sigma0(uint32_t x) noexcept { return rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3); }
constexpr uint32_t small_sigma1(uint32_t x) noexcept { return rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10); }

uint32_t load_be32(const uint8_t* p) noexcept {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

}  // namespace

void Sha256::reset() noexcept {
  m_state = k_initial_state;
  m_block_used = 0;
  m_length_bytes = 0;
}

void Sha256::compress(const uint8_t* block) noexcept {
  // §6.2.2 step 1: the message schedule W0..W63.
  std::array<uint32_t, 64> w{};
  for (size_t t = 0; t < 16; ++t) {
    w[t] = load_be32(block + 4 * t);
  }
  for (size_t t = 16; t < 64; ++t) {
    w[t] = small_sigma1(w[t - 2]) + w[t - 7] + small_sigma0(w[t - 15]) + w[t - 16];
  }
  // Steps 2-4: 64 rounds over the working variables a..h, all arithmetic mod 2^32.
  uint32_t a = m_state[0], b = m_state[1], c = m_state[2], d = m_state[3];
  uint32_t e = m_state[4], f = m_state[5], g = m_state[6], h = m_state[7];
  for (size_t t = 0; t < 64; ++t) {
    const uint32_t t1 = h + big_sigma1(e) + ch(e, f, g) + k_round_constants[t] + w[t];
    const uint32_t t2 = big_sigma0(a) + maj(a, b, c);
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  m_state[0] += a;
  m_state[1] += b;
  m_state[2] += c;
  m_state[3] += d;
  m_state[4] += e;
  m_state[5] += f;
  m_state[6] += g;
  m_state[7] += h;
}

void Sha256::update(const void* data, size_t size_bytes) noexcept {
  const auto* p = static_cast<const uint8_t*>(data);
  m_length_bytes += size_bytes;
  // Top up a partially filled block first, then hash whole blocks straight from the input.
  if (m_block_used > 0) {
    const size_t take = std::min(size_bytes, m_block.size() - m_block_used);
    std::memcpy(m_block.data() + m_block_used, p, take);
    m_block_used += take;
    p += take;
    size_bytes -= take;
    if (m_block_used < m_block.size()) {
      return;
    }
    compress(m_block.data());
    m_block_used = 0;
  }
  while (size_bytes >= 64) {
    compress(p);
    p += 64;
    size_bytes -= 64;
  }
  if (size_bytes > 0) {
    std::memcpy(m_block.data(), p, size_bytes);
    m_block_used = size_bytes;
  }
}

Sha256::Digest Sha256::final() noexcept {
  // §5.1.1: append bit '1', then k zero bits so that (l + 1 + k) = 448 mod 512, then the
  // message length l in bits as a 64-bit big-endian integer. In bytes: 0x80, zeros up to
  // offset 56 of a block (spilling into one extra block when fewer than 8 bytes remain).
  const uint64_t length_bits = m_length_bytes * 8;
  m_block[m_block_used++] = 0x80;
  if (m_block_used > 56) {
    std::fill(m_block.begin() + static_cast<std::ptrdiff_t>(m_block_used), m_block.end(), uint8_t{0});
    compress(m_block.data());
    m_block_used = 0;
  }
  std::fill(m_block.begin() + static_cast<std::ptrdiff_t>(m_block_used), m_block.begin() + 56, uint8_t{0});
  for (size_t i = 0; i < 8; ++i) {
    m_block[56 + i] = static_cast<uint8_t>(length_bits >> (56 - 8 * i));
  }
  compress(m_block.data());
  m_block_used = 0;

  Digest digest{};
  for (size_t i = 0; i < 8; ++i) {
    digest[4 * i + 0] = static_cast<uint8_t>(m_state[i] >> 24);
    digest[4 * i + 1] = static_cast<uint8_t>(m_state[i] >> 16);
    digest[4 * i + 2] = static_cast<uint8_t>(m_state[i] >> 8);
    digest[4 * i + 3] = static_cast<uint8_t>(m_state[i]);
  }
  return digest;
}

std::string to_hex(const Sha256::Digest& digest) {
  static constexpr char k_digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * digest.size());
  for (const uint8_t byte : digest) {
    out.push_back(k_digits[byte >> 4]);
    out.push_back(k_digits[byte & 0x0f]);
  }
  return out;
}

std::string sha256_hex(std::string_view data) {
  Sha256 hasher;
  hasher.update(data);
  return to_hex(hasher.final());
}

std::string sha256_file_hex(const std::filesystem::path& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) {
    throw SystemError("cannot open " + path.string(), errno);
  }
  Sha256 hasher;
  std::vector<char> buffer(1 << 20);
  for (;;) {
    const ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw SystemError("cannot read " + path.string(), errno);
    }
    if (n == 0) {
      break;
    }
    hasher.update(buffer.data(), static_cast<size_t>(n));
  }
  return to_hex(hasher.final());
}

}  // namespace ptsuite
