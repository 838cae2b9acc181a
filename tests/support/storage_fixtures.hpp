// Contract: storage relations built for real in tests (issue 36 items 1 and 7), each undone in
// its destructor on every path:
//
//   WindowLoop l(path, offset_bytes, size_bytes);   // a loop device over a file OR a block
//                                                   // device, presenting [offset, offset+size)
//   MountedImage m(dir);                            // ext4 image, loop L1 mounted read-only,
//                                                   // and a second loop L2 over the same image
//   range_sha256(path, offset, length)              // a byte range's SHA-256
//
// Loop devices are attached with LOOP_CONFIGURE + LO_FLAGS_AUTOCLEAR and held open by the
// object (a killed test detaches them at its last close) and are detached only by the object
// that attached them. The mount is read-only, so the filesystem writes nothing while it is
// mounted and a hash taken before and after is a fair witness. Needs root and loop devices:
// check skip_reason() (and loop_skip_reason()) and GTEST_SKIP.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "support/temp_dir.hpp"

namespace ptsuite::test_support {

class WindowLoop {
 public:
  // size_bytes 0: to the end of the backing object. partscan: LO_FLAGS_PARTSCAN.
  WindowLoop(const std::string& backing, uint64_t offset_bytes, uint64_t size_bytes, bool partscan = false);
  ~WindowLoop();
  WindowLoop(const WindowLoop&) = delete;
  WindowLoop& operator=(const WindowLoop&) = delete;

  [[nodiscard]] bool ok() const { return !m_path.empty(); }
  [[nodiscard]] const std::string& path() const { return m_path; }  // "/dev/loop7"
  [[nodiscard]] std::string name() const { return m_path.empty() ? "" : m_path.substr(5); }
  [[nodiscard]] int fd() const { return m_fd; }

 private:
  std::string m_path;
  int m_fd = -1;
};

// Adds partition `number` [start, start + length) to a loop device with BLKPG (the kernel here
// may have no partition-table parsers) and waits for its node; "" on failure, else its path.
std::string add_blkpg_partition(const WindowLoop& disk, int number, uint64_t start_bytes, uint64_t length_bytes);

// mkfs.ext4 then a read-only mount of `device` on `dir`; unmounted in the destructor.
class ReadOnlyExt4 {
 public:
  ReadOnlyExt4(const std::string& device, const std::string& dir);
  ~ReadOnlyExt4();
  ReadOnlyExt4(const ReadOnlyExt4&) = delete;
  ReadOnlyExt4& operator=(const ReadOnlyExt4&) = delete;
  [[nodiscard]] bool ok() const { return m_mounted; }

 private:
  std::string m_dir;
  bool m_mounted = false;
};

// The first miss, built: image.img (64 MiB) in `dir`, L1 over it with an ext4 mounted
// read-only at dir/mnt, and L2, a second loop device over the same image.
class MountedImage {
 public:
  explicit MountedImage(const ShmTempDir& dir);
  [[nodiscard]] const std::string& skip_reason() const { return m_skip; }
  [[nodiscard]] const std::string& image() const { return m_image; }
  [[nodiscard]] std::string first() const { return m_first ? m_first->path() : ""; }
  [[nodiscard]] std::string second() const { return m_second ? m_second->path() : ""; }
  [[nodiscard]] const std::string& mount_point() const { return m_mount_point; }

 private:
  std::string m_image;
  std::string m_mount_point;
  std::string m_skip;
  std::optional<WindowLoop> m_first;
  std::optional<ReadOnlyExt4> m_mount;
  std::optional<WindowLoop> m_second;
};

std::string range_sha256(const std::string& path, uint64_t offset_bytes, uint64_t length_bytes);

}  // namespace ptsuite::test_support
