// The one open(O_RDWR) of a target (writable_target.hpp).
#include <ptsuite/util/writable_target.hpp>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/printable.hpp>

namespace ptsuite {

UniqueFd open_for_writing(const WritableTarget& target, int extra_flags) {
  UniqueFd fd(::open(target.m_path.c_str(), O_RDWR | O_CLOEXEC | extra_flags));
  if (!fd.valid()) return fd;
  struct stat st {};
  const bool same = ::fstat(fd.get(), &st) == 0 && st.st_dev == target.m_dev && st.st_ino == target.m_ino &&
                    (target.m_rdev == 0 ? S_ISREG(st.st_mode) : S_ISBLK(st.st_mode) && st.st_rdev == target.m_rdev);
  if (!same) {
    throw SafetyRefusal(
        fmt::format("refusing to write to {}: it is no longer the file or device the target gate "
                    "checked (replaced since); run again",
                    printable(target.m_path)));
  }
  return fd;
}

}  // namespace ptsuite
