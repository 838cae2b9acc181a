#include "device/storage_use.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>

#include <ptsuite/device/openers.hpp>
#include <ptsuite/util/fd.hpp>
#include <ptsuite/util/printable.hpp>

namespace ptsuite::device {

namespace {

namespace fs = std::filesystem;
using graph::Edge;
using graph::Member;
using graph::StorageSet;
using sysfs::DevNum;

bool contains(const std::vector<DevNum>& list, DevNum d) {
  return std::find(list.begin(), list.end(), d) != list.end();
}

void add_with_slaves(DevNum start, const SystemRoots& roots, std::vector<DevNum>& out) {
  std::vector<DevNum> todo{start};
  while (!todo.empty()) {
    const DevNum d = todo.back();
    todo.pop_back();
    if (contains(out, d)) continue;
    out.push_back(d);
    if (const auto node = sysfs::node_by_devnum(d, roots)) {
      for (const auto& slave : sysfs::slaves_of(*node)) {
        if (const auto s = sysfs::node_by_name(slave, roots)) todo.push_back(s->devnum);
      }
    }
  }
}

void read_mounts(const SystemRoots& roots, SystemState& st) {
  const std::vector<sysfs::MountEntry> mounts = sysfs::read_mountinfo(roots);
  const sysfs::MountEntry* root_mount = nullptr;
  for (const auto& m : mounts) {
    // Matched by device number first; the source path covers filesystems that report an
    // anonymous device number (btrfs, major 0).
    st.mounted.emplace_back(m.devnum, m.mount_point);
    if (const auto src = sysfs::node_by_dev_path(m.source, roots); src && !(src->devnum == m.devnum)) {
      st.mounted.emplace_back(src->devnum, m.mount_point);
    }
    if (m.mount_point == "/") root_mount = &m;  // the last mount on "/" is the visible one
  }
  if (root_mount == nullptr) return;
  if (root_mount->devnum.major != 0) add_with_slaves(root_mount->devnum, roots, st.root_backing);
  if (const auto src = sysfs::node_by_dev_path(root_mount->source, roots)) {
    add_with_slaves(src->devnum, roots, st.root_backing);
  }
}

// What keeps a member busy, as the end of a sentence ("is mounted at /x"); nullopt when unused.
std::optional<std::string> direct_use(const Member& m, const SystemState& st) {
  if (m.object.file) {
    for (const auto& [id, path] : st.swap_files) {
      if (id == *m.object.file) return fmt::format("is an active swap file ({})", printable(path));
    }
    return std::nullopt;
  }
  const DevNum d = m.object.block->devnum;
  if (contains(st.root_backing, d)) return std::string("backs the root filesystem /");
  for (const auto& [mounted, mount_point] : st.mounted) {
    if (mounted == d) return fmt::format("is mounted at {}", printable(mount_point));
  }
  if (contains(st.swaps, d)) return std::string("is active swap");
  if (contains(st.btrfs_members, d)) return std::string("is a member of a mounted btrfs filesystem");
  return std::nullopt;
}

// The member named at the head of a sentence, and whether its relation needs spelling out.
std::string subject(const StorageSet& s, size_t i, bool& explain) {
  const Member& m = s.members[i];
  explain = false;
  if (i == 0) return m.object.is_block() ? m.object.name() : "it";
  if (m.parent == 0 && m.edge == Edge::disk_partition) return "partition " + m.object.name();
  if (m.parent == 0 && m.edge == Edge::partition_disk) return "parent disk " + m.object.name();
  explain = true;
  return m.object.name();
}

// "partition sda1 is held by md0, which is held by dm-0, which is mounted at /var": the holders
// at the end of the path named as a chain, the object below them as the subject, and how
// that object relates to the target in parentheses when it is not the target or next to it.
// An empty `use`: the sentence ends with the holders.
std::string sentence(const StorageSet& s, size_t i, const std::string& use) {
  const std::vector<size_t> path = s.path_to(i);
  size_t j = path.size() - 1;
  while (j > 0 && s.members[path[j]].edge == Edge::slave_holder) --j;
  bool explain = false;
  std::string text = subject(s, path[j], explain);
  for (size_t t = j + 1; t < path.size(); ++t) {
    text += (t == j + 1 ? " is held by " : ", which is held by ") + s.members[path[t]].object.name();
  }
  if (use.empty()) {
    text += " (device-mapper, md, LVM or bcache)";
  } else {
    text += (j + 1 < path.size() ? ", which " : " ") + use;
  }
  if (explain) text += " (" + s.relation(path[j]) + ")";
  return text;
}

// The target itself or an object it stands on (every step downward): their claims are the
// target's own stacking, not another user of its bytes.
bool below_target(const StorageSet& s, size_t i) {
  for (const size_t j : s.path_to(i)) {
    if (graph::is_upward(s.members[j].edge)) return false;
  }
  return i != 0;
}

}  // namespace

SystemState read_system_state(const SystemRoots& roots) {
  SystemState st;
  read_mounts(roots, st);
  for (const auto& path : sysfs::read_swap_devices(roots)) {
    if (const auto node = sysfs::node_by_dev_path(path, roots)) st.swaps.push_back(node->devnum);
  }
  for (const std::string& path : sysfs::read_swap_files(roots)) {
    struct stat sb {};
    if (::stat(path.c_str(), &sb) == 0) st.swap_files.emplace_back(FileId{sb.st_dev, sb.st_ino}, path);
  }
  for (const auto& fsid : sysfs::list_dir(fs::path(roots.sys) / "fs" / "btrfs")) {
    for (const auto& member : sysfs::list_dir(fs::path(roots.sys) / "fs" / "btrfs" / fsid / "devices")) {
      if (const auto node = sysfs::node_by_name(member, roots)) st.btrfs_members.push_back(node->devnum);
    }
  }
  return st;
}

std::optional<std::string> claim_probe(const sysfs::BlockNode& node, const SystemRoots& roots) {
  const std::string path = (fs::path(roots.dev) / node.name).string();
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode) || ::major(st.st_rdev) != node.devnum.major ||
      ::minor(st.st_rdev) != node.devnum.minor) {
    return std::nullopt;
  }
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_EXCL | O_NONBLOCK | O_CLOEXEC));
  if (fd.valid() || errno != EBUSY) return std::nullopt;
  return fmt::format("is claimed exclusively by the kernel for another user ({})",
                     describe_device_openers(find_device_openers(path, ::getpid(), roots)));
}

std::optional<std::string> first_use(const StorageSet& s, const SystemState& state, const UseChecks& checks,
                                     const SystemRoots& roots) {
  const size_t n = s.members.size();
  for (size_t i = 0; checks.in_use && i < n; ++i) {
    if (auto use = direct_use(s.members[i], state)) return sentence(s, i, *use);
  }
  for (size_t i = 1; checks.held && i < n; ++i) {
    if (s.members[i].edge == Edge::slave_holder) return sentence(s, i, "");
  }
  for (size_t i = 0; checks.claimed && i < n; ++i) {
    if (!s.members[i].object.block || below_target(s, i)) continue;
    if (auto claimed = claim_probe(*s.members[i].object.block, roots)) return sentence(s, i, *claimed);
  }
  for (size_t i = 1; checks.attached_loops && i < n; ++i) {
    if (s.members[i].edge != Edge::loop_over) continue;
    return fmt::format("{}; detach it first (losetup -d /dev/{}) if it is no longer needed", s.relation(i),
                       s.members[i].object.name());
  }
  return std::nullopt;
}

}  // namespace ptsuite::device
