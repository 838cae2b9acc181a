#include <ptsuite/util/error.hpp>

#include <cstring>

namespace ptsuite {

SystemError::SystemError(const std::string& what, int errnum)
    : Error(ExitCode::system, what + ": " + std::strerror(errnum)) {}

SafetyRefusal device_denied_to_root(const std::string& path) {
  return SafetyRefusal(path +
                       ": permission denied to root: this process is confined to other devices (a device cgroup: in "
                       "a Slurm job, only the drives of the job's GRES; or a security module); nothing was written");
}

}  // namespace ptsuite
