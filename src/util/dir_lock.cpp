#include <ptsuite/util/dir_lock.hpp>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>

#include <cerrno>

#include <ptsuite/util/error.hpp>

namespace ptsuite {

UniqueFd lock_run_directory(const std::filesystem::path& dir) {
  UniqueFd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) {
    throw SystemError(fmt::format("cannot open the run directory {}", dir.string()), errno);
  }
  if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) {
      throw Error(ExitCode::refused,
                  fmt::format("the run in {} is still in progress in another ptsuite process; wait for it to end "
                              "(or stop it with Ctrl-C / kill), then resume it",
                              dir.string()));
    }
    throw SystemError(fmt::format("cannot lock the run directory {}", dir.string()), errno);
  }
  return fd;
}

}  // namespace ptsuite
