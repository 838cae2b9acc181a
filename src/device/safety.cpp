#include <ptsuite/device/safety.hpp>

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>
#include <optional>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/printable.hpp>
#include "device/storage_graph.hpp"
#include "device/storage_use.hpp"
#include "device/sysfs.hpp"

namespace ptsuite::device {

namespace {

namespace fs = std::filesystem;

// The in-use and held checks of the target's relation set (storage_use.hpp).
SafetyVerdict verdict_of(const graph::StorageSet& set, const std::string& label, const SystemRoots& roots) {
  const SystemState state = read_system_state(roots);
  if (auto use = first_use(set, state, {true, true, false, false}, roots)) {
    return {false, fmt::format("refusing to write to {}: {}", label, *use)};
  }
  return {true, {}};
}

}  // namespace

SafetyVerdict check_device_number_allowed(unsigned major, unsigned minor, const std::string& label,
                                          const SystemRoots& roots) {
  const sysfs::DevNum devnum{major, minor};
  const auto node = sysfs::node_by_devnum(devnum, roots);
  if (!node) {
    return {false, fmt::format("refusing to write to {}: block device {}:{} is not in {}/dev/block, so "
                               "its mounts and holders cannot be checked",
                               label, major, minor, roots.sys)};
  }
  return verdict_of(graph::resolve_block(*node, roots), label, roots);
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
  if (::stat(path.c_str(), &st) != 0) return {true, {}};
  if (S_ISBLK(st.st_mode)) return check_device_number_allowed(::major(st.st_rdev), ::minor(st.st_rdev), path, roots);
  if (!S_ISREG(st.st_mode)) return {true, {}};
  const graph::StorageSet set =
      graph::resolve_file({st.st_dev, st.st_ino}, path, static_cast<uint64_t>(st.st_size), roots);
  return verdict_of(set, printable(path), roots);
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
