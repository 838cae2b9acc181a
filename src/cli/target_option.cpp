// `--target serial:SERIAL` (cli/target_option.hpp).
#include "cli/target_option.hpp"

#include <fmt/format.h>

#include <ptsuite/device/identity.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/printable.hpp>
#include <ptsuite/util/text.hpp>

namespace ptsuite::cli {

device::ResolvedTarget resolve_target_option(std::string& target) {
  const device::ResolvedTarget named = device::resolve_target(target);
  if (!named.by_serial) {
    return named;
  }
  const device::DeviceIdentity id = device::identify(named.path);
  const std::string reported(trim(id.serial));
  const bool matches = named.asset ? reported.empty()
                                   : reported == named.serial ||
                                         device::normalize_serial(reported) == device::normalize_serial(named.serial);
  if (!matches) {
    throw SafetyRefusal(fmt::format("refusing {}: it was found as serial {}, but identifies as serial \"{}\"",
                                    named.path, printable(named.serial), printable(reported)));
  }
  target = named.path;
  return named;
}

void resolve_target_options(std::vector<std::string>& targets) {
  for (std::string& t : targets) (void)resolve_target_option(t);
}

}  // namespace ptsuite::cli
