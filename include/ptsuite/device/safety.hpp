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
#pragma once

#include <string>

namespace ptsuite::device {

struct SystemRoots {
  std::string proc = "/proc";
  std::string sys = "/sys";
  std::string dev = "/dev";
};

struct SafetyVerdict {
  bool allowed = false;
  std::string reason;  // one line; empty when allowed
};

// Pure check, no consent flag involved. Non-block-device paths are always allowed.
SafetyVerdict check_destructive_allowed(const std::string& path, const SystemRoots& roots = {});

// Throws SafetyRefusal when check_destructive_allowed() refuses, or when `path` is a block
// device and `allow_destructive` is false (the message names --allow-destructive).
void require_destructive_allowed(const std::string& path, bool allow_destructive,
                                 const SystemRoots& roots = {});

}  // namespace ptsuite::device
