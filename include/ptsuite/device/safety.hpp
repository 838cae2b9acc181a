// Contract: the ONE gate every destructive path goes through (workload writes, WIPC, purge,
// PTS runs). Before any write to a block device, callers invoke require_destructive_allowed();
// it throws SafetyRefusal (exit 3) with a one-line reason, having written nothing.
//
// A block device is refused when it, any of its partitions, or (for a partition) its parent
// whole disk's corresponding entry is:
//   * mounted (per /proc/self/mountinfo, matched by device number, not by name),
//   * active swap (/proc/swaps),
//   * held by another device (non-empty /sys/class/block/<dev>/holders: dm, md, LVM, bcache),
//   * backing the root filesystem (directly, or through a holder chain).
// Writes to a block device additionally need the explicit consent flag (--allow-destructive).
// Regular files need no flag and are never refused by these checks.
// `SystemRoots` lets tests point the checks at a fake /proc and /sys tree.
//
// Extensions (device layer): a mounted btrfs filesystem's member devices
// (/sys/fs/btrfs/<fsid>/devices) count as mounted; check_device_number_allowed() runs the same
// checks for a device number, so tests can drive them with a fake tree without device nodes.
// Thread-safe (reads files only); never writes anything.
#pragma once

#include <string>

namespace ptsuite::device {

struct SystemRoots {
  std::string proc = "/proc";
  std::string sys = "/sys";
  std::string dev = "/dev";
  std::string etc = "/etc";  // os-release for platform capture
};

struct SafetyVerdict {
  bool allowed = false;
  std::string reason;  // one line; empty when allowed
};

// Pure check, no consent flag involved. Non-block-device paths are always allowed.
SafetyVerdict check_destructive_allowed(const std::string& path, const SystemRoots& roots = {});

// The same checks for the block device with this device number. `label` names the device in
// the reason (e.g. "/dev/sdb").
SafetyVerdict check_device_number_allowed(unsigned major, unsigned minor, const std::string& label,
                                          const SystemRoots& roots = {});

// NVMe Sanitize (and Format NVM on controllers whose FNA says format/erase covers every
// namespace) erases every namespace of the controller, not only the target: this runs the
// same checks on each namespace block device that shares `kernel_name`'s controller directory
// in sysfs (e.g. nvme0n1 and nvme0n2 under .../nvme/nvme0/).
SafetyVerdict check_sibling_namespaces_allowed(const std::string& kernel_name, const std::string& label,
                                               const SystemRoots& roots = {});

// Throws SafetyRefusal when check_destructive_allowed() refuses, or when `path` is a block
// device and `allow_destructive` is false (the message names --allow-destructive).
void require_destructive_allowed(const std::string& path, bool allow_destructive, const SystemRoots& roots = {});

}  // namespace ptsuite::device
