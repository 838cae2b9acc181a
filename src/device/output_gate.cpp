#include <ptsuite/device/output_gate.hpp>

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <optional>

#include <ptsuite/device/target_gate.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/printable.hpp>

#include "device/gate_issuer.hpp"
#include "device/storage_graph.hpp"
#include "device/storage_use.hpp"
#include "device/sysfs.hpp"

namespace ptsuite::device {

namespace {

namespace fs = std::filesystem;

// `path` made absolute with its parent directory canonical (symbolic links resolved), or the
// whole path canonical when `whole`; the parts that do not exist yet are kept as given.
fs::path settled(const std::string& path, bool whole) {
  const fs::path abs = fs::absolute(fs::path(path)).lexically_normal();
  std::error_code ec;
  if (whole) return fs::weakly_canonical(abs, ec);
  const fs::path name = abs.filename().empty() ? abs.parent_path().filename() : abs.filename();
  const fs::path parent = abs.filename().empty() ? abs.parent_path().parent_path() : abs.parent_path();
  const fs::path canonical_parent = fs::weakly_canonical(parent, ec);
  return (ec ? parent : canonical_parent) / name;
}

// The nearest ancestor of `path` that exists.
fs::path existing_ancestor(const fs::path& path) {
  fs::path p = path.parent_path();
  std::error_code ec;
  while (!p.empty() && !fs::exists(p, ec) && p != p.parent_path()) p = p.parent_path();
  return p;
}

void require_writable_directory(const fs::path& dir, const std::string& option, const std::string& what) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    throw UsageError(option,
                     fmt::format("cannot create {}: the directory {} does not exist", what, printable(dir.string())));
  }
  if (!fs::is_directory(dir, ec)) {
    throw UsageError(option, fmt::format("cannot create {}: {} is not a directory", what, printable(dir.string())));
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw UsageError(option, fmt::format("cannot create {}: the directory {} is not writable ({})", what,
                                         printable(dir.string()), std::strerror(errno)));
  }
}

std::string directory_node_kind(mode_t mode) {
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

// Whether `path` lies below `dir` (both absolute and settled; lexically, component by component:
// "/a/run2/x" is not inside "/a/run").
bool lies_inside(const fs::path& path, const fs::path& dir) {
  const fs::path rel = path.lexically_normal().lexically_relative(dir.lexically_normal());
  return !rel.empty() && rel != "." && *rel.begin() != "..";
}

}  // namespace

OutputGate::OutputGate(std::string command, SystemRoots roots, std::string lock_dir)
    : m_command(std::move(command)),
      m_roots(std::move(roots)),
      m_lock_dir(std::move(lock_dir)),
      m_protect(std::make_shared<ProtectedFiles>()) {}

void OutputGate::refresh_system_files() {
  m_protect->resize(m_target_protected);
  for (const auto& [id, loop] : graph::loop_backing_files(m_roots)) {
    m_protect->push_back({id.dev, id.ino,
                          fmt::format("it is the backing file of the attached loop device /dev/{} (detach it "
                                      "first if it is no longer needed)",
                                      loop)});
  }
  for (const auto& [id, path] : read_system_state(m_roots).swap_files) {
    m_protect->push_back({id.dev, id.ino, "it is an active swap file"});
  }
}

void OutputGate::add_input(const std::string& path, const std::string& option) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return;
  m_inputs.push_back({settled(path, true), st.st_dev, st.st_ino, option});
}

void OutputGate::add_target(const std::string& path, const std::string& option) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return;
  std::optional<graph::StorageSet> set;
  if (S_ISREG(st.st_mode)) {
    set = graph::resolve_file({st.st_dev, st.st_ino}, path, static_cast<uint64_t>(st.st_size), m_roots);
  } else if (S_ISBLK(st.st_mode)) {
    if (const auto node = sysfs::node_by_devnum({::major(st.st_rdev), ::minor(st.st_rdev)}, m_roots)) {
      set = graph::resolve_block(*node, m_roots);
    }
  }
  if (!set) return;
  ProtectedFiles targets(m_protect->begin(), m_protect->begin() + static_cast<ptrdiff_t>(m_target_protected));
  for (size_t i = 0; i < set->members.size(); ++i) {
    const graph::StorageObject& o = set->members[i].object;
    if (!o.file) continue;
    targets.push_back({o.file->dev, o.file->ino,
                       i == 0 ? fmt::format("it is this command's target ({} {})", option, printable(path))
                              : fmt::format("it shares bytes with this command's target {} ({})", printable(path),
                                            set->relation(i))});
  }
  m_target_protected = targets.size();
  *m_protect = std::move(targets);
  refresh_system_files();
}

