#include "support/storage_fixtures.hpp"

#include <fcntl.h>
#include <linux/blkpg.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <vector>

#include <ptsuite/util/sha256.hpp>
#include "support/loop_support.hpp"

namespace ptsuite::test_support {

WindowLoop::WindowLoop(const std::string& backing, uint64_t offset_bytes, uint64_t size_bytes, bool partscan) {
  const int b = ::open(backing.c_str(), O_RDWR | O_CLOEXEC);
  const int control = ::open("/dev/loop-control", O_RDWR | O_CLOEXEC);
  for (int attempt = 0; attempt < 20 && m_path.empty() && b >= 0 && control >= 0; ++attempt) {
    const int n = ::ioctl(control, LOOP_CTL_GET_FREE);
    if (n < 0) break;
    const std::string path = "/dev/loop" + std::to_string(n);
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) continue;
    loop_config config{};
    config.fd = static_cast<uint32_t>(b);
    config.info.lo_offset = offset_bytes;
    config.info.lo_sizelimit = size_bytes;
    config.info.lo_flags = LO_FLAGS_AUTOCLEAR | (partscan ? LO_FLAGS_PARTSCAN : 0);
    if (::ioctl(fd, LOOP_CONFIGURE, &config) == 0) {
      m_path = path;
      m_fd = fd;
    } else {
      ::close(fd);  // EBUSY: another process took it; try the next free one
    }
  }
  if (b >= 0) ::close(b);
  if (control >= 0) ::close(control);
  if (!m_path.empty()) settle_udev();
}

WindowLoop::~WindowLoop() {
  if (m_fd < 0) return;
  for (int attempt = 0; attempt < 50 && ::ioctl(m_fd, LOOP_CLR_FD, 0) != 0 && errno == EBUSY; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ::close(m_fd);  // autoclear: detached at the last close whatever happened above
}

std::string add_blkpg_partition(const WindowLoop& disk, int number, uint64_t start_bytes, uint64_t length_bytes) {
  blkpg_partition part{};
  part.start = static_cast<long long>(start_bytes);
  part.length = static_cast<long long>(length_bytes);
  part.pno = number;
  blkpg_ioctl_arg arg{};
  arg.op = BLKPG_ADD_PARTITION;
  arg.datalen = sizeof(part);
  arg.data = &part;
  if (::ioctl(disk.fd(), BLKPG, &arg) != 0) return "";
  const std::string path = disk.path() + "p" + std::to_string(number);
  for (int i = 0; i < 100; ++i) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) {
      settle_udev();
      return path;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return "";
}

ReadOnlyExt4::ReadOnlyExt4(const std::string& device, const std::string& dir) : m_dir(dir) {
  std::filesystem::create_directories(dir);
  const std::string mkfs = "mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 " + device + " >/dev/null 2>&1";
  // NOLINTNEXTLINE(cert-env33-c, concurrency-mt-unsafe): a fixed command on our own device, tests only
  if (std::system(mkfs.c_str()) != 0) return;
  m_mounted = ::mount(device.c_str(), dir.c_str(), "ext4", MS_RDONLY, nullptr) == 0;
}

ReadOnlyExt4::~ReadOnlyExt4() {
  if (m_mounted && ::umount2(m_dir.c_str(), 0) != 0) ::umount2(m_dir.c_str(), MNT_DETACH);
}

MountedImage::MountedImage(const ShmTempDir& dir) {
  if (const std::string& why = loop_skip_reason(); !why.empty()) {
    m_skip = "loop devices unavailable: " + why;
    return;
  }
  m_image = dir.create_file("image.img", 64ULL << 20);
  m_mount_point = dir.file("mnt");
  m_first.emplace(m_image, 0, 0);
  if (!m_first->ok()) {
    m_skip = "cannot attach a loop device";
    return;
  }
  m_mount.emplace(m_first->path(), m_mount_point);
  if (!m_mount->ok()) {
    m_skip = "mkfs.ext4 or a read-only ext4 mount of a loop device is not possible here";
    return;
  }
  m_second.emplace(m_image, 0, 0);
  if (!m_second->ok()) m_skip = "cannot attach a second loop device";
}

std::string range_sha256(const std::string& path, uint64_t offset_bytes, uint64_t length_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "unreadable";
  std::string data(length_bytes, '\0');
  const ssize_t n = ::pread(fd, data.data(), data.size(), static_cast<off_t>(offset_bytes));
  ::close(fd);
  data.resize(n > 0 ? static_cast<size_t>(n) : 0);
  return sha256_hex(data);
}

}  // namespace ptsuite::test_support
