// The one writer (output_file.hpp). The only source in src/ besides writable_target.cpp and
// the gates' lock files that opens anything for writing (.ci/check-writes).
#include <ptsuite/util/output_file.hpp>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/printable.hpp>

namespace ptsuite {

namespace {

namespace fs = std::filesystem;

std::string node_kind_text(mode_t mode) {
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISDIR(mode)) return "a directory";
  return "not a regular file";
}

[[noreturn]] void refuse(const OutputPath& out, const std::string& why) {
  throw SafetyRefusal(fmt::format("refusing to write {} {}: {}", out.option(), printable(out.string()), why));
}

// Why an existing object at an output's name can never be written or replaced.
[[noreturn]] void refuse_kind(const OutputPath& out, mode_t mode) {
  if (S_ISLNK(mode)) {
    refuse(out, "it is a symbolic link, which an output never follows or replaces; name a regular file");
  }
  if (S_ISDIR(mode)) throw UsageError(out.option(), fmt::format("{} is a directory; give a file name", out.string()));
  refuse(out, "it is " + node_kind_text(mode) +
                  ": an output is a regular file that ptsuite replaces, never a device "
                  "node or special file" +
                  (S_ISCHR(mode) ? fmt::format(" (to write nothing, leave {} out)", out.option()) : ""));
}

bool valid_relative(const std::string& name) {
  const fs::path p(name);
  if (name.empty() || p.is_absolute()) return false;
  for (const fs::path& part : p) {
    if (part.empty() || part == "." || part == "..") return false;
  }
  return true;
}

void write_all(int fd, const void* data, size_t bytes, const fs::path& name) {
  const auto* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::write(fd, p, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw SystemError("cannot write " + name.string(), n < 0 ? errno : EIO);
    p += n;
    bytes -= static_cast<size_t>(n);
  }
}

void fsync_directory(const fs::path& file) {
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  const UniqueFd dfd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dfd.valid()) ::fsync(dfd.get());
}

// A new file beside `final_path`: ".<name>.<16 hex>.tmp", never an existing name.
std::pair<UniqueFd, fs::path> create_temporary(const fs::path& final_path, mode_t mode) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    uint64_t random = 0;
    if (::getrandom(&random, sizeof random, 0) != static_cast<ssize_t>(sizeof random)) {
      random = static_cast<uint64_t>(::getpid()) * 2654435761U + static_cast<uint64_t>(attempt);
    }
    const fs::path temp =
        final_path.parent_path() / fmt::format(".{}.{:016x}.tmp", final_path.filename().string(), random);
    UniqueFd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode));
    if (fd.valid()) return {std::move(fd), temp};
    if (errno != EEXIST) throw SystemError("cannot create a temporary file beside " + final_path.string(), errno);
  }
  throw SystemError("cannot create a temporary file beside " + final_path.string(), EEXIST);
}

// Puts `temp` (a regular file of ours) in place of `out`; `temp` is gone afterwards, whatever
// happens. See the header for why the exchange.
void install(const fs::path& temp, const OutputPath& out) {
  const fs::path& dest = out.path();
  try {
    check_destination(out);
    if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, dest.c_str(), RENAME_NOREPLACE) == 0) {
      fsync_directory(dest);
      return;
    }
    if (errno == EEXIST && ::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, dest.c_str(), RENAME_EXCHANGE) == 0) {
      struct stat old {};  // what was at `dest` now has our temporary name
      if (::lstat(temp.c_str(), &old) == 0 && S_ISREG(old.st_mode) &&
          out.protected_by(old.st_dev, old.st_ino) == nullptr) {
        ::unlink(temp.c_str());
        fsync_directory(dest);
        return;
      }
      ::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, dest.c_str(), RENAME_EXCHANGE);  // put it back
      check_destination(out);                                                        // throws, naming it
      throw SystemError(fmt::format("{} changed while it was being replaced", dest.string()));
    }
    if (errno != EINVAL && errno != ENOSYS) throw SystemError("cannot rename into " + dest.string(), errno);
    // No renameat2 flags on this filesystem: the check just made, then a plain rename.
    if (::rename(temp.c_str(), dest.c_str()) != 0) throw SystemError("cannot rename into " + dest.string(), errno);
    fsync_directory(dest);
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
}

}  // namespace

const ProtectedFile* OutputPath::protected_by(dev_t dev, ino_t ino) const noexcept {
  if (!m_protect) return nullptr;
  for (const ProtectedFile& p : *m_protect) {
    if (p.dev == dev && p.ino == ino) return &p;
  }
  return nullptr;
}

void check_destination(const OutputPath& out) {
  struct stat st {};
  if (::lstat(out.path().c_str(), &st) != 0) {
    if (errno == ENOENT) return;
    throw SystemError("cannot check " + out.string(), errno);
  }
  if (!S_ISREG(st.st_mode)) refuse_kind(out, st.st_mode);
  if (const ProtectedFile* p = out.protected_by(st.st_dev, st.st_ino)) refuse(out, p->why);
}

void OutputDir::create() const {
  std::error_code ec;
  fs::create_directories(m_path, ec);
  struct stat st {};
  if (::lstat(m_path.c_str(), &st) != 0) {
    // Nothing was made (a directory under /proc, a read-only filesystem): the path is the
    // user's to change, exit 2.
    throw UsageError(m_option, fmt::format("cannot create the directory {}: {}", printable(m_path.string()),
                                           ec ? ec.message() : std::strerror(errno)));
  }
  if (!S_ISDIR(st.st_mode)) {
    throw SafetyRefusal(fmt::format("refusing to write into {} {}: it is {}, not a directory", m_option,
                                    printable(m_path.string()), node_kind_text(st.st_mode)));
  }
}

