// A run page's verification status (verification.hpp).
#include "verification.hpp"

#include <fmt/format.h>
#include <filesystem>
#include <map>

#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/bundle/signature.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/sha256.hpp>

namespace ptsuite::serve::detail {

namespace {

void add_row(DataTable& t, const std::string& what, bool ok, const std::string& detail) {
  t.rows.push_back({{what}, {ok ? "ok" : "FAILED", "", std::nullopt, ok ? "ok" : "bad", ""}, {detail}});
}

void verify_directory(DataTable& t, const std::filesystem::path& dir) {
  const bundle::VerifyReport report = bundle::verify_manifest(dir);
  std::string detail = fmt::format("{} file(s) match", report.files_matching);
  for (const bundle::FileProblem& p : report.problems) {
    detail += fmt::format("; {} {} {}", bundle::to_string(p.kind), p.path, p.detail);
  }
  add_row(t, "manifest (run directory)", report.intact(), detail);
  const bundle::SignatureCheck sig = bundle::check_signature(dir, nullptr);
  if (sig.status == bundle::SignatureStatus::unsigned_bundle) {
    t.rows.push_back({{"signature"}, {"not signed"}, {""}});
    return;
  }
  add_row(t, "signature (run directory)", sig.valid(),
          sig.valid() ? "valid against the key in the signature file (" + sig.file->statement.key_fingerprint +
                            "); `ptsuite verify --pubkey` checks a trusted key"
                      : sig.reason);
}

void verify_stored_bundle(DataTable& t, const std::vector<history::BundleFile>& files) {
  std::map<std::string, const history::BundleFile*> by_path;
  size_t intact = 0;
  for (const history::BundleFile& f : files) {
    by_path[f.path] = &f;
    intact += sha256_hex(f.content) == f.sha256 && f.content.size() == f.size_bytes ? 1 : 0;
  }
  add_row(t, "stored bundle files", intact == files.size(),
          fmt::format("{} of {} match their SHA-256", intact, files.size()));
  const auto manifest = by_path.find(std::string(bundle::k_manifest_file_name));
  if (manifest == by_path.end()) {
    add_row(t, "manifest (stored bundle)", false, "the stored bundle has no manifest");
    return;
  }
  std::string stored;
  const bundle::Manifest m = bundle::parse_manifest(manifest->second->content, "stored manifest", &stored);
  size_t listed = 0;
  for (const bundle::ManifestEntry& e : m.files) {
    const auto f = by_path.find(e.path);
    listed += f != by_path.end() && f->second->sha256 == e.sha256 ? 1 : 0;
  }
  add_row(t, "manifest (stored bundle)", stored == bundle::manifest_checksum(m) && listed == m.files.size(),
          fmt::format("self-checksum {}; {} of {} listed files stored and matching",
                      stored == bundle::manifest_checksum(m) ? "matches" : "DIFFERS", listed, m.files.size()));
  const auto sig = by_path.find(std::string(bundle::k_signature_file_name));
  if (sig == by_path.end()) {
    t.rows.push_back({{"signature"}, {"not signed"}, {""}});
    return;
  }
  const bundle::SignatureFile s = bundle::parse_signature(sig->second->content, "stored signature");
  add_row(t, "signature statement (stored bundle)",
          s.statement.manifest_file_sha256 == sha256_hex(manifest->second->content),
          "key " + s.statement.key_fingerprint +
              "; the Ed25519 check: `ptsuite history bundle ID --out DIR && ptsuite verify DIR`");
}

}  // namespace

DataTable verification_table(Catalog& catalog, const history::RunRecord& run) {
  DataTable t{"verification", {"check", "result", "detail"}, {}, ""};
  std::error_code ec;
  const std::filesystem::path dir(run.run_dir);
  try {
    if (!run.run_dir.empty() && std::filesystem::is_regular_file(dir / bundle::k_manifest_file_name, ec)) {
      verify_directory(t, dir);
    } else if (run.bundle_stored) {
      verify_stored_bundle(t, catalog.bundle(run.id));
    } else {
      t.rows.push_back(
          {{"manifest"}, {"not available"}, {"neither the run directory nor a stored bundle is on this host"}});
    }
  } catch (const Error& e) {
    add_row(t, "verification", false, e.what());
  }
  return t;
}

}  // namespace ptsuite::serve::detail
