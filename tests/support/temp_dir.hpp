// Contract: scratch directories for tests, in RAM (/dev/shm) so that tests never touch the
// machine's disk. Shared by every module's tests.
//
//   ShmTempDir dir;                                   // /dev/shm/ptsuite-test-XXXXXX
//   std::string f = dir.create_file("disk.img", 8 << 20);   // sparse, reads as zeros
//
// The destructor removes the directory and everything in it, also when an assertion failed or
// an exception unwinds (declare it before anything that uses files inside it, so it goes last).
// Construction failure throws std::runtime_error (the test then fails, it does not skip).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ptsuite::test_support {

class ShmTempDir {
 public:
  explicit ShmTempDir(std::string_view prefix = "ptsuite-test");
  ~ShmTempDir();
  ShmTempDir(const ShmTempDir&) = delete;
  ShmTempDir& operator=(const ShmTempDir&) = delete;

  [[nodiscard]] const std::string& path() const noexcept { return m_path; }
  // "<path>/<name>"
  [[nodiscard]] std::string file(std::string_view name) const;
  // Creates (or truncates) <path>/<name> with size_bytes of zeros (sparse); returns its path.
  std::string create_file(std::string_view name, uint64_t size_bytes) const;

 private:
  std::string m_path;
};

}  // namespace ptsuite::test_support
