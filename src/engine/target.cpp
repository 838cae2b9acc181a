#include <ptsuite/engine/target.hpp>

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>

#include <ptsuite/util/error.hpp>

namespace ptsuite::engine {

namespace {

// Fallback for both alignments when the kernel does not report STATX_DIOALIGN: 512 bytes is
// what O_DIRECT has always required at minimum on Linux.
constexpr uint32_t k_fallback_dio_align_bytes = 512;

std::string describe(const std::string& path) { return "\"" + path + "\""; }

// Turns a failed stat()/open() into the error the user sees. Every cause the user can fix by
// choosing another path or fixing permissions is a UsageError (exit 2).
[[noreturn]] void throw_open_error(const std::string& path, const char* call, int errnum) {
  switch (errnum) {
    case ENOENT:
    case ENOTDIR:
    case ENAMETOOLONG:
    case ELOOP:
      throw UsageError("target", describe(path) + ": no such file or device");
    case EACCES:
    case EPERM:
      if (::geteuid() == 0) {
        // Root was refused: not a matter of file modes but of something confining this process
        // (a device cgroup, e.g. a Slurm job's ConstrainDevices, or a security module).
        throw device_denied_to_root(describe(path));
      }
      throw UsageError("target", describe(path) + ": permission denied (block devices usually need root)");
    case EROFS:
      throw UsageError("target", describe(path) + ": read-only, cannot be opened for writing");
    case ENXIO:
    case ENODEV:
      throw UsageError("target", describe(path) + ": no such device (is it attached?)");
    default:
      throw SystemError(fmt::format("{}({})", call, path), errnum);
  }
}

// open() fails with EINVAL when the filesystem has no direct-IO support. EINVAL has other
// causes too, so confirm by opening without O_DIRECT (read-only: diagnosing must not need
// write access and never writes).
[[noreturn]] void throw_einval(const std::string& path) {
  const int plain_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (plain_fd >= 0) {
    ::close(plain_fd);
    throw UsageError("target", describe(path) +
                                   " does not support O_DIRECT; ptsuite never falls back to "
                                   "buffered IO; use a block device or a filesystem with "
                                   "direct IO");
  }
  throw SystemError(fmt::format("open({}, O_DIRECT)", path), EINVAL);
}

template <typename Value>
Value block_ioctl(int fd, unsigned long request, const char* request_name, const std::string& path) {
  Value value{};
  if (::ioctl(fd, request, &value) != 0) {
    throw SystemError(fmt::format("{} on {}", request_name, path), errno);
  }
  return value;
}

// STATX_DIOALIGN (Linux 6.1+): {memory alignment, offset alignment}, or {0, 0} when the
// kernel or filesystem does not report it.
struct DioAlign {
  uint32_t memory_bytes = 0;
  uint32_t offset_bytes = 0;
};

DioAlign query_dio_align(int fd) {
  struct statx sx {};
  if (::statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) != 0 || (sx.stx_mask & STATX_DIOALIGN) == 0) {
    return {};
  }
  return {sx.stx_dio_mem_align, sx.stx_dio_offset_align};
}

TargetGeometry block_device_geometry(int fd, const std::string& path) {
  TargetGeometry g;
  g.capacity_bytes = block_ioctl<uint64_t>(fd, BLKGETSIZE64, "BLKGETSIZE64", path);
  g.logical_block_bytes = static_cast<uint32_t>(block_ioctl<int>(fd, BLKSSZGET, "BLKSSZGET", path));
  g.physical_block_bytes = block_ioctl<unsigned int>(fd, BLKPBSZGET, "BLKPBSZGET", path);
  // The device's DMA alignment (statx reports it for block devices since Linux 6.11). It never
  // exceeds the logical block, so that is the safe answer when the kernel is silent.
  const DioAlign align = query_dio_align(fd);
  g.memory_alignment_bytes = align.memory_bytes != 0 ? align.memory_bytes : g.logical_block_bytes;
  return g;
}

TargetGeometry regular_file_geometry(int fd, const struct stat& st) {
  TargetGeometry g;
  g.capacity_bytes = static_cast<uint64_t>(st.st_size);
  const DioAlign align = query_dio_align(fd);
  g.logical_block_bytes = align.offset_bytes != 0 ? align.offset_bytes : k_fallback_dio_align_bytes;
  g.memory_alignment_bytes = align.memory_bytes != 0 ? align.memory_bytes : k_fallback_dio_align_bytes;
  // A file has no physical sector of its own; its direct-IO granule is the closest analogue.
  g.physical_block_bytes = g.logical_block_bytes;
  return g;
}

}  // namespace

Target Target::open_read_only(const std::string& path) { return open_with(path, nullptr); }

Target Target::open(const WritableTarget& target) { return open_with(target.path(), &target); }

Target Target::open_with(const std::string& path, const WritableTarget* writable) {
  const Access access = writable != nullptr ? Access::read_write : Access::read_only;
  // stat() first: opening a FIFO would block and opening a tty has side effects, so anything
  // that is not a block device or regular file is refused before open().
  struct stat before {};
  if (::stat(path.c_str(), &before) != 0) {
    throw_open_error(path, "stat", errno);
  }
  if (!S_ISBLK(before.st_mode) && !S_ISREG(before.st_mode)) {
    throw UsageError("target", describe(path) + " is neither a block device nor a regular file");
  }

  const int fd = writable != nullptr ? open_for_writing(*writable, O_DIRECT).release()
                                     : ::open(path.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
  if (fd < 0) {
    const int errnum = errno;
    if (errnum == EINVAL) {
      throw_einval(path);
    }
    throw_open_error(path, "open", errnum);
  }

  Target target;
  target.m_fd.reset(fd);
  target.m_path = path;
  target.m_access = access;

  // The path may have been replaced between stat() and open(): trust only the opened file.
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    throw SystemError(fmt::format("fstat({})", path), errno);
  }
  if (st.st_dev != before.st_dev || st.st_ino != before.st_ino) {
    throw SystemError(fmt::format("{} changed while it was being opened", describe(path)));
  }

  if (S_ISBLK(st.st_mode)) {
    target.m_kind = TargetKind::block_device;
    target.m_rdev = st.st_rdev;
    target.m_geometry = block_device_geometry(fd, path);
  } else {
    target.m_kind = TargetKind::regular_file;
    target.m_geometry = regular_file_geometry(fd, st);
  }

  if (target.m_geometry.capacity_bytes < target.m_geometry.logical_block_bytes) {
    throw UsageError("target", fmt::format("{} is empty ({} bytes, less than one {}-byte block)", describe(path),
                                           target.m_geometry.capacity_bytes, target.m_geometry.logical_block_bytes));
  }
  return target;
}

}  // namespace ptsuite::engine
