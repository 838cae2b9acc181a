// Ed25519 keys through libcrypto: EVP_PKEY_Q_keygen, PEM_{read,write}_bio_{PrivateKey,PUBKEY},
// i2d_PUBKEY for the fingerprint, EVP_DigestSign / EVP_DigestVerify (Ed25519 is a one-shot
// signature scheme: no digest is passed, the message is signed whole).
#include <ptsuite/bundle/ed25519.hpp>

#include <fcntl.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <unistd.h>
#include <cstring>

#include <fmt/format.h>
#include <cerrno>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/fd.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/sha256.hpp>

namespace ptsuite::bundle {

namespace fs = std::filesystem;

namespace {

struct BioFree {
  void operator()(BIO* bio) const noexcept { BIO_free(bio); }
};
using BioPtr = std::unique_ptr<BIO, BioFree>;
struct MdCtxFree {
  void operator()(EVP_MD_CTX* ctx) const noexcept { EVP_MD_CTX_free(ctx); }
};
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, MdCtxFree>;

detail::PkeyPtr own(EVP_PKEY* key) {
  return detail::PkeyPtr(key, [](EVP_PKEY* k) { EVP_PKEY_free(k); });
}

// The last libcrypto error as text (and the queue cleared), for SystemError messages.
std::string crypto_error() {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) {
    return "unknown libcrypto error";
  }
  char buffer[256];
  ERR_error_string_n(code, buffer, sizeof(buffer));
  return buffer;
}

BioPtr memory_bio(std::string_view text) {
  BioPtr bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
  if (!bio) {
    throw SystemError("libcrypto: cannot allocate a memory BIO: " + crypto_error());
  }
  return bio;
}

std::string bio_text(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  return size > 0 ? std::string(data, static_cast<size_t>(size)) : std::string();
}

// Never prompts for a passphrase: an encrypted key fails to load instead.
int no_passphrase(char*, int, int, void*) { return -1; }

void require_ed25519(EVP_PKEY* key, const std::string& source) {
  if (EVP_PKEY_get_base_id(key) != EVP_PKEY_ED25519) {
    throw UsageError(source, "not an Ed25519 key (create one with `ptsuite keygen KEY`)");
  }
}

std::string read_key_file(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    throw UsageError(path.string(), "no such key file");
  }
  if (!fs::is_regular_file(path, ec)) {
    throw UsageError(path.string(),
                     "not a key file (a PEM key is a regular file; this is a device, directory or "
                     "pipe)");
  }
  // A PEM Ed25519 key is ~120 bytes; 64 KiB bounds what a wrong file can make us read.
  constexpr size_t k_max_key_file_bytes = 64 * 1024;
  if (fs::file_size(path, ec) > k_max_key_file_bytes) {
    throw UsageError(path.string(), "too large to be a PEM key file");
  }
  return read_file(path);
}

}  // namespace

PublicKey::PublicKey(detail::PkeyPtr key) : m_key(std::move(key)) {
  unsigned char* der = nullptr;
  const int length = i2d_PUBKEY(m_key.get(), &der);
  if (length <= 0) {
    throw SystemError("libcrypto: cannot encode a public key: " + crypto_error());
  }
  const std::string_view bytes(reinterpret_cast<const char*>(der), static_cast<size_t>(length));
  m_fingerprint = "SHA256:" + sha256_hex(bytes);
  OPENSSL_free(der);
}

PublicKey PublicKey::from_pem(std::string_view pem, const std::string& source) {
  const BioPtr bio = memory_bio(pem);
  EVP_PKEY* key = PEM_read_bio_PUBKEY(bio.get(), nullptr, no_passphrase, nullptr);
  if (key == nullptr) {
    ERR_clear_error();
    throw UsageError(source, "not a PEM public key (\"-----BEGIN PUBLIC KEY-----\")");
  }
  detail::PkeyPtr owned = own(key);
  require_ed25519(owned.get(), source);
  return PublicKey(std::move(owned));
}

PublicKey PublicKey::load(const fs::path& path) { return from_pem(read_key_file(path), path.string()); }

