// Private: `--target serial:SERIAL` for the commands that take a target (device/drives.hpp).
// resolve_target_option() replaces "serial:SERIAL" by the path of the one drive on this host
// with that serial and checks that the drive, identified read-only, reports it (the serial check
// the name implies; a drive named through the asset registry must report none); anything else
// is left as given. Refusals (no such drive, several, another serial) are SafetyRefusal, exit
// 3, before the command opens anything. `ptsuite run` / `validate` keep "serial:SERIAL" in
// their configuration instead (pts/run.hpp resolves it at every start and resume).
#pragma once

#include <string>
#include <vector>

#include <ptsuite/device/drives.hpp>

namespace ptsuite::cli {

device::ResolvedTarget resolve_target_option(std::string& target);
void resolve_target_options(std::vector<std::string>& targets);

}  // namespace ptsuite::cli
