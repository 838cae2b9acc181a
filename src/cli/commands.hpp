// Private: the registration functions of every subcommand (see include/ptsuite/cli/cli.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include <ptsuite/cli/cli.hpp>

namespace ptsuite::cli {

// The process's arguments as given (argv[0] included), recorded by run() for disclosure.
const std::vector<std::string>& invocation();

// The whole CLI definition on `app` (every subcommand and the shared conventions): what run()
// parses, and what the generated docs and the hostile-input table (path_roles.hpp) walk.
void define_cli(CLI::App& app, CommandSlot& slot);

// For unsigned numeric options (CLI11 converts "-1" to 2^64-1): refuses a sign or anything but
// decimal digits, so "--seed -1" is exit 2 naming the option, never a wrapped value.
inline CLI::Validator whole_number() {
  return CLI::Validator(
      [](const std::string& text) -> std::string {
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
          return "\"" + text + "\" is not a whole number from 0 to 2^64-1 (no sign, decimal digits only)";
        }
        return {};
      },
      "UINT");
}

// One line per subcommand, e.g.:
// void register_engines_command(CLI::App& app, CommandSlot& slot);
void register_engines_command(CLI::App& app, CommandSlot& slot);
void register_workload_command(CLI::App& app, CommandSlot& slot);
void register_demo_command(CLI::App& app, CommandSlot& slot);
void register_steady_state_command(CLI::App& app, CommandSlot& slot);
void register_verify_command(CLI::App& app, CommandSlot& slot);
void register_device_command(CLI::App& app, CommandSlot& slot);
void register_run_command(CLI::App& app, CommandSlot& slot);
void register_resume_command(CLI::App& app, CommandSlot& slot);
void register_plan_command(CLI::App& app, CommandSlot& slot);
void register_settings_command(CLI::App& app, CommandSlot& slot);
void register_report_command(CLI::App& app, CommandSlot& slot);
void register_keygen_command(CLI::App& app, CommandSlot& slot);
void register_sign_command(CLI::App& app, CommandSlot& slot);
void register_history_command(CLI::App& app, CommandSlot& slot);
void register_preflight_command(CLI::App& app, CommandSlot& slot);
void register_validate_command(CLI::App& app, CommandSlot& slot);
void register_scenario_command(CLI::App& app, CommandSlot& slot);
void register_compare_command(CLI::App& app, CommandSlot& slot);
void register_capture_command(CLI::App& app, CommandSlot& slot);
void register_replay_command(CLI::App& app, CommandSlot& slot);
void register_app_command(CLI::App& app, CommandSlot& slot);
void register_fleet_command(CLI::App& app, CommandSlot& slot);
void register_serve_command(CLI::App& app, CommandSlot& slot);

}  // namespace ptsuite::cli
