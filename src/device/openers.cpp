#include <ptsuite/device/openers.hpp>

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>

#include "device/sysfs.hpp"

namespace ptsuite::device {

namespace {

namespace fs = std::filesystem;

bool is_pid_dir(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The first fd link of the process that matches the query ("" when none); nullopt when the fd
// directory cannot be read for lack of permission (a process that exits meanwhile matches nothing).
std::optional<std::string> matching_open(const fs::path& fd_dir, const OpenerQuery& q) {
  std::error_code ec;
  fs::directory_iterator it(fd_dir, ec);
  if (ec) return ec.value() == EACCES ? std::nullopt : std::optional<std::string>("");
  for (const auto& entry : it) {
    const fs::path link = fs::read_symlink(entry.path(), ec);
    if (ec) continue;
    if (q.link_names.count(link.string()) > 0) return link.string();
    // stat() follows the fd's magic link to the open file itself; a deleted or anonymous file
    // fails or is not a block device, and is skipped.
    struct stat st {};
    if (q.rdev && ::stat(entry.path().c_str(), &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == *q.rdev) {
      return link.string();
    }
  }
  return std::string();
}

}  // namespace

DeviceOpeners find_openers(const OpenerQuery& query, const SystemRoots& roots) {
  DeviceOpeners out;
  for (const std::string& name : sysfs::list_dir(roots.proc)) {
    if (!is_pid_dir(name)) continue;
    const pid_t pid = static_cast<pid_t>(std::strtol(name.c_str(), nullptr, 10));
    if (pid == query.exclude_pid) continue;
    const fs::path dir = fs::path(roots.proc) / name;
    const std::optional<std::string> opened = matching_open(dir / "fd", query);
    if (!opened) {
      ++out.unreadable;
      continue;
    }
    if (!opened->empty()) out.processes.push_back({pid, sysfs::read_attr(dir / "comm").value_or("?"), *opened});
  }
  std::sort(out.processes.begin(), out.processes.end(),
            [](const DeviceOpener& a, const DeviceOpener& b) { return a.pid < b.pid; });
  return out;
}

DeviceOpeners find_device_openers(const std::string& path, pid_t exclude_pid, const SystemRoots& roots) {
  struct stat target {};
  if (::stat(path.c_str(), &target) != 0 || !S_ISBLK(target.st_mode)) return {};
  OpenerQuery q;
  q.link_names = {path};
  std::error_code ec;
  const fs::path canonical = fs::canonical(path, ec);
  if (!ec) q.link_names.insert(canonical.string());
  q.rdev = target.st_rdev;
  q.exclude_pid = exclude_pid;
  return find_openers(q, roots);
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
