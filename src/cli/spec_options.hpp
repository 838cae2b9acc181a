// Private: the options every PTS command shares (run, plan, settings): --profile, --revision,
// --quick and repeatable --set NAME=VALUE, turned into the pts layer's inputs.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace ptsuite::cli {

struct SpecOptions {
  std::string profile = "enterprise";
  std::string revision = "2.0.2";
  bool quick = false;
  std::vector<std::string> sets;

  [[nodiscard]] std::vector<std::string> presets() const {
    return quick ? std::vector<std::string>{"quick"} : std::vector<std::string>{};
  }
  // Parses every --set (throws UsageError("--set", ...)).
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> overrides() const;
};

void add_spec_options(CLI::App* app, SpecOptions& options);

}  // namespace ptsuite::cli
