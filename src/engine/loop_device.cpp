#include <ptsuite/engine/loop_device.hpp>

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <ctime>

#include <ptsuite/util/error.hpp>

namespace ptsuite::engine {

namespace {

constexpr const char* k_loop_control = "/dev/loop-control";
// Attempts at grabbing a free device. Each EBUSY means another process bound the device
// LOOP_CTL_GET_FREE just offered us; it then offers the next free one.
constexpr int k_attach_attempts = 32;
constexpr long k_busy_pause_ns = 1'000'000;

uint32_t loop_flags(const LoopOptions& options) {
  uint32_t flags = LO_FLAGS_AUTOCLEAR;
  if (options.direct_io) {
    flags |= LO_FLAGS_DIRECT_IO;
  }
  if (options.partition_scan) {
    flags |= LO_FLAGS_PARTSCAN;
  }
  return flags;
}

// Returns 0, or the errno of the ioctl that failed, after undoing a half-done setup.
int configure_modern(int device_fd, int backing_fd, const LoopOptions& options) {
  loop_config config{};
  config.fd = static_cast<uint32_t>(backing_fd);
  config.block_size = options.logical_block_bytes;
  config.info.lo_flags = loop_flags(options);
  return ::ioctl(device_fd, LOOP_CONFIGURE, &config) == 0 ? 0 : errno;
}

// Before Linux 5.8: bind, then set flags, block size and direct IO one ioctl at a time. A
// crash between LOOP_SET_FD and LOOP_SET_STATUS64 would leave the device bound (no autoclear
// yet); LOOP_CONFIGURE exists to close that window.
int configure_legacy(int device_fd, int backing_fd, const LoopOptions& options) {
  if (::ioctl(device_fd, LOOP_SET_FD, backing_fd) != 0) {
    return errno;
  }
  loop_info64 info{};
  info.lo_flags = loop_flags(options) & ~static_cast<uint32_t>(LO_FLAGS_DIRECT_IO);
  int errnum = 0;
  if (::ioctl(device_fd, LOOP_SET_STATUS64, &info) != 0 ||
      (options.logical_block_bytes != 512 &&
       ::ioctl(device_fd, LOOP_SET_BLOCK_SIZE, static_cast<unsigned long>(options.logical_block_bytes)) != 0)) {
    errnum = errno;
    ::ioctl(device_fd, LOOP_CLR_FD, 0);
    return errnum;
  }
  // Refused when the backing file cannot do direct IO: the device then stays buffered, as
  // LOOP_CONFIGURE does, and direct_io() reports it.
  if (options.direct_io) {
    ::ioctl(device_fd, LOOP_SET_DIRECT_IO, 1UL);
  }
  return 0;
}

}  // namespace

std::string LoopDevice::unavailable_reason() {
  if (::geteuid() != 0) {
    return "loop devices need root (CAP_SYS_ADMIN)";
  }
  const int fd = ::open(k_loop_control, O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    const int errnum = errno;
    if (errnum == ENOENT) {
      return "no /dev/loop-control: the loop driver is not loaded (modprobe loop)";
    }
    return fmt::format("cannot open {}: {}", k_loop_control, std::strerror(errnum));
  }
  ::close(fd);
  return {};
}

LoopDevice LoopDevice::attach(int backing_fd, const LoopOptions& options) {
  struct stat backing {};
  if (::fstat(backing_fd, &backing) != 0) {
    throw SystemError("fstat of a loop backing file", errno);
  }
  if (!S_ISREG(backing.st_mode)) {
    throw SystemError("a loop device needs a regular backing file");
  }
  const UniqueFd control(::open(k_loop_control, O_RDWR | O_CLOEXEC));
  if (!control.valid()) {
    throw SystemError(fmt::format("open({})", k_loop_control), errno);
  }

  for (int attempt = 0; attempt < k_attach_attempts; ++attempt) {
    const int number = ::ioctl(control.get(), LOOP_CTL_GET_FREE);
    if (number < 0) {
      throw SystemError("LOOP_CTL_GET_FREE", errno);
    }
    LoopDevice device;
    device.m_number = static_cast<uint32_t>(number);
    device.m_path = fmt::format("/dev/loop{}", number);
    device.m_fd.reset(::open(device.m_path.c_str(), O_RDWR | O_CLOEXEC));
    if (!device.m_fd.valid()) {
      throw SystemError(fmt::format("open({})", device.m_path), errno);
    }
    int errnum = options.legacy_setup ? ENOTTY : configure_modern(device.m_fd.get(), backing_fd, options);
    // EINVAL/ENOTTY: a kernel without LOOP_CONFIGURE (or one refusing part of it): try the
    // older sequence, which also reports a refused block size as such.
    if (errnum == EINVAL || errnum == ENOTTY) {
      errnum = configure_legacy(device.m_fd.get(), backing_fd, options);
    }
    if (errnum == EBUSY) {
      device.m_fd.reset();  // someone else's device now: close it without detaching
      const timespec pause{0, k_busy_pause_ns};
      ::nanosleep(&pause, nullptr);
      continue;
    }
    if (errnum != 0) {
      device.m_fd.reset();
      throw SystemError(fmt::format("configuring {} (block size {})", device.m_path, options.logical_block_bytes),
                        errnum);
    }

    device.m_backing_dev = backing.st_dev;
    device.m_backing_ino = backing.st_ino;
    loop_info64 info{};
    struct stat st {};
    if (::ioctl(device.m_fd.get(), LOOP_GET_STATUS64, &info) != 0 || ::fstat(device.m_fd.get(), &st) != 0) {
      const int status_errno = errno;
      device.detach();
      throw SystemError(fmt::format("querying {}", device.m_path), status_errno);
    }
    device.m_direct_io = (info.lo_flags & LO_FLAGS_DIRECT_IO) != 0;
    device.m_rdev = st.st_rdev;
    return device;
  }
  throw SystemError(fmt::format("no free loop device after {} attempts", k_attach_attempts), EBUSY);
}

LoopDevice& LoopDevice::operator=(LoopDevice&& other) noexcept {
  if (this != &other) {
    detach();
    m_fd = std::move(other.m_fd);
    m_path = std::move(other.m_path);
    m_number = other.m_number;
    m_rdev = other.m_rdev;
    m_direct_io = other.m_direct_io;
    m_backing_dev = other.m_backing_dev;
    m_backing_ino = other.m_backing_ino;
  }
  return *this;
}

void LoopDevice::detach() noexcept {
  if (!m_fd.valid()) {
    return;
  }
  // Only clear the device if it still serves our backing file: if someone detached it and
  // reused the number meanwhile, it is theirs now. Closing our descriptor is always safe.
  loop_info64 info{};
  if (::ioctl(m_fd.get(), LOOP_GET_STATUS64, &info) == 0 && info.lo_device == m_backing_dev &&
      info.lo_inode == m_backing_ino) {
    // Errors are harmless: the device has LO_FLAGS_AUTOCLEAR, so the last close detaches it.
    ::ioctl(m_fd.get(), LOOP_CLR_FD, 0);
  }
  m_fd.reset();
}

}  // namespace ptsuite::engine
