#include <ptsuite/device/safety.hpp>

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <vector>

#include <ptsuite/util/error.hpp>
#include "device/sysfs.hpp"

namespace ptsuite::device {

namespace {

namespace fs = std::filesystem;
using sysfs::BlockNode;
using sysfs::DevNum;

std::string devnum_text(DevNum d) { return fmt::format("{}:{}", d.major, d.minor); }

// Everything the checks need, read once per call.
struct SystemState {
  std::vector<sysfs::MountEntry> mounts;
  std::vector<std::pair<DevNum, std::string>> mounted;  // device -> mount point
  std::vector<DevNum> swaps;
  std::vector<DevNum> btrfs_members;
  std::vector<DevNum> root_backing;  // "/" and every device below it (slaves, recursively)
};

bool contains(const std::vector<DevNum>& list, DevNum d) {
  return std::find(list.begin(), list.end(), d) != list.end();
}

void add_with_slaves(DevNum start, const SystemRoots& roots, std::vector<DevNum>& out) {
  std::vector<DevNum> todo{start};
  while (!todo.empty()) {
    const DevNum d = todo.back();
    todo.pop_back();
    if (contains(out, d)) {
      continue;
    }
    out.push_back(d);
    if (const auto node = sysfs::node_by_devnum(d, roots)) {
      for (const auto& slave : sysfs::slaves_of(*node)) {
        if (const auto s = sysfs::node_by_name(slave, roots)) {
          todo.push_back(s->devnum);
        }
      }
    }
  }
}

SystemState read_state(const SystemRoots& roots) {
  SystemState st;
  st.mounts = sysfs::read_mountinfo(roots);
  const sysfs::MountEntry* root_mount = nullptr;
  for (const auto& m : st.mounts) {
    // Matched by device number first; the source path covers filesystems that report an
    // anonymous device number (btrfs, major 0).
    st.mounted.emplace_back(m.devnum, m.mount_point);
    if (const auto src = sysfs::node_by_dev_path(m.source, roots); src && !(src->devnum == m.devnum)) {
      st.mounted.emplace_back(src->devnum, m.mount_point);
    }
    if (m.mount_point == "/") {
      root_mount = &m;  // the last mount on "/" is the visible one
    }
  }
  if (root_mount != nullptr) {
    if (root_mount->devnum.major != 0) {
      add_with_slaves(root_mount->devnum, roots, st.root_backing);
    }
    if (const auto src = sysfs::node_by_dev_path(root_mount->source, roots)) {
      add_with_slaves(src->devnum, roots, st.root_backing);
    }
  }
  for (const auto& path : sysfs::read_swap_devices(roots)) {
    if (const auto node = sysfs::node_by_dev_path(path, roots)) {
      st.swaps.push_back(node->devnum);
    }
  }
  for (const auto& fsid : sysfs::list_dir(fs::path(roots.sys) / "fs" / "btrfs")) {
    for (const auto& member : sysfs::list_dir(fs::path(roots.sys) / "fs" / "btrfs" / fsid / "devices")) {
      if (const auto node = sysfs::node_by_name(member, roots)) {
        st.btrfs_members.push_back(node->devnum);
      }
    }
  }
  return st;
}

// What keeps `node` busy, as the end of a sentence ("is mounted at /x"); nullopt when unused.
std::optional<std::string> direct_use(const BlockNode& node, const SystemState& st) {
  if (contains(st.root_backing, node.devnum)) {
    return std::string("backs the root filesystem /");
  }
  for (const auto& [d, mount_point] : st.mounted) {
    if (d == node.devnum) {
      return fmt::format("is mounted at {}", mount_point);
    }
  }
  if (contains(st.swaps, node.devnum)) {
    return std::string("is active swap");
  }
  if (contains(st.btrfs_members, node.devnum)) {
    return std::string("is a member of a mounted btrfs filesystem");
  }
  return std::nullopt;
}

// Direct use, or the first holder (recursively) that is in use, or "is held by X".
std::optional<std::string> use_of(const BlockNode& node, const SystemState& st, const SystemRoots& roots,
                                  int depth = 0) {
  if (auto use = direct_use(node, st)) {
    return use;
  }
  const auto holders = sysfs::holders_of(node);
  if (holders.empty()) {
    return std::nullopt;
  }
  if (depth < 8) {
    for (const auto& holder : holders) {
      if (const auto h = sysfs::node_by_name(holder, roots)) {
        if (auto use = use_of(*h, st, roots, depth + 1)) {
          return fmt::format("is held by {}, which {}", holder, *use);
        }
      }
    }
  }
  return fmt::format("is held by {} (device-mapper, md, LVM or bcache)", fmt::join(holders, ", "));
}

}  // namespace

SafetyVerdict check_device_number_allowed(unsigned major, unsigned minor, const std::string& label,
                                          const SystemRoots& roots) {
  const DevNum devnum{major, minor};
  const auto node = sysfs::node_by_devnum(devnum, roots);
  if (!node) {
    return {false, fmt::format("refusing to write to {}: block device {} is not in {}/dev/block, so "
                               "its mounts and holders cannot be checked",
                               label, devnum_text(devnum), roots.sys)};
  }
  const SystemState st = read_state(roots);
  // The nodes whose use makes a write unsafe: a disk and all its partitions; a partition and
  // its parent disk's own entry (siblings are independent).
  std::vector<std::pair<BlockNode, std::string>> nodes;  // node, how to name it
  if (node->is_partition) {
    nodes.emplace_back(*node, node->name);
    if (const auto disk = sysfs::node_by_name(node->disk_name, roots)) {
      nodes.emplace_back(*disk, "parent disk " + disk->name);
    }
  } else {
    nodes.emplace_back(*node, node->name);
    for (const auto& part : sysfs::partitions_of(*node, roots)) {
      nodes.emplace_back(part, "partition " + part.name);
    }
  }
  for (const auto& [n, name] : nodes) {
    if (const auto use = use_of(n, st, roots)) {
      return {false, fmt::format("refusing to write to {}: {} {}", label, name, *use)};
    }
  }
  return {true, {}};
}

SafetyVerdict check_sibling_namespaces_allowed(const std::string& kernel_name, const std::string& label,
                                               const SystemRoots& roots) {
  const auto node = sysfs::node_by_name(kernel_name, roots);
  if (!node) {
    return {false, fmt::format("refusing to erase {}: {} is not in {}/class/block", label, kernel_name, roots.sys)};
  }
  const fs::path disk_dir = node->is_partition ? node->dir.parent_path() : node->dir;
  const fs::path controller_dir = disk_dir.parent_path();
  for (const auto& name : sysfs::list_dir(controller_dir)) {
    const auto sibling = sysfs::node_by_name(name, roots);
    if (!sibling || sibling->name == node->disk_name || sibling->dir.parent_path() != controller_dir) {
      continue;
    }
    const auto verdict = check_device_number_allowed(sibling->devnum.major, sibling->devnum.minor, label, roots);
    if (!verdict.allowed) {
      return {false, fmt::format("{} (namespace {} shares the controller, and this purge erases every namespace)",
                                 verdict.reason, sibling->name)};
    }
  }
  return {true, {}};
}

SafetyVerdict check_destructive_allowed(const std::string& path, const SystemRoots& roots) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) {
    return {true, {}};
  }
  return check_device_number_allowed(::major(st.st_rdev), ::minor(st.st_rdev), path, roots);
}

void require_destructive_allowed(const std::string& path, bool allow_destructive, const SystemRoots& roots) {
  const SafetyVerdict verdict = check_destructive_allowed(path, roots);
  if (!verdict.allowed) {
    throw SafetyRefusal(verdict.reason);
  }
  struct stat st {};
  if (!allow_destructive && ::stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) {
    throw SafetyRefusal(
        fmt::format("refusing to write to block device {}: this destroys its data; pass --allow-destructive "
                    "to proceed",
                    path));
  }
}

}  // namespace ptsuite::device
