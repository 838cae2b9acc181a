// Private: what every option of the CLI definition takes, said in the definition itself (issue
// 36 item 7). Each option that takes text carries a role:
//
//   sub->add_option("--json", a.json, "...")->check(paths::output_file());
//   sub->add_option("--duration", a.duration, "...")->check(paths::none());
//
// The role is a CLI11 validator that accepts every value and prints nothing in --help; its name
// ("path-role:output_file") is how path_role_of() reads it back. Options bound to numbers need
// none (they cannot name a path). The hostile-input table (tests/integration/
// hostile_outputs_test.cpp) walks the definition, tries every path option against device nodes,
// a target's backing file, the command's input, its other outputs and a mounted image's second
// loop device, and fails on an option that takes text and has no role - so a new option (or a
// new command) cannot be added without being classified and tried.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace ptsuite::cli {

enum class PathRole {
  not_a_path,    // a value (a size, a name, a mode)
  input,         // a file or directory the command reads (or a built-in's name)
  target_read,   // a device or file the command reads or inspects (never written)
  target_write,  // a device or file the command may write (the target gate)
  output_file,   // a file the command writes (the output gate's file())
  output_dir,    // a directory the command creates or fills (the output gate's directory())
  run_dir,       // an existing run directory the command reads and writes into (resume, sign)
  database,      // the history database (a SQLite file or a PostgreSQL URI)
};

std::string_view to_string(PathRole role);

// The role's validator (accepts everything; named "path-role:<role>").
CLI::Validator path_role(PathRole role);

namespace paths {
inline CLI::Validator none() { return path_role(PathRole::not_a_path); }
inline CLI::Validator input() { return path_role(PathRole::input); }
inline CLI::Validator target_read() { return path_role(PathRole::target_read); }
inline CLI::Validator target_write() { return path_role(PathRole::target_write); }
inline CLI::Validator output_file() { return path_role(PathRole::output_file); }
inline CLI::Validator output_dir() { return path_role(PathRole::output_dir); }
inline CLI::Validator run_dir() { return path_role(PathRole::run_dir); }
inline CLI::Validator database() { return path_role(PathRole::database); }
}  // namespace paths

// The role an option carries; not_a_path for a flag or an option bound to a number (CLI11's
// INT, UINT, FLOAT); nullopt for an option that takes text and carries none.
std::optional<PathRole> path_role_of(const CLI::Option& option);

}  // namespace ptsuite::cli
