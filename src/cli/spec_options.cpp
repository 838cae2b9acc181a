#include "cli/spec_options.hpp"

#include <ptsuite/pts/settings.hpp>

#include "cli/flags.hpp"
#include "cli/path_roles.hpp"

namespace ptsuite::cli {

std::vector<std::pair<std::string, std::string>> SpecOptions::overrides() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& s : sets) {
    out.push_back(pts::parse_setting_assignment(s));
  }
  return out;
}

void add_spec_options(CLI::App* app, SpecOptions& o) {
  add_shared_option(app, "--profile", o.profile,
                    "enterprise (WCD, AR 100 %, TC 4/QD 32) or client (WCE, AR 75 %, TC 2/QD 16)")
      ->check(paths::none())
      ->capture_default_str();
  add_shared_option(app, "--revision", o.revision, "Spec revision: 2.0.2 or e1.1 (PTS-E 1.1)")
      ->check(paths::none())
      ->capture_default_str();
  add_shared_flag(
      app, "--quick", o.quick,
      "Shortened durations for demos and CI (1-4 GiB targets); the run is marked 'not compliant: shortened'");
  add_shared_option(app, "--set", o.sets,
                    "Override a named setting, NAME=VALUE (repeatable; list them with `ptsuite settings`)")
      ->check(paths::none());
}

}  // namespace ptsuite::cli
