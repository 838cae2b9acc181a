// Private: what keeps the members of a storage relation set (storage_graph.hpp) busy, and the
// one sentence that names it. The safety checks (safety.cpp) and the target gate
// (target_gate.cpp) ask the same questions of the same set, in this order:
//   in_use:  a member is mounted (by device number, or through the mount source's path for
//            btrfs' anonymous numbers), active swap (a device, or a swap file by inode), a
//            member of a mounted btrfs filesystem, or backs the root filesystem;
//   held:    a member is stacked on the target's bytes (dm, md, LVM, bcache holders);
//   claimed: the kernel's exclusive claim (an O_RDONLY|O_EXCL probe fails with EBUSY) on the
//            target or any member above it or beside it - not on the objects the target itself
//            stands on (a dm device claims its slaves, a claimed partition marks its disk);
//   loops:   a loop device, even idle, presents the target's bytes (a write changes what it
//            shows under whoever attached it).
// Reads /proc and sysfs; the claim probe opens device nodes read-only. Never writes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <ptsuite/device/safety.hpp>

#include "device/storage_graph.hpp"

namespace ptsuite::device {

// Everything the in-use checks need, read once per call.
struct SystemState {
  std::vector<std::pair<sysfs::DevNum, std::string>> mounted;  // device -> mount point
  std::vector<sysfs::DevNum> swaps;
  std::vector<std::pair<FileId, std::string>> swap_files;  // inode -> path in /proc/swaps
  std::vector<sysfs::DevNum> btrfs_members;
  std::vector<sysfs::DevNum> root_backing;  // "/" and every device below it (slaves, recursively)
};

SystemState read_system_state(const SystemRoots& roots);

struct UseChecks {
  bool in_use = true;
  bool held = true;
  bool claimed = false;
  bool attached_loops = false;
};

// The first use found, as the end of "refusing to write to X: ..." ("partition sda2 is mounted
// at /home", "loop1 is mounted at /mnt (loop2 is a loop device over /dev/shm/fs.img; loop1 is
// a loop device over /dev/shm/fs.img)"); nullopt when the set is free.
std::optional<std::string> first_use(const graph::StorageSet& set, const SystemState& state, const UseChecks& checks,
                                     const SystemRoots& roots);

// The kernel's exclusive claim on `node`, probed: "loop1 is claimed exclusively by the kernel
// for another user (...)", or nullopt when free or when `node` has no usable device node here
// (a fake tree in tests).
std::optional<std::string> claim_probe(const sysfs::BlockNode& node, const SystemRoots& roots);

}  // namespace ptsuite::device
