// Contract: the device or file under test, always opened with O_DIRECT (never a silent
// buffered fallback: a filesystem that refuses O_DIRECT is an error saying so).
//
// Geometry comes from the block device (BLKGETSIZE64, BLKSSZGET, BLKPBSZGET) or, for a
// regular file, from its size and statx's direct-IO alignment (STATX_DIOALIGN; 512 bytes when
// the kernel does not report it). Every IO must be a multiple of logical_block_bytes at an
// offset that is a multiple of it, with a buffer aligned to memory_alignment_bytes.
//
// Reading needs only a path (open_read_only); writing needs the target gate's token
// (util/writable_target.hpp: device::pass_target_gate() makes it), so no code path can open a
// target for writing that did not pass the gate.
// Opening throws UsageError("--target", ...) for a missing, unreadable or
// permission-denied path, a path that is neither a block device nor a regular file, an empty
// target (smaller than one logical block), or a file whose filesystem refuses O_DIRECT (the
// user must pick another target; exit 2), and SystemError for other failures. Opening never
// writes.
// A Target is shared read-only by all worker threads (pread/pwrite/io_submit on one fd).
#pragma once

#include <sys/types.h>
#include <cstdint>
#include <string>

#include <ptsuite/util/fd.hpp>
#include <ptsuite/util/writable_target.hpp>

namespace ptsuite::engine {

enum class TargetKind { block_device, regular_file };

struct TargetGeometry {
  uint64_t capacity_bytes = 0;
  uint32_t logical_block_bytes = 512;
  uint32_t physical_block_bytes = 512;
  uint32_t memory_alignment_bytes = 512;  // buffer address alignment O_DIRECT needs
};

class Target {
 public:
  enum class Access { read_only, read_write };

  static Target open_read_only(const std::string& path);
  // O_RDWR through open_for_writing() (the identity the gate checked is verified).
  static Target open(const WritableTarget& target);

  [[nodiscard]] int fd() const noexcept { return m_fd.get(); }
  [[nodiscard]] const std::string& path() const noexcept { return m_path; }
  [[nodiscard]] TargetKind kind() const noexcept { return m_kind; }
  [[nodiscard]] const TargetGeometry& geometry() const noexcept { return m_geometry; }
  [[nodiscard]] Access access() const noexcept { return m_access; }
  [[nodiscard]] dev_t device_number() const noexcept { return m_rdev; }  // block devices only

 private:
  static Target open_with(const std::string& path, const WritableTarget* writable);

  UniqueFd m_fd;
  std::string m_path;
  TargetKind m_kind = TargetKind::regular_file;
  TargetGeometry m_geometry;
  Access m_access = Access::read_only;
  dev_t m_rdev = 0;
};

}  // namespace ptsuite::engine
