#include <ptsuite/bundle/signature.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <nlohmann/json.hpp>

#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/sha256.hpp>
#include <ptsuite/util/version.hpp>

namespace ptsuite::bundle {

namespace fs = std::filesystem;
using ordered_json = nlohmann::ordered_json;

namespace {

// The statement's fields in signing order: the canonical form and the parser share it.
struct Field {
  const char* key;
  std::string SignatureStatement::*member;
};
constexpr Field k_fields[] = {
    {"manifest_file", &SignatureStatement::manifest_file},
    {"manifest_file_sha256", &SignatureStatement::manifest_file_sha256},
    {"manifest_sha256", &SignatureStatement::manifest_sha256},
    {"key_fingerprint", &SignatureStatement::key_fingerprint},
    {"signed_utc", &SignatureStatement::signed_utc},
    {"ptsuite_version", &SignatureStatement::ptsuite_version},
    {"git_revision", &SignatureStatement::git_revision},
    {"tested_by", &SignatureStatement::tested_by},
};

ordered_json statement_json(const SignatureStatement& s) {
  ordered_json j{
      {"format", k_signature_format}, {"format_version", k_signature_format_version}, {"algorithm", "ed25519"}};
  for (const Field& f : k_fields) {
    j[f.key] = s.*f.member;
  }
  return j;
}

std::string string_field(const nlohmann::json& object, const char* key, const std::string& source) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string()) {
    throw UsageError(source, fmt::format("malformed signature file: \"{}\" missing or not a string", key));
  }
  return it->get<std::string>();
}

SignatureStatement parse_statement(const nlohmann::json& j, const std::string& source) {
  if (!j.is_object()) {
    throw UsageError(source, "malformed signature file: \"statement\" is not an object");
  }
  if (j.value("format", "") != k_signature_format || j.value("format_version", 0) != k_signature_format_version ||
      j.value("algorithm", "") != "ed25519") {
    throw UsageError(
        source, fmt::format("not a {} version {} (ed25519) statement", k_signature_format, k_signature_format_version));
  }
  SignatureStatement s;
  for (const Field& f : k_fields) {
    s.*f.member = string_field(j, f.key, source);
  }
  if (j.size() != std::size(k_fields) + 3) {
    throw UsageError(source, "malformed signature file: the statement has fields this ptsuite does not know");
  }
  return s;
}

ordered_json to_json(const SignatureFile& file) {
  return ordered_json{{"statement", statement_json(file.statement)},
                      {"signature", base64_encode(file.signature)},
                      {"public_key_pem", file.public_key_pem}};
}

}  // namespace

std::string canonical_statement(const SignatureStatement& statement) { return statement_json(statement).dump(); }

std::string serialize_signature(const SignatureFile& file) { return to_json(file).dump(2) + "\n"; }

SignatureFile parse_signature(std::string_view text, const std::string& source) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw UsageError(source, fmt::format("malformed signature file: not valid JSON (byte {})", e.byte));
  }
  if (!j.is_object() || !j.contains("statement")) {
    throw UsageError(source, "malformed signature file: no \"statement\"");
  }
  SignatureFile file;
  file.statement = parse_statement(j.at("statement"), source);
  if (!base64_decode(string_field(j, "signature", source), file.signature) ||
      file.signature.size() != k_ed25519_signature_bytes) {
    throw UsageError(source, "malformed signature file: \"signature\" is not 64 bytes of base64");
  }
  file.public_key_pem = string_field(j, "public_key_pem", source);
  return file;
}

SignatureFile sign_bundle(const OutputDir& out, const SigningKey& key, const std::string& tested_by,
                          const std::string& signed_utc) {
  const fs::path& dir = out.path();
  const fs::path manifest_path = dir / std::string(k_manifest_file_name);
  std::error_code ec;
  if (!fs::is_regular_file(manifest_path, ec)) {
    throw UsageError(dir.string(), fmt::format("no {} to sign (not a ptsuite bundle?)", k_manifest_file_name));
  }
  const std::string manifest_text = read_file(manifest_path);
  std::string self_checksum;
  (void)parse_manifest(manifest_text, manifest_path.string(), &self_checksum);

  SignatureFile file;
  SignatureStatement& s = file.statement;
  s.manifest_file = std::string(k_manifest_file_name);
  s.manifest_file_sha256 = sha256_hex(manifest_text);
  s.manifest_sha256 = self_checksum;
  s.key_fingerprint = key.public_key().fingerprint();
  s.signed_utc = signed_utc;
  s.ptsuite_version = std::string(version());
  s.git_revision = std::string(git_revision());
  s.tested_by = tested_by;
  file.signature = key.sign(canonical_statement(s));
  file.public_key_pem = key.public_key().pem();
  write_file_atomic(out.file(std::string(k_signature_file_name)), serialize_signature(file));
  return file;
}

std::optional<SignatureFile> read_signature(const fs::path& dir) {
  const fs::path path = dir / std::string(k_signature_file_name);
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    return std::nullopt;
  }
  return parse_signature(read_file(path), path.string());
}

SignatureCheck check_signature(const fs::path& dir, const PublicKey* trusted) {
  SignatureCheck check;
  check.file = read_signature(dir);
  if (!check.file) {
    check.status = SignatureStatus::unsigned_bundle;
    check.reason = fmt::format("not signed: no {} (sign it with `ptsuite sign DIR --key KEY`)", k_signature_file_name);
    return check;
  }
  const SignatureStatement& s = check.file->statement;
  const fs::path signature_path = dir / std::string(k_signature_file_name);
  std::optional<PublicKey> embedded;
  if (trusted == nullptr) {
    embedded.emplace(PublicKey::from_pem(check.file->public_key_pem, signature_path.string()));
  }
  const PublicKey& key = trusted != nullptr ? *trusted : *embedded;
  check.key_trusted = trusted != nullptr;
  if (key.fingerprint() != s.key_fingerprint) {
    check.status = trusted != nullptr ? SignatureStatus::wrong_key : SignatureStatus::bad_signature;
    check.reason = trusted != nullptr
                       ? fmt::format("wrong key: the bundle was signed by {}, not by the --pubkey key {}",
                                     s.key_fingerprint, key.fingerprint())
                       : fmt::format("signature file edited: its public key ({}) is not the signing key it names ({})",
                                     key.fingerprint(), s.key_fingerprint);
    return check;
  }
  if (!key.verify(canonical_statement(s), check.file->signature)) {
    check.status = SignatureStatus::bad_signature;
    check.reason = fmt::format("bad signature: {} was edited after signing (the signature does not verify)",
                               k_signature_file_name);
    return check;
  }
  const fs::path manifest_path = dir / s.manifest_file;
  std::error_code ec;
  if (s.manifest_file != k_manifest_file_name || !fs::is_regular_file(manifest_path, ec) ||
      sha256_file_hex(manifest_path) != s.manifest_file_sha256) {
    check.status = SignatureStatus::manifest_changed;
    check.reason = fmt::format("manifest changed: {} is not the manifest that was signed on {}", k_manifest_file_name,
                               s.signed_utc);
    return check;
  }
  check.status = SignatureStatus::valid;
  return check;
}

}  // namespace ptsuite::bundle
