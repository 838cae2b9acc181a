// A run page's verification status (verification.hpp).
#include "verification.hpp"

#include <fmt/format.h>
#include <filesystem>
#include <map>

#include <ptsuite/bundle/ed25519.hpp>
#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/bundle/signature.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/sha256.hpp>

namespace ptsuite::serve::detail {

namespace {

// The checks' rows, and what they add up to.
struct Checks {
  DataTable table{"verification", {"check", "result", "detail"}, {}, ""};
  bool failed = false;
  bool signature_valid = false;
  bool available = true;

  void add(const std::string& what, bool ok, const std::string& detail) {
    table.rows.push_back({{what}, {ok ? "ok" : "FAILED", "", std::nullopt, ok ? "ok" : "bad", ""}, {detail}});
    failed = failed || !ok;
  }
  void not_signed() { table.rows.push_back({{"signature"}, {"not signed"}, {""}}); }
};

void verify_directory(Checks& c, const std::filesystem::path& dir) {
  const bundle::VerifyReport report = bundle::verify_manifest(dir);
  std::string detail = fmt::format("{} file(s) match", report.files_matching);
  for (const bundle::FileProblem& p : report.problems) {
    detail += fmt::format("; {} {} {}", bundle::to_string(p.kind), p.path, p.detail);
  }
  c.add("manifest (run directory)", report.intact(), detail);
  const bundle::SignatureCheck sig = bundle::check_signature(dir, nullptr);
  if (sig.status == bundle::SignatureStatus::unsigned_bundle) return c.not_signed();
  c.add("signature (run directory)", sig.valid(),
        sig.valid() ? "valid against the key in the signature file (" + sig.file->statement.key_fingerprint +
                          "); `ptsuite verify --pubkey` checks a trusted key"
                    : sig.reason);
  c.signature_valid = sig.valid();
}

// The signature file of a stored bundle, checked as bundle::check_signature() checks a
// directory's: its key is the one it names, the Ed25519 signature over its statement verifies,
// and the statement names these manifest bytes.
void verify_stored_signature(Checks& c, const history::BundleFile& signature, const history::BundleFile& manifest) {
  const bundle::SignatureFile s = bundle::parse_signature(signature.content, "stored signature");
  const bundle::PublicKey key = bundle::PublicKey::from_pem(s.public_key_pem, "the stored signature file");
  std::string problem;
  if (key.fingerprint() != s.statement.key_fingerprint) {
    problem = fmt::format("signature file edited: its public key ({}) is not the signing key it names ({})",
                          key.fingerprint(), s.statement.key_fingerprint);
  } else if (!key.verify(bundle::canonical_statement(s.statement), s.signature)) {
    problem = "bad signature: the signature file was edited after signing (the Ed25519 signature does not verify)";
  } else if (s.statement.manifest_file_sha256 != sha256_hex(manifest.content)) {
    problem = fmt::format("manifest changed: the stored manifest is not the one signed on {}", s.statement.signed_utc);
  }
  c.add("signature (stored bundle)", problem.empty(),
        problem.empty() ? "Ed25519 signature valid against the key in the signature file (" +
                              s.statement.key_fingerprint + "); `ptsuite verify --pubkey` checks a trusted key"
                        : problem);
  c.signature_valid = problem.empty();
}

void verify_stored_bundle(Checks& c, const std::vector<history::BundleFile>& files) {
  std::map<std::string, const history::BundleFile*> by_path;
  size_t intact = 0;
  for (const history::BundleFile& f : files) {
    by_path[f.path] = &f;
    intact += sha256_hex(f.content) == f.sha256 && f.content.size() == f.size_bytes ? 1 : 0;
  }
  c.add("stored bundle files", intact == files.size(),
        fmt::format("{} of {} match their SHA-256", intact, files.size()));
  const auto manifest = by_path.find(std::string(bundle::k_manifest_file_name));
  if (manifest == by_path.end()) return c.add("manifest (stored bundle)", false, "the stored bundle has no manifest");
  std::string stored;
  const bundle::Manifest m = bundle::parse_manifest(manifest->second->content, "stored manifest", &stored);
  size_t listed = 0;
  for (const bundle::ManifestEntry& e : m.files) {
    const auto f = by_path.find(e.path);
    listed += f != by_path.end() && f->second->sha256 == e.sha256 && sha256_hex(f->second->content) == e.sha256 ? 1 : 0;
  }
  const bool self = stored == bundle::manifest_checksum(m);
  c.add("manifest (stored bundle)", self && listed == m.files.size(),
        fmt::format("self-checksum {}; {} of {} listed files stored and matching", self ? "matches" : "DIFFERS", listed,
                    m.files.size()));
  const auto sig = by_path.find(std::string(bundle::k_signature_file_name));
  if (sig == by_path.end()) return c.not_signed();
  verify_stored_signature(c, *sig->second, *manifest->second);
}

// The first row: what the checks add up to.
Cell status_cell(const Checks& c) {
  if (!c.available) return {"not available", "", std::nullopt, "", ""};
  if (c.failed) return {"tampered", "", std::nullopt, "bad", ""};
  if (!c.signature_valid) return {"not signed", "", std::nullopt, "", ""};
  return {"verified", "", std::nullopt, "ok", ""};
}

}  // namespace

DataTable verification_table(Catalog& catalog, const history::RunRecord& run) {
  Checks c;
  std::error_code ec;
  const std::filesystem::path dir(run.run_dir);
  try {
    if (!run.run_dir.empty() && std::filesystem::is_regular_file(dir / bundle::k_manifest_file_name, ec)) {
      verify_directory(c, dir);
    } else if (run.bundle_stored) {
      verify_stored_bundle(c, catalog.bundle(run.id));
    } else {
      c.available = false;
      c.table.rows.push_back(
          {{"manifest"}, {"not available"}, {"neither the run directory nor a stored bundle is on this host"}});
    }
  } catch (const Error& e) {
    c.add("verification", false, e.what());
  }
  const char* detail = !c.available        ? "nothing to check on this host"
                       : c.failed          ? "a file, the manifest or the signature differs from what was recorded"
                       : c.signature_valid ? "every file matches the manifest, and its signature verifies"
                                           : "every file matches the manifest; no signature";
  c.table.rows.insert(c.table.rows.begin(), {{"status"}, status_cell(c), {detail}});
  return c.table;
}

}  // namespace ptsuite::serve::detail
