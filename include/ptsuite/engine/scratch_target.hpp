// Contract: a throw-away target in RAM for demos, tests and benchmarks, removed on every path.
//
// ScratchTarget::create(size_bytes, prefer_loop) makes a file in /dev/shm (options.directory)
// and, when prefer_loop is set and loop devices work here (root), attaches a loop device over
// it (loop_device.hpp: direct IO, autoclear) and unlinks the file at once: from then on the
// loop device holds the only reference, so even SIGKILL leaves nothing behind (the last close
// of the device detaches it and frees the memory). Otherwise, or when attaching fails, the
// target is the file itself, which Target opens with O_DIRECT (tmpfs supports it since Linux
// 6.6); that file is unlinked by the destructor, so SIGKILL would leave it in /dev/shm.
//
// size_bytes is rounded up to a multiple of 4096. With options.fill_random every byte is first
// written with seeded pseudo-random data: unwritten blocks of zram, sparse files and some SSDs
// read back without doing the work, which inflates read results.
// Move-only; the destructor detaches and removes, also while an exception unwinds.
// create() throws UsageError for size 0 and SystemError when the file cannot be made.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <ptsuite/engine/loop_device.hpp>
#include <ptsuite/util/fd.hpp>

namespace ptsuite::engine {

enum class ScratchKind { loop_device, file };

struct ScratchOptions {
  bool fill_random = false;
  uint64_t fill_seed = 1;
  uint32_t loop_logical_block_bytes = 512;
  std::string directory = "/dev/shm";
};

class ScratchTarget {
 public:
  static ScratchTarget create(uint64_t size_bytes, bool prefer_loop, const ScratchOptions& options = {});

  ScratchTarget(ScratchTarget&& other) noexcept;
  ScratchTarget& operator=(ScratchTarget&& other) noexcept;
  ScratchTarget(const ScratchTarget&) = delete;
  ScratchTarget& operator=(const ScratchTarget&) = delete;
  ~ScratchTarget() { release(); }

  // The path to pass to Target::open(): "/dev/loopN", or the file in /dev/shm.
  [[nodiscard]] const std::string& path() const noexcept { return m_path; }
  [[nodiscard]] ScratchKind kind() const noexcept { return m_kind; }
  [[nodiscard]] uint64_t size_bytes() const noexcept { return m_size_bytes; }
  // One line for humans, e.g. "loop device /dev/loop3 (64.00 MiB in /dev/shm, direct IO, 512-byte
  // blocks)" or "O_DIRECT file /dev/shm/ptsuite-scratch-1234-Ab3xQz (64.00 MiB; no loop device:
  // not root)".
  [[nodiscard]] const std::string& description() const noexcept { return m_description; }
  // The loop device, when kind() is loop_device (nullptr otherwise).
  [[nodiscard]] const LoopDevice* loop() const noexcept { return m_loop ? &*m_loop : nullptr; }

 private:
  ScratchTarget() = default;
  void release() noexcept;

  ScratchKind m_kind = ScratchKind::file;
  std::string m_path;
  std::string m_file_path;  // set while a file of ours exists under that name
  UniqueFd m_file_fd;       // kept open for the target's lifetime
  std::optional<LoopDevice> m_loop;
  uint64_t m_size_bytes = 0;
  std::string m_description;
};

}  // namespace ptsuite::engine
