// `ptsuite verify DIR [--pubkey PUB]`: recomputes the SHA-256 of every file of a run directory
// against its MANIFEST.sha256.json (bundle/manifest.hpp) and checks its Ed25519 signature
// (bundle/signature.hpp, docs/bundle.md). Prints one line per file problem,
// "<kind>  <path>: <detail>", a "signature: ..." line for a signed bundle, then a final
// "OK: ..." or "FAILED: <reason>" line, all on stdout.
// Exit 0 when intact (and, with --pubkey, signed by that key); 1 when anything changed, is
// missing or was added, the manifest was edited, or the signature fails (not signed, wrong
// key, edited signature, manifest changed after signing); 2 for bad input (no such directory,
// no manifest, a malformed manifest, signature file or key file).
#include <fmt/format.h>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/bundle/signature.hpp>
#include <ptsuite/results/document.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/printable.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"
#include "cli/path_roles.hpp"

namespace ptsuite::cli {

namespace {

namespace fs = std::filesystem;

struct VerifyOptions {
  std::string dir;
  std::string pubkey;
  bool json = false;
};

std::string problem_summary(const bundle::VerifyReport& result) {
  size_t counts[4] = {0, 0, 0, 0};
  for (const bundle::FileProblem& p : result.problems) {
    ++counts[static_cast<size_t>(p.kind)];
  }
  std::string summary;
  for (const bundle::Problem kind :
       {bundle::Problem::manifest_edited, bundle::Problem::changed, bundle::Problem::missing, bundle::Problem::added}) {
    if (counts[static_cast<size_t>(kind)] > 0) {
      summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", counts[static_cast<size_t>(kind)],
                             bundle::to_string(kind));
    }
  }
  return summary;
}

std::string signer_text(const bundle::SignatureStatement& s) {
  return fmt::format("signed by {} on {}{}", s.key_fingerprint, s.signed_utc,
                     s.tested_by.empty() ? "" : " for " + s.tested_by);
}

// A bundle that says it was signed (its document's "attestation", which `sign` writes and the
// manifest covers: the directory's document, results::document_file_in()) but whose signature file
// is gone: the reason it is not intact, or "".
std::string missing_signature(const std::string& dir, const bundle::SignatureCheck& signature) {
  std::error_code ec;
  const fs::path document = results::document_file_in(dir).value_or(fs::path(dir) / "results.json");
  if (signature.file || !fs::is_regular_file(document, ec)) return {};
  nlohmann::json doc;
  try {
    doc = load_json_input(document, document.string(), k_document_json_limits);
  } catch (const Error&) {
    return {};  // not a results document: the manifest check speaks for it
  }
  if (!doc.is_object() || !doc.contains("attestation") || !doc.at("attestation").is_object()) return {};
  const nlohmann::json& a = doc.at("attestation");
  return fmt::format("{} says the bundle was signed (key {}, {}) but {} is missing", document.filename().string(),
                     printable(a.value("key_fingerprint", "?")), printable(a.value("signed_utc", "?")),
                     bundle::k_signature_file_name);
}

// What verify found: the text lines it prints, the verdict, and the same as JSON (--json).
struct VerifyOutcome {
  std::vector<std::string> lines;
  bool intact = false;
  std::string verdict;  // the last line: "OK: ..." or "FAILED: ..."
};

VerifyOutcome judge(const VerifyOptions& o, const bundle::VerifyReport& result, const bundle::SignatureCheck& signature,
                    bool signature_required) {
  VerifyOutcome v;
  const bundle::Manifest& m = result.manifest;
  const std::string origin =
      fmt::format("manifest of {}, ptsuite {} ({})", m.created_utc, m.ptsuite_version, m.git_revision);
  for (const bundle::FileProblem& p : result.problems) {
    v.lines.push_back(fmt::format("{:<8} {}: {}", bundle::to_string(p.kind), p.path, p.detail));
  }
  const std::string problems_too =
      result.intact() ? ""
                      : fmt::format("; and {} file problem(s) ({})", result.problems.size(), problem_summary(result));
  if (const std::string missing = missing_signature(o.dir, signature); !missing.empty()) {
    v.verdict = fmt::format("FAILED: {}{}", missing, problems_too);
    return v;
  }
  if (signature.valid()) {
    v.lines.push_back(fmt::format(
        "signature: valid, {}{}", signer_text(signature.file->statement),
        signature.key_trusted ? " (the --pubkey key)" : " (key not checked: pass --pubkey to check who signed)"));
  }
  if (signature_required && !signature.valid()) {
    v.verdict = fmt::format("FAILED: {}{}", signature.reason, problems_too);
    return v;
  }
  if (!result.intact()) {
    v.verdict = fmt::format("FAILED: {} problem(s) in {} ({}){}; {} file(s) intact ({})", result.problems.size(), o.dir,
                            problem_summary(result), signature.valid() ? " since it was signed" : "",
                            result.files_matching, origin);
    return v;
  }
  v.intact = true;
  v.verdict = fmt::format("OK: {} file(s) intact in {} ({}){}", result.files_matching, o.dir, origin,
                          signature.valid() ? "; " + signer_text(signature.file->statement) : "");
  return v;
}

// `ptsuite verify --json`: the verdict, the manifest's check and the signature's.
struct VerifyDocument {
  const VerifyOutcome& v;
  const bundle::VerifyReport& result;
  const bundle::SignatureCheck& signature;
};

nlohmann::json to_json(const VerifyDocument& d) {
  const VerifyOutcome& v = d.v;
  const bundle::VerifyReport& result = d.result;
  const bundle::SignatureCheck& signature = d.signature;
  nlohmann::json problems = nlohmann::json::array();
  for (const bundle::FileProblem& p : result.problems) {
    problems.push_back({{"kind", bundle::to_string(p.kind)}, {"path", p.path}, {"detail", p.detail}});
  }
  nlohmann::json sig = nullptr;
  if (signature.file) {
    const bundle::SignatureStatement& st = signature.file->statement;
    sig = {{"valid", signature.valid()},
           {"key_trusted", signature.key_trusted},
           {"key_fingerprint", st.key_fingerprint},
           {"signed_utc", st.signed_utc},
           {"tested_by", st.tested_by},
           {"reason", signature.valid() ? "" : signature.reason}};
  }
  return {{"intact", v.intact},
          {"verdict", v.verdict},
          {"files_matching", result.files_matching},
          {"manifest",
           {{"created_utc", result.manifest.created_utc},
            {"ptsuite_version", result.manifest.ptsuite_version},
            {"git_revision", result.manifest.git_revision}}},
          {"problems", std::move(problems)},
          {"signature", std::move(sig)}};
}

int run_verify(const VerifyOptions& o) {
  std::optional<bundle::PublicKey> trusted;
  if (!o.pubkey.empty()) {
    trusted.emplace(bundle::PublicKey::load(o.pubkey));
  }
  const bundle::VerifyReport result = bundle::verify_manifest(o.dir);
  const bundle::SignatureCheck signature = bundle::check_signature(o.dir, trusted ? &*trusted : nullptr);
  const bool signature_required = trusted.has_value() || signature.file.has_value();
  const VerifyOutcome v = judge(o, result, signature, signature_required);
  if (o.json) {
    fmt::print("{}\n", to_json(VerifyDocument{v, result, signature}).dump(1));
  } else {
    for (const std::string& line : v.lines) fmt::print("{}\n", line);
    fmt::print("{}\n", v.verdict);
  }
  return static_cast<int>(v.intact ? ExitCode::success : ExitCode::negative_verdict);
}

}  // namespace

void register_verify_command(CLI::App& app, CommandSlot& slot) {
  auto o = std::make_shared<VerifyOptions>();
  CLI::App* command = app.add_subcommand(
      "verify", "Check a run directory against its MANIFEST.sha256.json and signature (exit 0 intact, 1 changed)");
  command->add_option("DIR", o->dir, "The run directory (bundle) to verify")->check(paths::input())->required();
  add_shared_option(command, "--pubkey", o->pubkey,
                    "Public key the bundle must be signed with (PEM; fails unless signed by exactly this key)")
      ->check(paths::input());
  add_shared_flag(command, "--json", o->json,
                  "The verdict, every file problem and the signature as JSON (same exit codes)");
  command->callback([o, &slot] { slot.action = [o] { return run_verify(*o); }; });
}

}  // namespace ptsuite::cli
