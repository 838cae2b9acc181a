// `ptsuite sign RUN_DIR --key KEY [--tested-by NAME]`: signs a bundle (docs/bundle.md).
//  1. refuses a bundle that no longer matches its manifest (exit 1), or whose existing
//     signature does not verify (exit 1): signing must never launder a change; with
//     --accept-changes it lists every change and signs (the signer vouches for them, e.g.
//     reports re-rendered with `ptsuite report`);
//  2. for a ptsuite document of any kind (results/document_kinds.def: results.json of a run,
//     compare.json of a comparison), records the signer in it ("attestation": key fingerprint,
//     signing time, tested-by) and re-renders the reports already in the directory (HTML,
//     PDF, text) from the typed document so that the report's first page names the key; CSV
//     files do not show it;
//  3. rewrites the manifest (which now covers the updated results and reports);
//  4. signs the manifest (bundle/signature.hpp) into SIGNATURE.ed25519.json.
// A PDF that needs re-rendering without Chromium installed is refused before anything changes
// (exit 5). Bad key or directory: exit 2.
#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/bundle/signature.hpp>
#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/report/pdf.hpp>
#include <ptsuite/report/report_writer.hpp>
#include <ptsuite/results/document.hpp>
#include <ptsuite/results/document_envelope.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/shell_quote.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"
#include "cli/path_roles.hpp"
#include "report/writer_internal.hpp"

namespace ptsuite::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct SignOptions {
  std::string dir;
  std::string key;
  std::string tested_by;
  bool tested_by_given = false;
  bool accept_changes = false;
};

// The bundle's document (results.json, else compare.json) when it is a ptsuite document of a
// listed kind, else null (a bundle of other files is signed as it is).
struct BundleDocument {
  fs::path path;
  json tree;
  bool pretty = false;  // written indented (app runs, replays, captures, comparisons), else compact
};

// What sign may rewrite (restored when it fails): every kind's document and HTML / PDF report
// (results/document_kinds.def), and summary.txt.
std::vector<std::string> files_sign_rewrites() {
  std::vector<std::string> out = results::document_file_names();
  for (const results::DocumentKindInfo& info : results::document_kinds()) {
    const std::string html(info.html_file);
    const std::string pdf = html.substr(0, html.rfind('.')) + ".pdf";
    for (const std::string& name : {html, pdf}) {
      if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    }
  }
  out.emplace_back("summary.txt");
  return out;
}

