// Contract: RAII attachment of a loop block device to a caller-owned backing file, natively
// through ioctls (no losetup). For scratch targets (scratch_target.hpp) and for tests that
// need a real block device (tests/support/loop_support.hpp wraps it).
//
// attach(): LOOP_CTL_GET_FREE on /dev/loop-control, then LOOP_CONFIGURE (Linux 5.8+) with the
// requested logical block size and flags; when another process takes the same free device
// first (EBUSY), it asks for the next free one. Kernels without LOOP_CONFIGURE get the older
// LOOP_SET_FD + LOOP_SET_STATUS64 (+ LOOP_SET_BLOCK_SIZE, LOOP_SET_DIRECT_IO) sequence.
// The device is always configured with LO_FLAGS_AUTOCLEAR and held open by this object for its
// lifetime: when the process dies (even by SIGKILL) the last close detaches it.
// detach() / the destructor detach the device only if it is still bound to the same backing
// file (inode and device checked), then close it; when someone else still holds the device
// open, the kernel completes the detach at their last close.
//
// Needs root (CAP_SYS_ADMIN); unavailable_reason() says whether attach() can work here without
// attaching anything. Errors throw SystemError naming the failing call. Not thread-safe.
#pragma once

#include <sys/types.h>
#include <cstdint>
#include <string>

#include <ptsuite/util/fd.hpp>

namespace ptsuite::engine {

struct LoopOptions {
  uint32_t logical_block_bytes = 512;  // 512..page size, a power of two
  // LO_FLAGS_DIRECT_IO: the loop driver reads and writes its backing file with direct IO, so
  // data is not cached twice and completions arrive asynchronously. When the backing file
  // cannot do direct IO the device still attaches, buffered: see LoopDevice::direct_io().
  bool direct_io = true;
  bool partition_scan = false;  // LO_FLAGS_PARTSCAN: /dev/loopNpM appear for a partition table
  // Use the pre-5.8 ioctl sequence even where LOOP_CONFIGURE exists (lets tests cover it).
  bool legacy_setup = false;
};

class LoopDevice {
 public:
  // Empty when loop devices can be attached here, else the reason (not root, no loop driver).
  static std::string unavailable_reason();

  // `backing_fd` must be a regular file opened read-write; the caller may close it afterwards
  // (the loop driver keeps its own reference).
  static LoopDevice attach(int backing_fd, const LoopOptions& options = {});

  LoopDevice(LoopDevice&& other) noexcept = default;
  LoopDevice& operator=(LoopDevice&& other) noexcept;
  LoopDevice(const LoopDevice&) = delete;
  LoopDevice& operator=(const LoopDevice&) = delete;
  ~LoopDevice() { detach(); }

  void detach() noexcept;  // idempotent

  [[nodiscard]] bool attached() const noexcept { return m_fd.valid(); }
  [[nodiscard]] const std::string& path() const noexcept { return m_path; }  // "/dev/loop3"
  [[nodiscard]] uint32_t number() const noexcept { return m_number; }
  [[nodiscard]] dev_t device_number() const noexcept { return m_rdev; }
  [[nodiscard]] bool direct_io() const noexcept { return m_direct_io; }  // as granted by the kernel
  [[nodiscard]] int fd() const noexcept { return m_fd.get(); }           // O_RDWR, buffered

 private:
  LoopDevice() = default;

  UniqueFd m_fd;
  std::string m_path;
  uint32_t m_number = 0;
  dev_t m_rdev = 0;
  bool m_direct_io = false;
  uint64_t m_backing_dev = 0;  // identity of the backing file, checked before detaching
  uint64_t m_backing_ino = 0;
};

}  // namespace ptsuite::engine
