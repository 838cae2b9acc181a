// Contract: THE writer of every file ptsuite writes - outputs named on the command line
// (--out, --json, --html, report --out, exports, captures, keys), the files of a run directory
// (results.json, journal, run.log, reports, manifest, signature) and ptsuite's own temporary
// and state files. No other code in src/ opens a file for writing (.ci/check-writes, ctest
// lint.writes, fails the build's tests on one), and every writer here takes a token:
//
//   * OutputPath / OutputDir for a path a user named are made only by the output gate
//     (device/output_gate.hpp), which refused device nodes and special files, the storage
//     relation set of the command's targets (loop backing files, swap files, the targets),
//     files another ptsuite holds, the command's own inputs and its other outputs;
//   * OutputDir::file() / subdir() for the files of a directory the gate let through;
//   * PrivateDir for a NEW directory this process creates itself (mkdtemp): nothing of the
//     user's can be in it.
//
// Every write re-checks its destination just before it happens (the gate's check may be
// minutes old): a destination that exists must be a regular file that no token protects - a
// symbolic link, a directory, a device node, a FIFO or a socket is refused (SafetyRefusal,
// exit 3, nothing written) and never renamed over. Files are replaced atomically: a new file
// with a unique name in the same directory (O_CREAT|O_EXCL|O_NOFOLLOW, so no existing name is
// ever opened), fsync, then renameat2(RENAME_EXCHANGE) with the destination and a last look
// at what was exchanged out (a non-regular file that appeared since is put back and refused),
// or RENAME_NOREPLACE when there was none; the directory is fsynced. After a crash the
// destination holds the old or the new content, never a mix, and no temporary is left
// behind by a failed write (ENOSPC included). Filesystems without renameat2 flags (EINVAL)
// fall back to lstat + rename.
//
// Errors: SafetyRefusal (exit 3) for a refused destination; SystemError (exit 5) for IO.
// Thread-safety: tokens are immutable values (copyable); writers may run concurrently on
// different destinations.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <ptsuite/util/fd.hpp>

namespace ptsuite {

namespace device {
class GateIssuer;  // the output and target gates' token maker (src/device/gate_issuer.hpp)
}  // namespace device

// A regular file no write may land on, and why ("loop1 is a loop device over it").
struct ProtectedFile {
  dev_t dev = 0;
  ino_t ino = 0;
  std::string why;
};
using ProtectedFiles = std::vector<ProtectedFile>;

class OutputPath {
 public:
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return m_path; }
  [[nodiscard]] std::string string() const { return m_path.string(); }
  // What names it in errors: the option ("--json") or, inside a directory, "--out".
  [[nodiscard]] const std::string& option() const noexcept { return m_option; }
  // The protection of this inode, or nullptr.
  [[nodiscard]] const ProtectedFile* protected_by(dev_t dev, ino_t ino) const noexcept;

 private:
  friend class device::GateIssuer;
  friend class OutputDir;
  OutputPath(std::filesystem::path path, std::string option, std::shared_ptr<const ProtectedFiles> protect)
      : m_path(std::move(path)), m_option(std::move(option)), m_protect(std::move(protect)) {}

  std::filesystem::path m_path;
  std::string m_option;
  std::shared_ptr<const ProtectedFiles> m_protect;
};

class OutputDir {
 public:
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return m_path; }
  [[nodiscard]] std::string string() const { return m_path.string(); }
  [[nodiscard]] const std::string& option() const noexcept { return m_option; }

  // Creates the directory and any missing parent (mode 0755); each must end up a real
  // directory, not a symbolic link. Idempotent.
  void create() const;
  // A file in it: `name` is a relative path of plain components ("results.json",
  // "journal/steps/00000001.json"; no "..", not absolute), else std::invalid_argument.
  [[nodiscard]] OutputPath file(const std::string& name) const;
  // A directory in it, same rule for `name` (not created until create()).
  [[nodiscard]] OutputDir subdir(const std::string& name) const;

 private:
  friend class device::GateIssuer;
  friend class PrivateDir;
  OutputDir(std::filesystem::path path, std::string option, std::shared_ptr<const ProtectedFiles> protect)
      : m_path(std::move(path)), m_option(std::move(option)), m_protect(std::move(protect)) {}

  std::filesystem::path m_path;
  std::string m_option;
  std::shared_ptr<const ProtectedFiles> m_protect;
};

