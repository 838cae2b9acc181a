#include <ptsuite/device/target_gate.hpp>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <vector>

#include <ptsuite/device/openers.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/printable.hpp>
#include <ptsuite/util/units.hpp>
#include "device/loop_backing.hpp"
#include "device/sysfs.hpp"

namespace ptsuite::device {

namespace {

namespace fs = std::filesystem;
using sysfs::BlockNode;
using sysfs::DevNum;

std::string block_key(DevNum d) { return fmt::format("blk-{}-{}", d.major, d.minor); }
std::string file_key(FileId f) { return fmt::format("file-{}-{}", static_cast<uint64_t>(f.dev), f.ino); }
std::string lock_file(const GateRequest& r, const std::string& key) {
  std::error_code ec;
  // /run/lock is Debian's (FHS 3.0); a system without it uses /tmp, as every ptsuite there does.
  const fs::path dir = fs::is_directory(r.lock_dir, ec) ? fs::path(r.lock_dir) : fs::path("/tmp");
  return (dir / ("ptsuite-" + key + ".lock")).string();
}
std::string dev_node(const SystemRoots& roots, const BlockNode& n) { return (fs::path(roots.dev) / n.name).string(); }

// The holder named in the lock file when another open file description holds the lock.
std::optional<std::string> lock_holder(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (!fd.valid()) {
    return std::nullopt;  // never locked since boot
  }
  if (::flock(fd.get(), LOCK_SH | LOCK_NB) == 0 || errno != EWOULDBLOCK) {
    return std::nullopt;  // free (our shared lock goes with the fd)
  }
  char buf[256] = {};
  const ssize_t n = ::pread(fd.get(), buf, sizeof buf - 1, 0);
  std::string text = n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.empty()) return std::string("another ptsuite process");
  if (text.rfind(fmt::format("pid {}:", ::getpid()), 0) == 0) {
    return "this ptsuite process (" + printable(text) + "; the same target given twice?)";
  }
  return printable(text);
}

// The block devices whose locks and use matter for a block device: itself, its parent disk or
// its partitions.
std::vector<BlockNode> family_of(const BlockNode& node, const SystemRoots& roots) {
  std::vector<BlockNode> out{node};
  if (node.is_partition) {
    if (auto disk = sysfs::node_by_name(node.disk_name, roots)) out.push_back(*disk);
  } else {
    for (BlockNode& p : sysfs::partitions_of(node, roots)) out.push_back(std::move(p));
  }
  return out;
}

// The kernel's exclusive claim, probed: nullopt when free or when `node` has no usable
// device node here (a fake tree in tests).
std::optional<std::string> claim_probe(const BlockNode& node, const SystemRoots& roots) {
  const std::string path = dev_node(roots, node);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode) || ::major(st.st_rdev) != node.devnum.major ||
      ::minor(st.st_rdev) != node.devnum.minor) {
    return std::nullopt;
  }
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_EXCL | O_NONBLOCK | O_CLOEXEC));
  if (fd.valid() || errno != EBUSY) {
    return std::nullopt;
  }
  return fmt::format("{} is claimed exclusively by the kernel for another user ({})", node.name,
                     describe_device_openers(find_device_openers(path, ::getpid(), roots)));
}

std::optional<FileId> loop_backing_id(const sysfs::LoopDevice& loop, const SystemRoots& roots) {
  return device::loop_backing_id(dev_node(roots, loop.node), loop.node.devnum, loop.backing_file);
}

