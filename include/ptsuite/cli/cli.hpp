// Contract: the command line. run() parses argv, dispatches to a subcommand and returns the
// process exit code (util/error.hpp): it catches every ptsuite::Error and prints its one-line
// message as "ptsuite: <message>" on stderr. Unknown options and bad values exit 2.
//
// Each subcommand lives in src/cli/<name>_command.cpp and exposes
//     void register_<name>_command(CLI::App& app, CommandSlot& slot);
// which adds its CLI11 subcommand and stores in `slot` the function to run when it is chosen.
// src/cli/cli.cpp lists them all explicitly (no static self-registration: a static library
// would silently drop unreferenced objects).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace CLI {
class App;
}

namespace ptsuite::cli {

// The action of the chosen subcommand; returns the exit code.
using CommandAction = std::function<int()>;

// Errors below the CLI name fields ("queue_depth: must be at least 1"); each subcommand says
// how it spells them (field -> "--queue-depth").
using FieldFlags = std::vector<std::pair<std::string, std::string>>;

struct CommandSlot {
  CommandAction action;
  FieldFlags fields;
};

// `message` with a leading "<field>: " replaced by "<flag>: " when `fields` names the field.
std::string with_flags(const std::string& message, const FieldFlags& fields);

int run(int argc, char** argv);

}  // namespace ptsuite::cli
