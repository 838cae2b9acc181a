#include "cli/path_roles.hpp"

#include <array>

namespace ptsuite::cli {

namespace {

constexpr std::array<PathRole, 8> k_roles = {PathRole::not_a_path,   PathRole::input,       PathRole::target_read,
                                             PathRole::target_write, PathRole::output_file, PathRole::output_dir,
                                             PathRole::run_dir,      PathRole::database};

std::string validator_name(PathRole role) { return "path-role:" + std::string(to_string(role)); }

}  // namespace

std::string_view to_string(PathRole role) {
  switch (role) {
    case PathRole::not_a_path:
      return "not_a_path";
    case PathRole::input:
      return "input";
    case PathRole::target_read:
      return "target_read";
    case PathRole::target_write:
      return "target_write";
    case PathRole::output_file:
      return "output_file";
    case PathRole::output_dir:
      return "output_dir";
    case PathRole::run_dir:
      return "run_dir";
    case PathRole::database:
      return "database";
  }
  return "?";
}

CLI::Validator path_role(PathRole role) {
  CLI::Validator v([](const std::string&) { return std::string(); }, "", validator_name(role));
  v.description("");  // nothing in --help
  return v;
}

std::optional<PathRole> path_role_of(const CLI::Option& option) {
  auto& opt = const_cast<CLI::Option&>(option);  // CLI11 2.1's get_validator() is not const
  for (const PathRole role : k_roles) {
    try {
      if (opt.get_validator(validator_name(role)) != nullptr) return role;
    } catch (const CLI::OptionNotFound&) {  // NOLINT(bugprone-empty-catch): not this role
    }
  }
  if (option.get_expected_min() == 0) return PathRole::not_a_path;  // a flag
  const std::string type = option.get_type_name();
  if (type == "INT" || type == "UINT" || type == "FLOAT") return PathRole::not_a_path;
  return std::nullopt;
}

}  // namespace ptsuite::cli