// The backing block device of a loop device (a loop over /dev/sdb), when it is one.
std::optional<dev_t> loop_backing_rdev(const sysfs::LoopDevice& loop) {
  struct stat st {};
  if (::stat(loop.backing_file.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) return st.st_rdev;
  return std::nullopt;
}

bool same_devnum(dev_t rdev, DevNum d) { return ::major(rdev) == d.major && ::minor(rdev) == d.minor; }

struct Related {
  std::vector<std::pair<BlockNode, std::string>> in_use_checked;  // node, how to name it
  std::vector<std::pair<std::string, std::string>> locks;         // key, what it is
};

void add_loop(Related& r, const sysfs::LoopDevice& loop, const std::string& why, const SystemRoots& roots) {
  for (const BlockNode& n : family_of(loop.node, roots)) {
    r.locks.emplace_back(block_key(n.devnum), "/dev/" + n.name);
  }
  r.in_use_checked.emplace_back(loop.node, why);
}

Related related_to_block(const BlockNode& node, const SystemRoots& roots) {
  Related r;
  for (const BlockNode& n : family_of(node, roots)) {
    r.locks.emplace_back(block_key(n.devnum), "/dev/" + n.name);
  }
  for (const sysfs::LoopDevice& loop : sysfs::attached_loop_devices(roots)) {
    if (loop.node.devnum == node.devnum) {
      if (const auto backing = loop_backing_id(loop, roots)) {
        r.locks.emplace_back(file_key(*backing), "its backing file " + printable(loop.backing_file));
      }
      continue;
    }
    const auto rdev = loop_backing_rdev(loop);
    if (!rdev) continue;
    for (const BlockNode& n : family_of(node, roots)) {
      if (same_devnum(*rdev, n.devnum)) {
        add_loop(r, loop, fmt::format("{} is a loop device over /dev/{}", loop.node.name, n.name), roots);
      }
    }
  }
  return r;
}

Related related_to_file(FileId id, const SystemRoots& roots) {
  Related r;
  r.locks.emplace_back(file_key(id), "it");
  for (const sysfs::LoopDevice& loop : sysfs::attached_loop_devices(roots)) {
    if (loop_backing_id(loop, roots) == id) {
      add_loop(r, loop, fmt::format("{} is a loop device backed by this file", loop.node.name), roots);
    }
  }
  return r;
}

std::optional<std::string> held_by_ptsuite(const GateRequest& req, const Related& related) {
  for (const auto& [key, what] : related.locks) {
    if (auto holder = lock_holder(lock_file(req, key))) {
      return fmt::format("refusing to use {}: {} is held by {}; wait for it to finish or stop it", printable(req.path),
                         what == "it" ? "it" : what, *holder);
    }
  }
  return std::nullopt;
}

// Loop devices over the target, in use in any way the safety checks know.
std::optional<std::string> loops_in_use(const GateRequest& req, const Related& related) {
  for (const auto& [loop, name] : related.in_use_checked) {
    const SafetyVerdict v =
        check_device_number_allowed(loop.devnum.major, loop.devnum.minor, printable(req.path), req.roots);
    if (!v.allowed) {
      return fmt::format("{} ({})", v.reason, name);
    }
    if (auto claimed = claim_probe(loop, req.roots)) {
      return fmt::format("refusing to write to {}: {} ({})", printable(req.path), *claimed, name);
    }
  }
  return std::nullopt;
}

// Attached and idle is still in use: the loop device presents what lies under it, and a write
// there changes it under whoever set it up (a filesystem not mounted yet, a VM image). Checked
// after the specific reasons, which name the user better.
std::optional<std::string> loop_attached(const GateRequest& req, const Related& related) {
  if (related.in_use_checked.empty()) return std::nullopt;
  const auto& [loop, name] = related.in_use_checked.front();
  return fmt::format("refusing to write to {}: {}; detach it first (losetup -d /dev/{}) if it is no longer needed",
                     printable(req.path), name, loop.name);
}

bool file_holds_data(const std::string& path, const struct stat& st) {
  if (st.st_size == 0) return false;
  if (st.st_blocks != 0) return true;
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return true;  // cannot tell: assume it does
  return !(::lseek(fd.get(), 0, SEEK_DATA) < 0 && errno == ENXIO);
}

std::optional<std::string> swap_file_use(const GateRequest& req, FileId id) {
  for (const std::string& swap : sysfs::read_swap_files(req.roots)) {
    struct stat st {};
    if (::stat(swap.c_str(), &st) == 0 && FileId{st.st_dev, st.st_ino} == id) {
      return fmt::format("refusing to write to {}: it is an active swap file ({})", printable(req.path),
                         printable(swap));
    }
  }
  return std::nullopt;
}

std::optional<std::string> check_file(const GateRequest& req, const struct stat& st) {
  const FileId id{st.st_dev, st.st_ino};
  const Related related = related_to_file(id, req.roots);
  if (auto held = held_by_ptsuite(req, related)) return held;
  if (req.access == TargetAccess::read_only) return std::nullopt;
  if (auto used = loops_in_use(req, related)) return used;
  if (auto swap = swap_file_use(req, id)) return swap;
  if (!req.allow_destructive && file_holds_data(req.path, st)) {
    return fmt::format(
        "refusing to write to {}: it is a regular file holding data ({}) that this overwrites; pass "
        "--allow-destructive to proceed (a new sparse file made with truncate needs no flag)",
        printable(req.path), units::format_size_binary(static_cast<uint64_t>(st.st_size)));
  }
  return loop_attached(req, related);
}

std::optional<std::string> check_block(const GateRequest& req, const struct stat& st) {
  const DevNum devnum{::major(st.st_rdev), ::minor(st.st_rdev)};
  const auto node = sysfs::node_by_devnum(devnum, req.roots);
  if (!node) {
    const SafetyVerdict v = check_device_number_allowed(devnum.major, devnum.minor, req.path, req.roots);
    return v.allowed ? std::nullopt : std::optional<std::string>(v.reason);
  }
  const Related related = related_to_block(*node, req.roots);
  if (auto held = held_by_ptsuite(req, related)) return held;
  if (req.access == TargetAccess::read_only) return std::nullopt;
  const SafetyVerdict v = check_device_number_allowed(devnum.major, devnum.minor, printable(req.path), req.roots);
  if (!v.allowed) return v.reason;
  if (auto used = loops_in_use(req, related)) return used;
  for (const BlockNode& n : family_of(*node, req.roots)) {
    if (auto claimed = claim_probe(n, req.roots)) {
      return fmt::format("refusing to write to {}: {}", printable(req.path), *claimed);
    }
  }
  if (auto attached = loop_attached(req, related)) return attached;
  if (!req.allow_destructive) {
    return fmt::format(
        "refusing to write to block device {}: this destroys its data; pass --allow-destructive to proceed",
        printable(req.path));
  }
  return std::nullopt;
}

std::string own_lock_key(const struct stat& st) {
  if (S_ISBLK(st.st_mode)) return block_key({::major(st.st_rdev), ::minor(st.st_rdev)});
  return file_key({st.st_dev, st.st_ino});
}

}  // namespace