void OutputGate::check_clash(const Claimed& c, bool may_be_input) const {
  const auto same = [&](const Claimed& other) {
    return other.path == c.path || (c.ino != 0 && other.dev == c.dev && other.ino == c.ino);
  };
  for (const Claimed& in : m_inputs) {
    if (!may_be_input && same(in)) {
      throw UsageError(c.option, fmt::format("{} is also this command's input ({}); an output never overwrites "
                                             "what the command reads: give another path",
                                             printable(c.path.string()), in.option));
    }
  }
  for (const Claimed& out : m_outputs) {
    if (same(out)) {
      throw UsageError(c.option, fmt::format("{} is also {}; give each output its own path", printable(c.path.string()),
                                             out.option));
    }
    const Claimed* inner = out.fills && lies_inside(c.path, out.path) ? &c
                           : c.fills && lies_inside(out.path, c.path) ? &out
                                                                      : nullptr;
    if (inner != nullptr) {
      const Claimed& dir = inner == &c ? out : c;
      throw UsageError(c.option, fmt::format("{} {} is inside {} {}, the directory this command fills with its own "
                                             "files; write it outside that directory",
                                             inner->option, printable(inner->path.string()), dir.option,
                                             printable(dir.path.string())));
    }
  }
}

void OutputGate::check_existing_file(const fs::path& path, const std::string& option, dev_t dev, ino_t ino,
                                     bool may_be_input) {
  const OutputPath probe = GateIssuer::output_path(path, option, m_protect);
  check_destination(probe);  // special files, links, directories, the protected inodes
  if (auto holder = file_lock_holder(dev, ino, m_lock_dir)) {
    throw SafetyRefusal(
        fmt::format("refusing to write {} {}: it is the target of {}", option, printable(path.string()), *holder));
  }
  check_clash({path, dev, ino, option}, may_be_input);
}

OutputPath OutputGate::file(const std::string& path, const std::string& option) {
  if (path.empty()) throw UsageError(option, "give a file name");
  refresh_system_files();
  const fs::path p = settled(path, false);
  struct stat st {};
  if (::lstat(p.c_str(), &st) == 0) {
    check_existing_file(p, option, st.st_dev, st.st_ino, false);
  } else {
    check_clash({p, 0, 0, option}, false);
  }
  require_writable_directory(p.parent_path(), option, printable(p.string()));
  const bool exists = ::lstat(p.c_str(), &st) == 0;
  m_outputs.push_back({p, exists ? st.st_dev : 0, exists ? st.st_ino : 0, option});
  return GateIssuer::output_path(p, option, m_protect);
}

OutputPath OutputGate::database(const std::string& path, const std::string& option) {
  if (path.empty()) throw UsageError(option, "give a database file");
  refresh_system_files();
  const fs::path p = settled(path, false);
  struct stat st {};
  const bool exists = ::lstat(p.c_str(), &st) == 0;
  if (exists) {
    check_existing_file(p, option, st.st_dev, st.st_ino, false);
    require_writable_directory(p.parent_path(), option, printable(p.string()));
  } else {
    check_clash({p, 0, 0, option}, false);
    require_writable_directory(existing_ancestor(p), option, printable(p.string()));
  }
  m_outputs.push_back({p, exists ? st.st_dev : 0, exists ? st.st_ino : 0, option});
  return GateIssuer::output_path(p, option, m_protect);
}

OutputDir OutputGate::directory(const std::string& path, const std::string& option, Existing existing) {
  if (path.empty()) throw UsageError(option, "give a directory");
  refresh_system_files();
  const fs::path p = settled(path, true);
  const bool fills = existing == Existing::must_be_empty;
  std::error_code ec;
  struct stat st {};
  if (::stat(p.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) {
      if (!S_ISREG(st.st_mode)) {
        throw SafetyRefusal(fmt::format("refusing to write into {} {}: it is {}, not a directory", option,
                                        printable(p.string()), directory_node_kind(st.st_mode)));
      }
      throw UsageError(option, fmt::format("{} is a file; give a directory", printable(p.string())));
    }
    if (existing == Existing::must_be_empty && !fs::is_empty(p, ec)) {
      throw UsageError(option, fmt::format("{} already exists and is not empty; give a new or empty directory",
                                           printable(p.string())));
    }
    require_writable_directory(p, option, printable(p.string()));
    check_clash({p, st.st_dev, st.st_ino, option, fills}, true);
    m_outputs.push_back({p, st.st_dev, st.st_ino, option, fills});
  } else {
    require_writable_directory(existing_ancestor(p), option, printable(p.string()));
    check_clash({p, 0, 0, option, fills}, true);
    m_outputs.push_back({p, 0, 0, option, fills});
  }
  return GateIssuer::output_dir(p, option, m_protect);
}

}  // namespace ptsuite::device