OutputPath OutputDir::file(const std::string& name) const {
  if (!valid_relative(name)) throw std::invalid_argument("not a relative file name: " + name);
  return OutputPath(m_path / name, m_option, m_protect);
}

OutputDir OutputDir::subdir(const std::string& name) const {
  if (!valid_relative(name)) throw std::invalid_argument("not a relative directory name: " + name);
  return OutputDir(m_path / name, m_option, m_protect);
}

PrivateDir PrivateDir::create(const fs::path& parent, const std::string& prefix) {
  std::string pattern = (parent / (prefix + "XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw SystemError(fmt::format("cannot create a temporary directory in {}", parent.string()), errno);
  }
  return PrivateDir(OutputDir(pattern, "temporary directory", nullptr));
}

PrivateDir PrivateDir::create_named(const fs::path& parent, const std::string& name, mode_t mode) {
  if (!valid_relative(name) || name.find('/') != std::string::npos) {
    throw std::invalid_argument("not a directory name: " + name);
  }
  std::error_code ec;
  fs::create_directories(parent, ec);
  const fs::path dir = parent / name;
  if (::mkdir(dir.c_str(), mode) != 0) throw SystemError("cannot create the directory " + dir.string(), errno);
  PrivateDir made(OutputDir(dir, "state directory", nullptr));
  made.keep();
  return made;
}

PrivateDir::PrivateDir(PrivateDir&& other) noexcept
    : m_dir(std::move(other.m_dir)), m_keep(std::exchange(other.m_keep, true)) {}

PrivateDir& PrivateDir::operator=(PrivateDir&& other) noexcept {
  if (this != &other) {
    if (!m_keep) {
      std::error_code ec;
      fs::remove_all(m_dir.path(), ec);
    }
    m_dir = std::move(other.m_dir);
    m_keep = std::exchange(other.m_keep, true);
  }
  return *this;
}

PrivateDir::~PrivateDir() {
  if (!m_keep) {
    std::error_code ec;
    fs::remove_all(m_dir.path(), ec);
  }
}

void write_file_atomic(const OutputPath& out, std::string_view content, mode_t mode) {
  check_destination(out);
  auto [fd, temp] = create_temporary(out.path(), mode);
  try {
    write_all(fd.get(), content.data(), content.size(), temp);
    if (::fsync(fd.get()) != 0) throw SystemError("cannot fsync " + temp.string(), errno);
  } catch (...) {
    ::unlink(temp.c_str());  // a full filesystem leaves nothing behind
    throw;
  }
  fd.reset();
  install(temp, out);
}

void write_new_file(const OutputPath& out, std::string_view content, mode_t mode) {
  check_destination(out);
  UniqueFd fd(::open(out.path().c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode));
  if (!fd.valid()) {
    if (errno == EEXIST) {
      throw UsageError(out.option(), fmt::format("{} already exists; ptsuite never overwrites it", out.string()));
    }
    if (errno == ENOENT || errno == ENOTDIR || errno == EACCES || errno == EROFS) {
      throw UsageError(out.option(), fmt::format("cannot create {} ({}); give a path in an existing, writable "
                                                 "directory",
                                                 out.string(), std::strerror(errno)));
    }
    throw SystemError("cannot create " + out.string(), errno);
  }
  try {
    write_all(fd.get(), content.data(), content.size(), out.path());
    if (::fsync(fd.get()) != 0) throw SystemError("cannot fsync " + out.string(), errno);
  } catch (...) {
    ::unlink(out.path().c_str());
    throw;
  }
  fsync_directory(out.path());
}

void move_file(const OutputPath& from, const OutputPath& to) {
  struct stat st {};
  if (::lstat(from.path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    throw SystemError(fmt::format("{} is not a file this process wrote", from.string()));
  }
  install(from.path(), to);
}

AppendFile AppendFile::open(const OutputPath& out) {
  check_destination(out);
  // O_NONBLOCK: a FIFO that appeared since the check fails to open (ENXIO) instead of blocking.
  UniqueFd fd(::open(out.path().c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644));
  if (!fd.valid()) throw SystemError("cannot open " + out.string() + " for appending", errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw SystemError("cannot check " + out.string(), errno);
  if (!S_ISREG(st.st_mode)) refuse_kind(out, st.st_mode);
  if (const ProtectedFile* p = out.protected_by(st.st_dev, st.st_ino)) refuse(out, p->why);
  return AppendFile(std::move(fd), out.path());
}

void AppendFile::write(std::string_view text) { write_all(m_fd.get(), text.data(), text.size(), m_path); }

StreamedFile StreamedFile::create(const OutputPath& out) {
  check_destination(out);
  auto [fd, temp] = create_temporary(out.path(), 0644);
  return StreamedFile(std::move(fd), out, std::move(temp));
}

StreamedFile::StreamedFile(StreamedFile&& other) noexcept
    : m_fd(std::move(other.m_fd)),
      m_out(other.m_out),
      m_temp(std::exchange(other.m_temp, {})),
      m_offset(other.m_offset) {}

StreamedFile::~StreamedFile() {
  if (!m_temp.empty()) ::unlink(m_temp.c_str());
}

void StreamedFile::write(const void* data, size_t bytes) {
  write_all(m_fd.get(), data, bytes, m_temp.empty() ? m_out.path() : m_temp);
  m_offset += bytes;
}

void StreamedFile::sync() {
  if (::fsync(m_fd.get()) != 0) throw SystemError("cannot fsync " + m_out.string(), errno);
}

void StreamedFile::publish() {
  if (m_temp.empty()) return;
  sync();
  const fs::path temp = std::exchange(m_temp, {});
  install(temp, m_out);
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw SystemError("cannot read " + path.string(), errno != 0 ? errno : ENOENT);
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace ptsuite