std::optional<std::string> check_target_gate(const GateRequest& request) {
  struct stat st {};
  if (::stat(request.path.c_str(), &st) != 0) {
    return std::nullopt;  // nothing there to protect; opening it fails with exit 2
  }
  if (S_ISBLK(st.st_mode)) return check_block(request, st);
  if (S_ISREG(st.st_mode)) return check_file(request, st);
  return std::nullopt;  // neither: opening it fails with exit 2
}

TargetGuard pass_target_gate(const GateRequest& request) {
  if (auto refusal = check_target_gate(request)) {
    throw SafetyRefusal(*refusal);
  }
  struct stat st {};
  if (::stat(request.path.c_str(), &st) != 0 || !(S_ISBLK(st.st_mode) || S_ISREG(st.st_mode))) {
    return {};
  }
  const std::string path = lock_file(request, own_lock_key(st));
  // O_RDWR to record the holder; a lock file another user created is locked read-only.
  UniqueFd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644));
  if (!fd.valid()) fd.reset(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (!fd.valid()) {
    throw SystemError(fmt::format("cannot create the target lock {} (the lock directory must be writable)", path),
                      errno);
  }
  if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    throw SafetyRefusal(fmt::format("refusing to use {}: it is held by {}", printable(request.path),
                                    lock_holder(path).value_or("another ptsuite process")));
  }
  const std::string holder = fmt::format("pid {}: ptsuite {} on {}\n", ::getpid(), request.command, request.path);
  if (::ftruncate(fd.get(), 0) == 0) {
    (void)!::pwrite(fd.get(), holder.data(), holder.size(), 0);
  }
  return TargetGuard(std::move(fd), path);
}

}  // namespace ptsuite::device
