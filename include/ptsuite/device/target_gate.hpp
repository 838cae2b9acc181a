// Contract: THE gate every ptsuite command passes before it opens a target for IO: workload,
// run, resume, validate, scenario run/resume, device purge, and any future writer (app,
// replay) - one call, before the target is opened:
//
//   device::TargetGuard guard = device::pass_target_gate({path, access, allow_destructive, "run"});
//
// It returns only when the target may be used, and the returned guard holds ptsuite's
// advisory lock on the target until it is destroyed (keep it alive as long as the IO runs).
// Every refusal is a SafetyRefusal (exit 3) with a one-line reason naming the holder, thrown
// before anything is opened for writing. What is checked:
//
//   every access (reads too):
//     * another ptsuite process holds the target, or a device it stands on or that stands on
//       it (the advisory lock below): refused, naming the process and its command.
//   writes, block device:
//     * device::check_device_number_allowed(): the device, a partition or its parent disk
//       mounted (/proc/self/mountinfo by major:minor), active swap, held by dm/md/LVM/bcache
//       (sysfs holders, recursively), backing the root filesystem;
//     * a loop device whose backing file is this device, in use in any of those ways;
//     * the kernel's exclusive claim: an O_RDONLY|O_EXCL probe of the device node fails with
//       EBUSY while anything claims it (a mount in another mount namespace, a holder, another
//       ptsuite run's O_EXCL claim); the processes that have it open are named;
//     * consent: --allow-destructive.
//   writes, regular file:
//     * every loop device backed by the file (sysfs loop/backing_file, matched by the backing
//       file's st_dev + st_ino through the path and, on a real system, LOOP_GET_STATUS64) that
//       is in use in any of the block-device ways above (mounted, swap, held, claimed);
//     * an active swap file (/proc/swaps, by st_dev + st_ino);
//     * consent: a file that holds data needs --allow-destructive. "Holds no data" = size 0,
//       or no allocated block (st_blocks == 0 and SEEK_DATA finds none: only holes, which
//       read as zeros), e.g. a file just made with truncate(1).
//   A path that does not exist passes (nothing to protect; opening it then fails with exit 2).
//
// The advisory lock: flock(LOCK_EX) on <roots.lock_dir>/ptsuite-<key>.lock, key = the block
// device number ("blk-259-0") or the file's st_dev + st_ino ("file-2049-131077"), so every
// name of the same device or file (by-id links, hard links) meets the same lock. The file
// names the holder ("pid 4242: ptsuite run"). The kernel drops it when the process ends, so a
// crashed run never leaves a stale claim. Checked for the target and every related node: its
// parent disk and partitions, loop devices over it, a loop device's backing file.
//
// Threading: call from one thread; the guard is move-only. Reads files and, on a real system,
// opens device nodes read-only (the probe and LOOP_GET_STATUS64); never writes a target.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <utility>

#include <ptsuite/device/safety.hpp>
#include <ptsuite/util/fd.hpp>
#include <ptsuite/util/writable_target.hpp>

namespace ptsuite::device {

enum class TargetAccess { read_only, read_write };

struct GateRequest {
  GateRequest(std::string path_, TargetAccess access_, bool allow_destructive_, std::string command_,
              SystemRoots roots_ = {})
      : path(std::move(path_)),
        access(access_),
        allow_destructive(allow_destructive_),
        command(std::move(command_)),
        roots(std::move(roots_)) {}
  std::string path;
  TargetAccess access = TargetAccess::read_write;
  bool allow_destructive = false;  // --allow-destructive (our own scratch targets pass true)
  std::string command;             // names this process in other processes' refusals: "run"
  SystemRoots roots;
  // The lock directory (world-writable, sticky, on tmpfs: cleared at boot).
  std::string lock_dir = "/run/lock";
};

// Holds the advisory lock on one target while alive, and - for a read_write request - the
// token that opens it for writing (util/writable_target.hpp). Default-constructed: holds
// nothing.
class TargetGuard {
 public:
  TargetGuard() = default;
  TargetGuard(UniqueFd lock_fd, std::string lock_path, std::string path, std::optional<WritableTarget> writable)
      : m_fd(std::move(lock_fd)),
        m_lock_path(std::move(lock_path)),
        m_path(std::move(path)),
        m_writable(std::move(writable)) {}
  [[nodiscard]] bool holds_lock() const noexcept { return m_fd.valid(); }
  [[nodiscard]] const std::string& lock_path() const noexcept { return m_lock_path; }
  // The target for writing. Throws UsageError (exit 2) when the path named nothing a target
  // can be (missing, a directory, a character device...), std::logic_error when the request
  // was read_only.
  [[nodiscard]] const WritableTarget& writable() const;

 private:
  UniqueFd m_fd;
  std::string m_lock_path;
  std::string m_path;
  std::optional<WritableTarget> m_writable;
  bool m_read_only = false;
  friend TargetGuard pass_target_gate(const GateRequest& request);
};

// The checks without taking the lock: the refusal's reason, or nullopt when allowed.
std::optional<std::string> check_target_gate(const GateRequest& request);

// The checks, then the lock on the target itself. Throws SafetyRefusal (exit 3).
TargetGuard pass_target_gate(const GateRequest& request);

// The ptsuite process holding the lock on the regular file with this st_dev + st_ino ("pid
// 4242: ptsuite run on /dev/shm/t.img"), or nullopt (the output gate refuses such a file).
std::optional<std::string> file_lock_holder(dev_t dev, ino_t ino, const std::string& lock_dir = "/run/lock");

}  // namespace ptsuite::device
