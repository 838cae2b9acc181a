#include <ptsuite/device/target_gate.hpp>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/printable.hpp>
#include <ptsuite/util/units.hpp>
#include "device/gate_issuer.hpp"
#include "device/loop_backing.hpp"
#include "device/storage_graph.hpp"
#include "device/storage_use.hpp"
#include "device/sysfs.hpp"

namespace ptsuite::device {

namespace {

namespace fs = std::filesystem;
using sysfs::DevNum;

std::string block_key(DevNum d) { return fmt::format("blk-{}-{}", d.major, d.minor); }
std::string file_key(FileId f) { return fmt::format("file-{}-{}", static_cast<uint64_t>(f.dev), f.ino); }
std::string lock_file(const std::string& lock_dir, const std::string& key) {
  std::error_code ec;
  // /run/lock is Debian's (FHS 3.0); a system without it uses /tmp, as every ptsuite there does.
  const fs::path dir = fs::is_directory(lock_dir, ec) ? fs::path(lock_dir) : fs::path("/tmp");
  return (dir / ("ptsuite-" + key + ".lock")).string();
}
std::string lock_file(const GateRequest& r, const std::string& key) { return lock_file(r.lock_dir, key); }

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

std::string lock_what(const graph::StorageSet& set, size_t i) {
  const graph::StorageObject& o = set.members[i].object;
  if (i == 0) return "it";
  return o.is_block() ? "/dev/" + o.name() : o.name();
}

std::string lock_key(const graph::StorageObject& o) {
  return o.is_block() ? block_key(o.block->devnum) : file_key(*o.file);
}

// Another ptsuite holds the target or anything that shares its bytes.
std::optional<std::string> held_by_ptsuite(const GateRequest& req, const graph::StorageSet& set) {
  for (size_t i = 0; i < set.members.size(); ++i) {
    if (auto holder = lock_holder(lock_file(req, lock_key(set.members[i].object)))) {
      return fmt::format("refusing to use {}: {} is held by {}; wait for it to finish or stop it", printable(req.path),
                         lock_what(set, i), *holder);
    }
  }
  return std::nullopt;
}

bool file_holds_data(const std::string& path, const struct stat& st) {
  if (st.st_size == 0) return false;
  if (st.st_blocks != 0) return true;
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return true;  // cannot tell: assume it does
  return !(::lseek(fd.get(), 0, SEEK_DATA) < 0 && errno == ENXIO);
}

std::string consent_refusal(const GateRequest& req, const struct stat& st) {
  if (S_ISBLK(st.st_mode)) {
    return fmt::format(
        "refusing to write to block device {}: this destroys its data; pass --allow-destructive to proceed",
        printable(req.path));
  }
  return fmt::format(
      "refusing to write to {}: it is a regular file holding data ({}) that this overwrites; pass "
      "--allow-destructive to proceed (a new sparse file made with truncate needs no flag)",
      printable(req.path), units::format_size_binary(static_cast<uint64_t>(st.st_size)));
}

// Every check over the target's relation set, in the order that names the user best: another
// ptsuite, then anything that uses the bytes (mounted, swap, held, claimed), then consent,
// then a loop device that merely presents them.
std::optional<std::string> check_set(const GateRequest& req, const graph::StorageSet& set, const struct stat& st) {
  if (auto held = held_by_ptsuite(req, set)) return held;
  if (req.access == TargetAccess::read_only) return std::nullopt;
  const SystemState state = read_system_state(req.roots);
  const std::string prefix = fmt::format("refusing to write to {}: ", printable(req.path));
  if (auto use = first_use(set, state, {true, true, true, false}, req.roots)) return prefix + *use;
  const bool needs_consent = S_ISBLK(st.st_mode) || file_holds_data(req.path, st);
  if (!req.allow_destructive && needs_consent && S_ISREG(st.st_mode)) return consent_refusal(req, st);
  if (auto loop = first_use(set, state, {false, false, false, true}, req.roots)) return prefix + *loop;
  if (!req.allow_destructive && needs_consent) return consent_refusal(req, st);
  return std::nullopt;
}

std::optional<std::string> check_block(const GateRequest& req, const struct stat& st) {
  const DevNum devnum{::major(st.st_rdev), ::minor(st.st_rdev)};
  const auto node = sysfs::node_by_devnum(devnum, req.roots);
  if (!node) {
    const SafetyVerdict v = check_device_number_allowed(devnum.major, devnum.minor, req.path, req.roots);
    return v.allowed ? std::nullopt : std::optional<std::string>(v.reason);
  }
  return check_set(req, graph::resolve_block(*node, req.roots), st);
}

std::optional<std::string> check_file(const GateRequest& req, const struct stat& st) {
  const graph::StorageSet set =
      graph::resolve_file({st.st_dev, st.st_ino}, req.path, static_cast<uint64_t>(st.st_size), req.roots);
  return check_set(req, set, st);
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

std::optional<std::string> file_lock_holder(dev_t dev, ino_t ino, const std::string& lock_dir) {
  return lock_holder(lock_file(lock_dir, file_key({dev, ino})));
}

const WritableTarget& TargetGuard::writable() const {
  if (m_writable) return *m_writable;
  if (m_read_only) throw std::logic_error("the target gate passed " + m_path + " for reading only");
  struct stat st {};
  if (::stat(m_path.c_str(), &st) != 0) {
    throw UsageError("--target", fmt::format("{}: {}", printable(m_path), std::strerror(errno)));
  }
  throw UsageError("--target", fmt::format("{} is neither a block device nor a regular file", printable(m_path)));
}

TargetGuard pass_target_gate(const GateRequest& request) {
  if (auto refusal = check_target_gate(request)) {
    throw SafetyRefusal(*refusal);
  }
  struct stat st {};
  if (::stat(request.path.c_str(), &st) != 0 || !(S_ISBLK(st.st_mode) || S_ISREG(st.st_mode))) {
    TargetGuard none;
    none.m_path = request.path;
    none.m_read_only = request.access == TargetAccess::read_only;
    return none;
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
  std::optional<WritableTarget> writable;
  if (request.access == TargetAccess::read_write) writable = GateIssuer::writable_target(request.path, st);
  TargetGuard guard(std::move(fd), path, request.path, std::move(writable));
  guard.m_read_only = request.access == TargetAccess::read_only;
  return guard;
}

}  // namespace ptsuite::device
