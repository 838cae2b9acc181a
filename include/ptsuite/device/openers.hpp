// Contract: who has a block device open, for messages that must say why an exclusive claim
// failed ("held by pid 4242 (mkfs.ext4)") and for the host preflight. Reads
// <proc>/<pid>/fd/* links (and <proc>/<pid>/comm) and matches them to the device by device
// number (st_rdev), so /dev/disk/by-id names and bind-mounted /dev trees match too. Processes
// whose fd directory cannot be read (another user's, without root) are skipped; the result
// says how many were. /proc cannot tell an exclusive (O_EXCL) opener from a plain one, so
// messages say "open in", not "claimed by". Pure reads; never opens the device. Thread-safe.
#pragma once

#include <sys/types.h>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <ptsuite/device/safety.hpp>

namespace ptsuite::device {

struct DeviceOpener {
  pid_t pid = 0;
  std::string command;  // /proc/<pid>/comm
  std::string opened;   // the fd link that matched, as /proc shows it ("/dev/nvme0n1p1")
};

struct DeviceOpeners {
  std::vector<DeviceOpener> processes;  // sorted by pid, each once
  unsigned unreadable = 0;              // processes whose fds could not be inspected
};

// What to look for: fd links whose text is one of `link_names` ("/dev/nvme0n1", a file's
// path; how /proc shows them, and all a fake /proc tree in tests can offer) or, when `rdev`
// is set, that resolve to a block device with that device number (real /proc: finds opens
// through other names of the same node).
struct OpenerQuery {
  std::set<std::string> link_names;
  std::optional<dev_t> rdev;
  pid_t exclude_pid = 0;  // e.g. ourselves
};
DeviceOpeners find_openers(const OpenerQuery& query, const SystemRoots& roots = {});

// Processes (other than `exclude_pid`) with `path`'s block device open. A path that is not a
// block device yields an empty list.
DeviceOpeners find_device_openers(const std::string& path, pid_t exclude_pid = 0, const SystemRoots& roots = {});

// One clause for messages: "open in pid 4242 (mkfs.ext4), pid 17 (qemu)" or, when no process
// is visible, "no process has it open; the kernel's claim is held by a mount, swap, a
// device-mapper/md holder or a process this user cannot see".
std::string describe_device_openers(const DeviceOpeners& openers);

}  // namespace ptsuite::device
