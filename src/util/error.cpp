#include <ptsuite/util/error.hpp>

#include <cstring>

namespace ptsuite {

SystemError::SystemError(const std::string& what, int errnum)
    : Error(ExitCode::system, what + ": " + std::strerror(errnum)) {}

}  // namespace ptsuite