std::string PublicKey::pem() const {
  BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_PUBKEY(bio.get(), m_key.get()) != 1) {
    throw SystemError("libcrypto: cannot write a public key: " + crypto_error());
  }
  return bio_text(bio.get());
}

bool PublicKey::verify(std::string_view message, const std::vector<uint8_t>& signature) const {
  const MdCtxPtr ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, m_key.get()) != 1) {
    throw SystemError("libcrypto: cannot start an Ed25519 verification: " + crypto_error());
  }
  const int rc = EVP_DigestVerify(ctx.get(), signature.data(), signature.size(),
                                  reinterpret_cast<const unsigned char*>(message.data()), message.size());
  ERR_clear_error();  // a mismatch leaves an error on the queue; it is an answer, not a failure
  return rc == 1;
}

SigningKey::SigningKey(detail::PkeyPtr key) : m_key(key), m_public(key) {}

SigningKey SigningKey::generate() {
  EVP_PKEY* key = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
  if (key == nullptr) {
    throw SystemError("libcrypto: Ed25519 key generation failed: " + crypto_error());
  }
  return SigningKey(own(key));
}

SigningKey SigningKey::load(const fs::path& path) {
  const std::string text = read_key_file(path);
  const BioPtr bio = memory_bio(text);
  EVP_PKEY* key = PEM_read_bio_PrivateKey(bio.get(), nullptr, no_passphrase, nullptr);
  if (key == nullptr) {
    ERR_clear_error();
    const bool encrypted = text.find("ENCRYPTED") != std::string::npos;
    throw UsageError(path.string(), encrypted ? "an encrypted private key; ptsuite reads unencrypted PEM keys only "
                                                "(decrypt a copy with `openssl pkey -in KEY -out PLAIN`)"
                                              : "not a PEM private key (\"-----BEGIN PRIVATE KEY-----\")");
  }
  detail::PkeyPtr owned = own(key);
  require_ed25519(owned.get(), path.string());
  return SigningKey(std::move(owned));
}

std::string SigningKey::private_pem() const {
  BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_PrivateKey(bio.get(), m_key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    throw SystemError("libcrypto: cannot write a private key: " + crypto_error());
  }
  return bio_text(bio.get());
}

std::vector<uint8_t> SigningKey::sign(std::string_view message) const {
  const MdCtxPtr ctx(EVP_MD_CTX_new());
  std::vector<uint8_t> signature(k_ed25519_signature_bytes);
  size_t length = signature.size();
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, m_key.get()) != 1 ||
      EVP_DigestSign(ctx.get(), signature.data(), &length, reinterpret_cast<const unsigned char*>(message.data()),
                     message.size()) != 1 ||
      length != k_ed25519_signature_bytes) {
    throw SystemError("libcrypto: Ed25519 signing failed: " + crypto_error());
  }
  return signature;
}

void write_key_files(const SigningKey& key, const OutputPath& private_path, const OutputPath& public_path) {
  std::error_code ec;
  for (const OutputPath* p : {&private_path, &public_path}) {
    if (fs::exists(fs::symlink_status(p->path(), ec))) {
      throw UsageError(p->string(), "already exists; ptsuite never overwrites a key file");
    }
  }
  write_new_file(private_path, key.private_pem(), 0600);
  write_new_file(public_path, key.public_key().pem(), 0644);
}

std::string base64_encode(const std::vector<uint8_t>& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3), '\0');
  const int n =
      EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes.data(), static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

bool base64_decode(std::string_view text, std::vector<uint8_t>& out) {
  if (text.empty() || text.size() % 4 != 0) {
    return false;
  }
  // EVP_DecodeBlock decodes whole 4-character groups and keeps the padding's zero bytes:
  // every "=" at the end stands for one byte less.
  const size_t padding = text.size() - text.find_last_not_of('=') - 1;
  if (padding > 2) {
    return false;
  }
  out.assign(3 * text.size() / 4, 0);
  const int n =
      EVP_DecodeBlock(out.data(), reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0 || static_cast<size_t>(n) != out.size()) {
    return false;
  }
  out.resize(out.size() - padding);
  return base64_encode(out) == text;  // canonical form only: one text per byte string
}

}  // namespace ptsuite::bundle
