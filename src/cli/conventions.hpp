// Private: the conventions every subcommand shares, applied to the whole CLI definition after
// the commands are registered (cli.cpp), so no command file repeats them:
//   * `--help` of ptsuite and of every command ends with EXAMPLES (from one table here; a test
//     checks that every command has them) and EXIT CODES (docs/exit-codes.md);
//   * `ptsuite help [CMD...]` is `ptsuite [CMD...] --help`;
//   * a mistyped command is named with the nearest one ("ptsuite rnu": did you mean run?);
//   * `ptsuite completion bash|zsh` and `ptsuite man` generate the completion scripts and the
//     man page from the definition itself, so they cannot drift from it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"

namespace ptsuite::cli {

// Footers (examples, exit codes) on the app and every subcommand.
void apply_conventions(CLI::App& app);

// Before parsing: rewrites `help CMD...` into `CMD... --help`, and for an unknown first word
// prints one line with the nearest command and returns exit code 2.
std::optional<int> preparse(const CLI::App& app, std::vector<std::string>& args);

// The registered command nearest to `typed` (edit distance <= 2, or a unique prefix); "" when
// none is near.
std::string nearest_command(const CLI::App& app, const std::string& typed);

// Generated from the definition: a bash or zsh completion script, and a man page (roff).
std::string completion_script(const CLI::App& app, const std::string& shell);
std::string man_page(const CLI::App& app);

void register_completion_command(CLI::App& app, CommandSlot& slot);
void register_man_command(CLI::App& app, CommandSlot& slot);

// The examples of a command path ("run", "history list"); empty when it has none.
const std::vector<std::string>& examples_of(const std::string& command_path);

}  // namespace ptsuite::cli
