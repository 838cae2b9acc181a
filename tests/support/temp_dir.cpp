#include "support/temp_dir.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <ptsuite/util/fd.hpp>

namespace ptsuite::test_support {

ShmTempDir::ShmTempDir(std::string_view prefix) {
  std::string pattern = "/dev/shm/" + std::string(prefix) + "-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("mkdtemp(" + pattern + "): " + std::strerror(errno));
  }
  m_path = pattern;
}

ShmTempDir::~ShmTempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(m_path, ignored);
}

std::string ShmTempDir::file(std::string_view name) const { return m_path + "/" + std::string(name); }

std::string ShmTempDir::create_file(std::string_view name, uint64_t size_bytes) const {
  const std::string path = file(name);
  const UniqueFd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
  if (!fd.valid() || ::ftruncate(fd.get(), static_cast<off_t>(size_bytes)) != 0) {
    throw std::runtime_error("creating " + path + ": " + std::strerror(errno));
  }
  return path;
}

}  // namespace ptsuite::test_support
