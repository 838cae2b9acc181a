#include "device/loop_backing.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>

#include <ptsuite/util/fd.hpp>

namespace ptsuite::device {

namespace {

// LOOP_GET_STATUS64 of the loop device's node, when the node in `roots.dev` is that device.
std::optional<loop_info64> loop_status(const std::string& node_path, sysfs::DevNum devnum) {
  struct stat st {};
  if (::stat(node_path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode) || ::major(st.st_rdev) != devnum.major ||
      ::minor(st.st_rdev) != devnum.minor) {
    return std::nullopt;
  }
  const UniqueFd fd(::open(node_path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  loop_info64 info{};
  if (!fd.valid() || ::ioctl(fd.get(), LOOP_GET_STATUS64, &info) != 0) return std::nullopt;
  return info;
}

}  // namespace

std::optional<FileId> loop_backing_id(const std::string& node_path, sysfs::DevNum devnum,
                                      const std::string& backing_file) {
  if (const auto info = loop_status(node_path, devnum)) {
    return FileId{static_cast<dev_t>(info->lo_device), static_cast<ino_t>(info->lo_inode)};
  }
  struct stat st {};
  if (::stat(backing_file.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    return FileId{st.st_dev, st.st_ino};
  }
  return std::nullopt;
}

std::string file_id_text(FileId id) {
  return fmt::format("st_dev {} st_ino {}", static_cast<uint64_t>(id.dev), static_cast<uint64_t>(id.ino));
}

std::vector<LoopWindow> read_loop_windows(const SystemRoots& roots) {
  std::vector<LoopWindow> out;
  for (sysfs::LoopDevice& loop : sysfs::attached_loop_devices(roots)) {
    LoopWindow w;
    const std::string node_path = (std::filesystem::path(roots.dev) / loop.node.name).string();
    if (const auto info = loop_status(node_path, loop.node.devnum)) {
      // lo_rdevice is the backing object's st_rdev: non-zero for a block device.
      if (info->lo_rdevice != 0) {
        const auto rdev = static_cast<dev_t>(info->lo_rdevice);
        w.backing_block = sysfs::DevNum{::major(rdev), ::minor(rdev)};
      } else {
        w.backing_file_id = FileId{static_cast<dev_t>(info->lo_device), static_cast<ino_t>(info->lo_inode)};
      }
      w.offset_bytes = info->lo_offset;
    } else {
      struct stat st {};
      if (::stat(loop.backing_file.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) {
        w.backing_block = sysfs::DevNum{::major(st.st_rdev), ::minor(st.st_rdev)};
      } else if (::stat(loop.backing_file.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
        w.backing_file_id = FileId{st.st_dev, st.st_ino};
      }
      w.offset_bytes = sysfs::read_attr_u64(loop.node.dir / "loop" / "offset").value_or(0);
    }
    if (const auto sectors = sysfs::read_attr_u64(loop.node.dir / "size")) w.size_bytes = *sectors * 512;
    w.loop = std::move(loop);
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace ptsuite::device
