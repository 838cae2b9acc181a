#include "device/loop_backing.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <ptsuite/util/fd.hpp>

namespace ptsuite::device {

std::optional<FileId> loop_backing_id(const std::string& node_path, sysfs::DevNum devnum,
                                      const std::string& backing_file) {
  struct stat st {};
  if (::stat(node_path.c_str(), &st) == 0 && S_ISBLK(st.st_mode) && ::major(st.st_rdev) == devnum.major &&
      ::minor(st.st_rdev) == devnum.minor) {
    const UniqueFd fd(::open(node_path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    loop_info64 info{};
    if (fd.valid() && ::ioctl(fd.get(), LOOP_GET_STATUS64, &info) == 0) {
      return FileId{static_cast<dev_t>(info.lo_device), static_cast<ino_t>(info.lo_inode)};
    }
  }
  if (::stat(backing_file.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    return FileId{st.st_dev, st.st_ino};
  }
  return std::nullopt;
}

std::string file_id_text(FileId id) {
  return fmt::format("st_dev {} st_ino {}", static_cast<uint64_t>(id.dev), static_cast<uint64_t>(id.ino));
}

}  // namespace ptsuite::device
