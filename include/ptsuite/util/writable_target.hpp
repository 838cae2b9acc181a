// Contract: the only way to open a target (a block device or a file under test) for writing.
// A WritableTarget is made only by the target gate (device/target_gate.hpp: pass_target_gate()
// returns it in its TargetGuard after every check of the target's storage relation set passed
// and while ptsuite's lock on it is held), so a function that takes one cannot be reached with
// a target that was never gated. open_for_writing() is the one open(O_RDWR) of a target in
// src/ (.ci/check-writes): engine::Target, the device pass-through channel (purge, write
// cache) and nothing else call it.
//
// It opens the path the gate saw and checks that the opened object is the one the gate
// checked (same st_dev and st_ino, and st_rdev for a device): a path replaced since is
// SafetyRefusal (exit 3), closed without a byte written. Thread-safe (a value).
#pragma once

#include <sys/types.h>

#include <string>

#include <ptsuite/util/fd.hpp>

namespace ptsuite {

namespace device {
class GateIssuer;
}  // namespace device

class WritableTarget {
 public:
  [[nodiscard]] const std::string& path() const noexcept { return m_path; }
  [[nodiscard]] bool is_block_device() const noexcept { return m_rdev != 0; }

 private:
  friend class device::GateIssuer;
  friend UniqueFd open_for_writing(const WritableTarget& target, int extra_flags);
  WritableTarget(std::string path, dev_t dev, ino_t ino, dev_t rdev)
      : m_path(std::move(path)), m_dev(dev), m_ino(ino), m_rdev(rdev) {}

  std::string m_path;
  dev_t m_dev = 0;
  ino_t m_ino = 0;
  dev_t m_rdev = 0;  // the device number of a block device; 0 for a file
};

// open(path, O_RDWR | O_CLOEXEC | extra_flags) (O_DIRECT, O_EXCL, ...), then the identity
// check. Returns an invalid fd with errno set when open() fails (the caller names the error);
// throws SafetyRefusal when the opened object is not the gated one.
UniqueFd open_for_writing(const WritableTarget& target, int extra_flags);

}  // namespace ptsuite