std::optional<BundleDocument> load_bundle_document(const fs::path& dir) {
  for (const std::string& name : results::document_file_names()) {
    const fs::path path = dir / name;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) continue;
    try {
      const std::string text = read_file(path);
      json doc = parse_json_input(text, path.string(), k_document_json_limits);
      if (!doc.is_object() || results::find_document_kind(doc.value("kind", "")) == nullptr) return std::nullopt;
      return BundleDocument{path, std::move(doc), text.rfind("{\n", 0) == 0};
    } catch (const UsageError&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// The report formats already rendered into `dir` that show the attestation.
std::vector<std::string> rendered_formats(const fs::path& dir, const results::DocumentKindInfo& kind) {
  const fs::path html(kind.html_file);
  std::vector<std::string> formats;
  for (const auto& [format, file] : {std::pair<std::string, std::string>{"html", html.string()},
                                     {"pdf", fs::path(html).replace_extension(".pdf").string()},
                                     {"text", "summary.txt"}}) {
    std::error_code ec;
    if (fs::is_regular_file(dir / file, ec)) formats.emplace_back(format);
  }
  return formats;
}

// The files that signing rewrites, as they were: restored if anything fails before the new
// manifest is written, so that a failed `sign` leaves the bundle as it found it.
class Rollback {
 public:
  Rollback(const OutputDir& dir, const std::vector<std::string>& names) {
    for (const std::string& name : names) {
      std::error_code ec;
      if (fs::is_regular_file(dir.path() / name, ec)) {
        m_saved.emplace_back(dir.file(name), read_file(dir.path() / name));
      }
    }
  }
  ~Rollback() {
    if (m_armed) {
      for (const auto& [path, content] : m_saved) {
        try {
          write_file_atomic(path, content);
        } catch (const Error&) {
          // Best effort: the error that got us here is what the user sees.
        }
      }
    }
  }
  Rollback(const Rollback&) = delete;
  Rollback& operator=(const Rollback&) = delete;
  void commit() { m_armed = false; }

 private:
  std::vector<std::pair<OutputPath, std::string>> m_saved;
  bool m_armed = true;
};

// Records the signer in the document and re-renders the reports that show it.
void attest_document(const OutputDir& out, BundleDocument& bundle, const results::AttestationRecord& attestation) {
  const fs::path& dir = out.path();
  report::check_report_document(ptsuite::results::read_envelope(bundle.tree), bundle.path.string());
  results::attach_attestation(bundle.tree, attestation);
  const results::Document doc = results::read_document(bundle.tree, bundle.path.string());
  const std::vector<std::string> formats = rendered_formats(dir, *doc.info);
  if (std::find(formats.begin(), formats.end(), "pdf") != formats.end() && report::find_chromium().empty()) {
    throw Error(ExitCode::system,
                "the PDF report must be re-rendered to name the signing key, and headless Chromium is not installed "
                "(apt-get install chromium), or remove the PDF and sign again");
  }
  write_file_atomic(out.file(bundle.path.filename().string()),
                    bundle.pretty ? bundle.tree.dump(2) + "\n" : bundle.tree.dump());
  for (const std::string& path : report::write_reports(out, doc, formats)) {
    fmt::print("re-rendered: {}\n", path);
  }
}

// Signing must never launder a change: a bundle that no longer matches its manifest, or whose
// existing signature does not verify, is refused unless the signer accepts the changes
// explicitly (--accept-changes, e.g. after re-rendering reports); each accepted change is listed.
void check_bundle_before_signing(const fs::path& dir, bool accept_changes) {
  const bundle::VerifyReport report = bundle::verify_manifest(dir);
  const bundle::SignatureCheck previous = bundle::check_signature(dir, nullptr);
  if (!accept_changes && !report.intact()) {
    throw Error(ExitCode::negative_verdict,
                fmt::format("refusing to sign {}: it no longer matches its manifest ({} problem(s), first: {} {}); "
                            "check them with `ptsuite verify {}`, then sign with --accept-changes to vouch for them",
                            dir.string(), report.problems.size(), bundle::to_string(report.problems.front().kind),
                            report.problems.front().path, dir.string()));
  }
  if (!accept_changes && previous.file && !previous.valid()) {
    throw Error(ExitCode::negative_verdict,
                fmt::format("refusing to sign {}: its existing signature does not verify ({}); sign with "
                            "--accept-changes to replace it",
                            dir.string(), previous.reason));
  }
  for (const bundle::FileProblem& p : report.problems) {
    fmt::print("accepting: {} {}: {}\n", bundle::to_string(p.kind), p.path, p.detail);
  }
  if (previous.file && !previous.valid()) {
    fmt::print("accepting: the previous signature does not verify ({})\n", previous.reason);
  }
}

int run_sign(const SignOptions& o) {
  device::OutputGate gate("sign");
  gate.add_input(o.key, "--key");
  const OutputDir out = gate.directory(o.dir, "RUN_DIR", device::OutputGate::Existing::may_hold_files);
  const fs::path dir(o.dir);
  const bundle::SigningKey key = bundle::SigningKey::load(o.key);
  check_bundle_before_signing(dir, o.accept_changes);
  std::optional<BundleDocument> document = load_bundle_document(dir);
  const json* config = document && document->tree.contains("config") && document->tree.at("config").is_object()
                           ? &document->tree.at("config")
                           : nullptr;
  const std::string tested_by =
      o.tested_by_given || config == nullptr ? o.tested_by : config->value("tested_by", std::string());
  const std::string signed_utc = utc_now_iso8601();
  Rollback rollback(out, files_sign_rewrites());
  if (document) {
    attest_document(out, *document,
                    results::AttestationRecord{"ed25519", key.public_key().fingerprint(), signed_utc, tested_by,
                                               std::string(bundle::k_signature_file_name)});
  }
  const bundle::Manifest manifest = bundle::write_manifest(out);
  rollback.commit();
  const bundle::SignatureFile file = bundle::sign_bundle(out, key, tested_by, signed_utc);
  fmt::print("signed: {} ({} file(s), manifest SHA-256 {}) with key {}\n", dir.string(), manifest.files.size(),
             file.statement.manifest_file_sha256, file.statement.key_fingerprint);
  // The public key keygen wrote beside the private one, when it is there.
  const std::string pub = std::filesystem::exists(o.key + ".pub") ? o.key + ".pub" : "PUBLIC_KEY";
  fmt::print("check it with: ptsuite verify {} --pubkey {}\n", shell_quote(dir.string()),
             pub == "PUBLIC_KEY" ? pub : shell_quote(pub));
  return static_cast<int>(ExitCode::success);
}

}  // namespace

void register_sign_command(CLI::App& app, CommandSlot& slot) {
  auto o = std::make_shared<SignOptions>();
  CLI::App* command =
      app.add_subcommand("sign", "Sign a run directory's manifest with an Ed25519 key (ptsuite keygen)");
  command->add_option("RUN_DIR", o->dir, "The run directory (bundle) to sign")->check(paths::run_dir())->required();
  command->add_option("--key", o->key, "Private key file (PEM, from ptsuite keygen or openssl genpkey)")
      ->check(paths::input())
      ->required();
  CLI::Option* tested_by = add_shared_option(command, "--tested-by", o->tested_by,
                                             "Name the signer vouches for (default: the run's --tested-by)")
                               ->check(paths::none());
  command->add_flag("--accept-changes", o->accept_changes,
                    "Sign even though files changed since the manifest (each is listed): you vouch for them");
  command->callback([o, tested_by, &slot] {
    o->tested_by_given = tested_by->count() > 0;
    slot.action = [o] { return run_sign(*o); };
  });
}

}  // namespace ptsuite::cli
