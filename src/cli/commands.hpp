// Private: the registration functions of every subcommand (see include/ptsuite/cli/cli.hpp).
#pragma once

#include <CLI/CLI.hpp>

#include <ptsuite/cli/cli.hpp>

namespace ptsuite::cli {

// One line per subcommand, e.g.:
// void register_engines_command(CLI::App& app, CommandSlot& slot);

}  // namespace ptsuite::cli
