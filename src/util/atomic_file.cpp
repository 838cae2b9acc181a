#include <ptsuite/util/atomic_file.hpp>

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <fstream>
#include <sstream>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/fd.hpp>

namespace ptsuite {

namespace {

void write_all(int fd, std::string_view content, const std::string& name) {
  const char* p = content.data();
  size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw SystemError("cannot write " + name, errno);
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
}

}  // namespace

void write_file_atomic(const std::filesystem::path& path, std::string_view content) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    UniqueFd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (!fd.valid()) {
      throw SystemError("cannot create " + tmp.string(), errno);
    }
    try {
      write_all(fd.get(), content, tmp.string());
      if (::fsync(fd.get()) != 0) {
        throw SystemError("cannot fsync " + tmp.string(), errno);
      }
    } catch (const Error&) {
      ::unlink(tmp.c_str());  // a full filesystem leaves nothing behind
      throw;
    }
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw SystemError("cannot rename " + tmp.string() + " to " + path.string(), err);
  }
  // The rename is durable only once the directory entry is on stable storage.
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  UniqueFd dfd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dfd.valid()) {
    ::fsync(dfd.get());
  }
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw SystemError("cannot read " + path.string(), errno != 0 ? errno : ENOENT);
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace ptsuite