// A new directory this process made (mkdtemp "<parent>/<prefix>XXXXXX", mode 0700), removed
// with everything in it when the owner goes (unless keep() was called). Move-only.
class PrivateDir {
 public:
  static PrivateDir create(const std::filesystem::path& parent, const std::string& prefix);
  // The same with a name of the caller's (a random run ID): mkdir(parent/name, mode) after
  // creating `parent`; the name must not exist yet (EEXIST is SystemError), so the directory
  // is this process's own. Kept (not removed by the owner): the caller removes it.
  static PrivateDir create_named(const std::filesystem::path& parent, const std::string& name, mode_t mode);
  PrivateDir(PrivateDir&& other) noexcept;
  PrivateDir& operator=(PrivateDir&& other) noexcept;
  PrivateDir(const PrivateDir&) = delete;
  PrivateDir& operator=(const PrivateDir&) = delete;
  ~PrivateDir();

  [[nodiscard]] const OutputDir& dir() const noexcept { return m_dir; }
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return m_dir.path(); }
  void keep() noexcept { m_keep = true; }

 private:
  explicit PrivateDir(OutputDir dir) : m_dir(std::move(dir)) {}
  OutputDir m_dir;
  bool m_keep = false;
};

// Refuses a destination that exists and is not a regular file, or is protected (throws
// SafetyRefusal naming out.option()). The writers below call it; gates call it early.
void check_destination(const OutputPath& out);

// Replaces (or creates) the file atomically with `content`.
void write_file_atomic(const OutputPath& out, std::string_view content, mode_t mode = 0644);
// Creates the file, which must not exist (O_EXCL: a key is never overwritten); fsynced.
void write_new_file(const OutputPath& out, std::string_view content, mode_t mode);
// Moves `from` (a file this process wrote) over `to`, atomically as write_file_atomic does.
void move_file(const OutputPath& from, const OutputPath& to);

// A file written as it grows, appended to (run.log, an application's server log): opened
// O_WRONLY|O_APPEND|O_CREAT|O_NOFOLLOW after check_destination(), and checked again on the
// opened file (it must be the regular file checked). Writes are unbuffered and whole.
class AppendFile {
 public:
  static AppendFile open(const OutputPath& out);
  void write(std::string_view text);
  [[nodiscard]] int fd() const noexcept { return m_fd.get(); }
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return m_path; }

 private:
  AppendFile(UniqueFd fd, std::filesystem::path path) : m_fd(std::move(fd)), m_path(std::move(path)) {}
  UniqueFd m_fd;
  std::filesystem::path m_path;
};

// A new file written as it grows (a capture): created under a unique temporary name beside
// `out`, published under its own name by publish() (the same atomic replacement as
// write_file_atomic, once), then appended to. Unpublished, it is removed when the owner goes.
class StreamedFile {
 public:
  static StreamedFile create(const OutputPath& out);
  StreamedFile(StreamedFile&& other) noexcept;
  StreamedFile& operator=(StreamedFile&& other) = delete;
  StreamedFile(const StreamedFile&) = delete;
  StreamedFile& operator=(const StreamedFile&) = delete;
  ~StreamedFile();

  void write(const void* data, size_t bytes);
  void publish();
  // fsync; throws SystemError.
  void sync();
  [[nodiscard]] int fd() const noexcept { return m_fd.get(); }
  [[nodiscard]] uint64_t offset() const noexcept { return m_offset; }

 private:
  StreamedFile(UniqueFd fd, OutputPath out, std::filesystem::path temp)
      : m_fd(std::move(fd)), m_out(std::move(out)), m_temp(std::move(temp)) {}
  UniqueFd m_fd;
  OutputPath m_out;
  std::filesystem::path m_temp;  // empty once published
  uint64_t m_offset = 0;
};

// The whole file (a regular file or anything readable); throws SystemError when unreadable.
std::string read_file(const std::filesystem::path& path);

}  // namespace ptsuite
