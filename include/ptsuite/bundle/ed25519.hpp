// Contract: Ed25519 keys for signing bundles, through Debian's libcrypto (OpenSSL 3 EVP API).
//
// Key files are standard PEM, interchangeable with `openssl genpkey -algorithm ed25519`:
//   private key: PKCS#8, "-----BEGIN PRIVATE KEY-----", unencrypted, written with mode 0600;
//   public key:  SubjectPublicKeyInfo, "-----BEGIN PUBLIC KEY-----".
// The fingerprint of a key is "SHA256:" + the lower-case hex SHA-256 of the DER-encoded
// SubjectPublicKeyInfo of its public half; the same number comes out of
//   openssl pkey -pubin -in KEY.pub -outform DER | sha256sum
//
// Errors: UsageError (exit 2) for a missing, unreadable-as-PEM, encrypted, or non-Ed25519 key
// file and for a key file that already exists when writing (keys are never overwritten);
// SystemError (exit 5) for IO failures and libcrypto failures. Objects are immutable after
// construction and may be used from several threads.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <ptsuite/util/output_file.hpp>

struct evp_pkey_st;  // OpenSSL's EVP_PKEY

namespace ptsuite::bundle {

inline constexpr size_t k_ed25519_signature_bytes = 64;

namespace detail {
using PkeyPtr = std::shared_ptr<evp_pkey_st>;  // freed with EVP_PKEY_free
}  // namespace detail

class PublicKey {
 public:
  // `source` names the key in errors (a file name, or "the signature file").
  static PublicKey from_pem(std::string_view pem, const std::string& source);
  static PublicKey load(const std::filesystem::path& path);

  [[nodiscard]] const std::string& fingerprint() const noexcept { return m_fingerprint; }
  [[nodiscard]] std::string pem() const;
  // True when `signature` is this key's Ed25519 signature over `message`.
  [[nodiscard]] bool verify(std::string_view message, const std::vector<uint8_t>& signature) const;

 private:
  friend class SigningKey;
  explicit PublicKey(detail::PkeyPtr key);
  detail::PkeyPtr m_key;
  std::string m_fingerprint;
};

class SigningKey {
 public:
  static SigningKey generate();
  static SigningKey load(const std::filesystem::path& path);

  [[nodiscard]] const PublicKey& public_key() const noexcept { return m_public; }
  [[nodiscard]] std::string private_pem() const;
  [[nodiscard]] std::vector<uint8_t> sign(std::string_view message) const;

 private:
  explicit SigningKey(detail::PkeyPtr key);
  detail::PkeyPtr m_key;
  PublicKey m_public;
};

// Writes the private key (mode 0600) and the public key (mode 0644), each created exclusively:
// an existing file is a UsageError and nothing is written. Both are fsynced.
void write_key_files(const SigningKey& key, const OutputPath& private_path, const OutputPath& public_path);

// RFC 4648 base64 with padding.
std::string base64_encode(const std::vector<uint8_t>& bytes);
// False (and `out` unspecified) for text that is not padded base64.
bool base64_decode(std::string_view text, std::vector<uint8_t>& out);

}  // namespace ptsuite::bundle
