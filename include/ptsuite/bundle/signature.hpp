// Contract: the Ed25519 signature of a bundle (docs/bundle.md, "Signed bundles").
//
// sign_bundle(dir, key, tested_by, signed_utc) signs a *statement* about dir/MANIFEST.sha256.json and
// writes it with the signature to dir/SIGNATURE.ed25519.json (atomically). The statement binds:
//   * the manifest: the SHA-256 of the manifest file's bytes (the manifest pins every file's
//     SHA-256, so the signature covers every file of the bundle) and its self-checksum;
//   * the key: its fingerprint (ed25519.hpp), so a signature cannot be re-attributed;
//   * when and by what: the signing time (UTC) and the signing ptsuite's version and revision;
//   * who: the tested-by name the signer vouches for (the run's --tested-by).
// The bytes signed are canonical_statement(): compact JSON of the statement's fields in a
// fixed order, rebuilt from the parsed fields on verification (unknown fields are malformed).
// The signer's public key travels in the file for convenience; trust comes only from the key
// the verifier passes (--pubkey): without one, check_signature() still proves the bundle is
// unchanged since *someone* signed it, and says that the key was not checked.
//
// check_signature(dir, trusted) checks, in this order, and stops at the first failure:
//   not signed (no signature file)  -> SignatureStatus::unsigned_bundle
//   --pubkey is another key          -> wrong_key (both fingerprints in the reason)
//   signature does not verify         -> bad_signature (the signature file was edited)
//   manifest bytes differ             -> manifest_changed (the manifest was edited or rewritten)
// File contents are then checked by bundle::verify_manifest() (manifest.hpp), by the caller.
// Errors: UsageError (exit 2) for a malformed signature file or a missing manifest when signing;
// SystemError (exit 5) for IO and libcrypto failures.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/bundle/ed25519.hpp>

namespace ptsuite::bundle {

inline constexpr std::string_view k_signature_format = "ptsuite-bundle-signature";
inline constexpr int k_signature_format_version = 1;

struct SignatureStatement {
  std::string manifest_file;         // "MANIFEST.sha256.json"
  std::string manifest_file_sha256;  // SHA-256 of the manifest file's bytes, 64 hex digits
  std::string manifest_sha256;       // the manifest's self-checksum (manifest_checksum())
  std::string key_fingerprint;       // "SHA256:<64 hex>"
  std::string signed_utc;            // "2026-11-21T18:19:00Z"
  std::string ptsuite_version;
  std::string git_revision;
  std::string tested_by;  // may be empty
};

struct SignatureFile {
  SignatureStatement statement;
  std::string public_key_pem;      // the signer's public key (informative)
  std::vector<uint8_t> signature;  // 64 bytes
};

// The exact bytes an Ed25519 signature covers.
std::string canonical_statement(const SignatureStatement& statement);
std::string serialize_signature(const SignatureFile& file);
SignatureFile parse_signature(std::string_view text, const std::string& source);

// Signs the manifest as it is now; the manifest must exist (write_manifest() first).
// `signed_utc` is the signing time to bind (utc_now_iso8601() unless the caller recorded it).
SignatureFile sign_bundle(const OutputDir& dir, const SigningKey& key, const std::string& tested_by,
                          const std::string& signed_utc);

enum class SignatureStatus { valid, unsigned_bundle, wrong_key, bad_signature, manifest_changed };

struct SignatureCheck {
  SignatureStatus status = SignatureStatus::unsigned_bundle;
  std::string reason;                 // one line; empty when valid
  std::optional<SignatureFile> file;  // as read (absent when unsigned)
  bool key_trusted = false;           // checked against a key the caller passed
  [[nodiscard]] bool valid() const noexcept { return status == SignatureStatus::valid; }
};

// `trusted` = the verifier's public key, or nullptr to check against the key in the file.
SignatureCheck check_signature(const std::filesystem::path& dir, const PublicKey* trusted);

// The signature file of `dir`, if there is one (parsed, not verified).
std::optional<SignatureFile> read_signature(const std::filesystem::path& dir);

}  // namespace ptsuite::bundle
