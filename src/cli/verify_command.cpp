// `ptsuite verify DIR`: recomputes the SHA-256 of every file of a run directory against its
// MANIFEST.sha256.json (report/manifest.hpp, docs/bundle.md). Prints one line per problem,
// "<kind>  <path>: <detail>", then a final "OK: ..." or "FAILED: ..." line, all on stdout.
// Exit 0 when intact, 1 when anything changed, is missing or was added (or the manifest was
// edited), 2 for bad input (no such directory, no manifest, malformed manifest).
#include <fmt/format.h>
#include <cstdio>
#include <memory>
#include <string>

#include <ptsuite/report/manifest.hpp>
#include <ptsuite/util/error.hpp>

#include "cli/commands.hpp"

namespace ptsuite::cli {

namespace {

int run_verify(const std::string& dir) {
  const report::VerifyReport result = report::verify_manifest(dir);
  const report::Manifest& m = result.manifest;
  const std::string origin =
      fmt::format("manifest of {}, ptsuite {} ({})", m.created_utc, m.ptsuite_version, m.git_revision);
  if (result.intact()) {
    fmt::print("OK: {} file(s) intact in {} ({})\n", result.files_matching, dir, origin);
    return static_cast<int>(ExitCode::success);
  }
  size_t counts[4] = {0, 0, 0, 0};
  for (const report::FileProblem& p : result.problems) {
    fmt::print("{:<8} {}: {}\n", report::to_string(p.kind), p.path, p.detail);
    ++counts[static_cast<size_t>(p.kind)];
  }
  std::string summary;
  for (const report::Problem kind :
       {report::Problem::manifest_edited, report::Problem::changed, report::Problem::missing, report::Problem::added}) {
    if (counts[static_cast<size_t>(kind)] > 0) {
      summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", counts[static_cast<size_t>(kind)],
                             report::to_string(kind));
    }
  }
  fmt::print("FAILED: {} problem(s) in {} ({}); {} file(s) intact ({})\n", result.problems.size(), dir, summary,
             result.files_matching, origin);
  return static_cast<int>(ExitCode::negative_verdict);
}

}  // namespace

void register_verify_command(CLI::App& app, CommandSlot& slot) {
  auto dir = std::make_shared<std::string>();
  CLI::App* command =
      app.add_subcommand("verify", "Check a run directory against its MANIFEST.sha256.json (exit 0 intact, 1 changed)");
  command->add_option("DIR", *dir, "The run directory (bundle) to verify")->required();
  command->callback([dir, &slot] { slot.action = [dir] { return run_verify(*dir); }; });
}

}  // namespace ptsuite::cli
