#include <ptsuite/cli/cli.hpp>

#include <fmt/format.h>
#include <cstdio>
#include <optional>
#include <string>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/printable.hpp>
#include <ptsuite/util/version.hpp>
#include "cli/commands.hpp"
#include "cli/conventions.hpp"

namespace ptsuite::cli {

namespace {

// CLI11 parse errors come with multi-line help hints; ptsuite prints one line and exits 2.
int report_parse_error(const CLI::ParseError& e) {
  std::string message = e.what();
  if (const auto nl = message.find('\n'); nl != std::string::npos) {
    message.resize(nl);
  }
  fmt::print(stderr, "ptsuite: {} (see ptsuite --help)\n", message);
  return static_cast<int>(ExitCode::usage);
}

std::vector<std::string>& invocation_storage() {
  static std::vector<std::string> args;
  return args;
}

}  // namespace

const std::vector<std::string>& invocation() { return invocation_storage(); }

void define_cli(CLI::App& app, CommandSlot& slot) {
  app.set_version_flag("--version", fmt::format("ptsuite {} ({})", version(), git_revision()));
  app.require_subcommand(1);
  app.fallthrough(false);
  // One call per subcommand (declared in cli/commands.hpp).
  register_engines_command(app, slot);
  register_workload_command(app, slot);
  register_demo_command(app, slot);
  register_steady_state_command(app, slot);
  register_verify_command(app, slot);
  register_device_command(app, slot);
  register_run_command(app, slot);
  register_resume_command(app, slot);
  register_plan_command(app, slot);
  register_settings_command(app, slot);
  register_report_command(app, slot);
  register_keygen_command(app, slot);
  register_sign_command(app, slot);
  register_history_command(app, slot);
  register_preflight_command(app, slot);
  register_validate_command(app, slot);
  register_scenario_command(app, slot);
  register_compare_command(app, slot);
  register_capture_command(app, slot);
  register_replay_command(app, slot);
  register_app_command(app, slot);
  register_fleet_command(app, slot);
  register_serve_command(app, slot);
  register_completion_command(app, slot);
  register_man_command(app, slot);
  apply_conventions(app);
}

std::string with_flags(const std::string& message, const FieldFlags& fields) {
  const size_t colon = message.find(": ");
  if (colon == std::string::npos) {
    return message;
  }
  for (const auto& [field, flag] : fields) {
    if (message.compare(0, colon, field) == 0 && field.size() == colon) {
      return flag + message.substr(colon);
    }
  }
  return message;
}

int run(int argc, char** argv) {
  invocation_storage().assign(argv, argv + argc);
  CLI::App app{"SNIA Solid State Storage Performance Test Specification (PTS 2.0.x) suite", "ptsuite"};
  CommandSlot slot;
  define_cli(app, slot);

  std::vector<std::string> args(argv, argv + argc);
  if (const std::optional<int> code = preparse(app, args)) {
    return *code;
  }
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend() - 1);  // CLI11 takes them in reverse, no argv[0]
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return report_parse_error(e);
  }

  try {
    return slot.action ? slot.action() : static_cast<int>(ExitCode::usage);
  } catch (const Error& e) {
    // One line, whatever the message quotes (a claim id or a device string with a newline).
    fmt::print(stderr, "ptsuite: {}\n", printable(with_flags(e.what(), slot.fields)));
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    fmt::print(stderr, "ptsuite: internal error: {}\n", printable(e.what()));
    return static_cast<int>(ExitCode::system);
  }
}

}  // namespace ptsuite::cli
