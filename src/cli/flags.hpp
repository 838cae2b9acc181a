// Private: the flags several commands share, each with ONE meaning in every command (issue 39),
// registered only through the helpers below, listed in the man page's FLAGS section and checked
// by tests/unit/cli/flag_meanings_test.cpp over the whole CLI definition:
//   --out DIR       the directory a command writes its documents into ("-": a single text
//                   document on stdout, `report` only)
//   --json          machine-readable output (JSON) on stdout instead of text
//   --json-out FILE the command's JSON document written to FILE
//   --db DB         the results history (SQLite file or postgresql://...)
//   --no-history    a run is not recorded in the history
//   --format LIST   the format(s) written (report formats; history export: csv or json)
//   ... and every other flag two commands share (the table in flags.cpp).
// A flag's value kind (none, DIR, FILE, DB, LIST, ...) comes from the table, so a second meaning
// (a FILE where others take a DIR, a value where others are a switch) fails the test. Old
// spellings (--history-db, --reports, --output-dir, --json FILE, --html FILE, --out FILE) stay
// accepted for a while: hidden from --help, mapped to the new flag, with one deprecation warning
// on stderr (deprecated_flags(): the man page lists them).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/path_roles.hpp"

namespace ptsuite::cli {

struct SharedFlag {
  std::string_view name;     // "--out"
  std::string_view value;    // "DIR", "FILE", ...; "" for a switch
  std::string_view meaning;  // one line, the same in every command
};
std::span<const SharedFlag> shared_flags();
const SharedFlag* find_shared_flag(std::string_view name);

struct DeprecatedFlag {
  std::string_view old_spelling;  // "--history-db"
  std::string_view instead;       // "--db"
};
std::span<const DeprecatedFlag> deprecated_flags();
// "ptsuite: warning: --history-db is deprecated: use --db" (stderr, once per spelling and process).
void warn_deprecated(const std::string& old_spelling, const std::string& instead);

// Every command path's visible flags, one line each: "run: --out DIR, --format LIST, --quick, ..."
// (positionals and --help left out).
std::vector<std::string> flag_listing(const CLI::App& app);
// What breaks "one meaning per flag" in a CLI definition, one line each (empty when it holds): a
// table flag registered with another value kind (a switch where the table has a value, DIR where
// it has FILE), a flag two or more commands take that the table lacks, a hidden flag that is not
// a deprecated spelling.
std::vector<std::string> flag_problems(const CLI::App& app);

// `name` from the table, with this command's own help text (what the flag is for here).
template <typename T>
CLI::Option* add_shared_option(CLI::App* sub, const std::string& name, T& value, const std::string& help) {
  const SharedFlag* f = find_shared_flag(name);
  if (f == nullptr || f->value.empty()) throw std::logic_error(name + " is not a shared option (cli/flags.cpp)");
  return sub->add_option(name, value, help)->type_name(std::string(f->value));
}
CLI::Option* add_shared_flag(CLI::App* sub, const std::string& name, bool& value, const std::string& help);

// The common ones.
CLI::Option* add_out_dir(CLI::App* sub, std::string& dir, const std::string& help);
CLI::Option* add_db(CLI::App* sub, std::string& db);
CLI::Option* add_no_history(CLI::App* sub, bool& no_history);
CLI::Option* add_formats(CLI::App* sub, std::string& formats, const std::string& help);

// The path role (cli/path_roles.hpp) of `instead` ("--db", "--out DIR") as `sub` registered it
// (register `instead` first); not_a_path when it has none.
CLI::Validator role_like(const CLI::App* sub, const std::string& instead);

// A hidden old spelling that sets `value` like `instead` does, warning once when used. Its path
// role is `role`, else the one `instead` has.
template <typename T>
CLI::Option* add_deprecated(CLI::App* sub, const std::string& old_spelling, T& value, const std::string& instead,
                            std::optional<PathRole> role = std::nullopt) {
  return sub->add_option(old_spelling, value, "deprecated: use " + instead)
      ->group("")
      ->check(role ? path_role(*role) : role_like(sub, instead))
      ->each([old_spelling, instead](const std::string&) { warn_deprecated(old_spelling, instead); });
}
CLI::Option* add_deprecated_flag(CLI::App* sub, const std::string& old_spelling, bool& value,
                                 const std::string& instead);

// "html,csv" -> {"html", "csv"} (a --format LIST; an empty item stays, for the check to name).
std::vector<std::string> split_list(const std::string& text);

// Where a command that writes one file writes it for `--out OUT` (`report`, `history export`):
// OUT/default_name for a directory (new or existing); OUT itself for the old spelling `--out
// FILE`: an existing regular file, or a name ending in one of `file_suffixes` (warned as
// deprecated).
std::string out_file_of(const std::string& out, const std::string& default_name,
                        const std::vector<std::string>& file_suffixes);

// `--json` that also takes the deprecated `--json FILE` of replay, capture and workload: `json`
// is set for the switch; a value is the old spelling of --json-out FILE (warned, into `file`).
void add_json_with_deprecated_file(CLI::App* sub, bool& json, std::string& file, const std::string& help);

}  // namespace ptsuite::cli
