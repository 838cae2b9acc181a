// Contract: the filesystem an application run puts its database on: made on the target
// (mkfs.ext4 by default, mkfs.xfs optional; the exact command recorded), mounted with the
// mount(2) system call on a private directory under the run's state directory, unmounted at
// the end. ext4 is made with its inode tables and journal initialised at mkfs time
// (lazy_itable_init=0, lazy_journal_init=0) so no background initialisation writes to the
// drive during the measurement; neither filesystem discards the device at mkfs (-E nodiscard,
// -K): the drive's state is what the run's preconditioning (or its absence) left.
// Mount options: noatime. Throws SystemError naming the tool and its output; UsageError for an
// unknown filesystem type.
#pragma once

#include <atomic>
#include <string>

namespace ptsuite::app {

struct FilesystemSpec {
  std::string type = "ext4";  // "ext4" or "xfs"
};

// The mkfs command line for `device` (argv joined by spaces: disclosure).
std::string mkfs_command_line(const FilesystemSpec& spec, const std::string& device);
// Makes the filesystem; returns the command line used.
std::string make_filesystem(const FilesystemSpec& spec, const std::string& device, const std::atomic<bool>* stop);

inline constexpr char k_mount_options[] = "noatime";

// Mounts `device` on `mount_point` (created when missing). Throws SystemError.
void mount_filesystem(const FilesystemSpec& spec, const std::string& device, const std::string& mount_point);
// Unmounts: a clean unmount, retried for up to `timeout_ms` while busy; then a lazy detach
// (MNT_DETACH) as the last resort. Returns a note when it had to detach ("" = clean).
std::string unmount_filesystem(const std::string& mount_point, unsigned timeout_ms = 10000);
// Whether `path` is a mount point now (per /proc/self/mountinfo).
bool is_mount_point(const std::string& path);

}  // namespace ptsuite::app
