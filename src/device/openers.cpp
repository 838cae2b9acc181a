#include <ptsuite/device/openers.hpp>

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "device/sysfs.hpp"

namespace ptsuite::device {

namespace {

namespace fs = std::filesystem;

bool is_pid_dir(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// True when any fd of the process links to a block device with this device number.
// Returns nullopt when the fd directory is unreadable.
std::optional<bool> process_has_open(const fs::path& fd_dir, dev_t rdev) {
  std::error_code ec;
  fs::directory_iterator it(fd_dir, ec);
  if (ec) return std::nullopt;
  for (const auto& entry : it) {
    // stat() follows the fd's magic link to the open file itself; a deleted or anonymous
    // file fails or is not a block device, and is skipped.
    struct stat st {};
    if (::stat(entry.path().c_str(), &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == rdev) {
      return true;
    }
  }
  return false;
}

}  // namespace

DeviceOpeners find_device_openers(const std::string& path, pid_t exclude_pid, const SystemRoots& roots) {
  DeviceOpeners out;
  struct stat target {};
  if (::stat(path.c_str(), &target) != 0 || !S_ISBLK(target.st_mode)) return out;
  for (const std::string& name : sysfs::list_dir(roots.proc)) {
    if (!is_pid_dir(name)) continue;
    const pid_t pid = static_cast<pid_t>(std::strtol(name.c_str(), nullptr, 10));
    if (pid == exclude_pid) continue;
    const fs::path dir = fs::path(roots.proc) / name;
    const std::optional<bool> has = process_has_open(dir / "fd", target.st_rdev);
    if (!has) {
      ++out.unreadable;
      continue;
    }
    if (*has) out.processes.push_back({pid, sysfs::read_attr(dir / "comm").value_or("?")});
  }
  std::sort(out.processes.begin(), out.processes.end(),
            [](const DeviceOpener& a, const DeviceOpener& b) { return a.pid < b.pid; });
  return out;
}

std::string describe_device_openers(const DeviceOpeners& openers) {
  if (openers.processes.empty()) {
    return fmt::format(
        "no process has it open{}; the kernel's claim is then held by a mount, swap or a device-mapper/md holder",
        openers.unreadable > 0
            ? fmt::format(" that this user can see ({} processes not inspectable)", openers.unreadable)
            : "");
  }
  std::string out = "open in";
  for (size_t i = 0; i < openers.processes.size(); ++i) {
    out += fmt::format("{} pid {} ({})", i == 0 ? "" : ",", openers.processes[i].pid, openers.processes[i].command);
  }
  return out;
}

}  // namespace ptsuite::device
