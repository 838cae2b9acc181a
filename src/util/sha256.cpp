// SHA-256 through libcrypto's EVP digest interface (OpenSSL 3: EVP_MD_CTX, EVP_sha256()).
#include <ptsuite/util/sha256.hpp>

#include <fcntl.h>
#include <openssl/evp.h>
#include <unistd.h>
#include <cerrno>
#include <vector>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/fd.hpp>

namespace ptsuite {

void Sha256::Free::operator()(evp_md_ctx_st* ctx) const noexcept { EVP_MD_CTX_free(ctx); }

Sha256::Sha256() : m_ctx(EVP_MD_CTX_new()) {
  if (!m_ctx) {
    throw SystemError("libcrypto: cannot allocate a SHA-256 context");
  }
  reset();
}

void Sha256::reset() {
  if (EVP_DigestInit_ex(m_ctx.get(), EVP_sha256(), nullptr) != 1) {
    throw SystemError("libcrypto: SHA-256 initialisation failed");
  }
}

void Sha256::update(const void* data, size_t size_bytes) {
  if (size_bytes > 0 && EVP_DigestUpdate(m_ctx.get(), data, size_bytes) != 1) {
    throw SystemError("libcrypto: SHA-256 update failed");
  }
}

Sha256::Digest Sha256::final() {
  Digest digest{};
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(m_ctx.get(), digest.data(), &length) != 1 || length != digest.size()) {
    throw SystemError("libcrypto: SHA-256 finalisation failed");
  }
  return digest;
}

std::string to_hex(const Sha256::Digest& digest) {
  static constexpr char k_digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(digest.size() * 2);
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
