// Test helpers for the device-layer integration tests: RAII loop devices over /dev/shm files
// (LOOP_CTL_GET_FREE + LOOP_CONFIGURE, optional LO_FLAGS_PARTSCAN), partitions added with
// BLKPG (this kernel has no partition-table parsers, so the MBR written is for realism only),
// read-only mounts and swap — every one undone in its destructor, in reverse order. Tests
// skip (GTEST_SKIP) when not root or without loop devices. Parallel-safe: each object uses
// its own file names and retries when another process grabs the same free loop device.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/blkpg.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "support/loop_support.hpp"

namespace ptsuite::device::testing {

// Why loop-device tests cannot run here, or empty.
inline std::string loop_skip_reason() {
  if (::geteuid() != 0) return "needs root for loop devices";
  if (::access("/dev/loop-control", R_OK | W_OK) != 0) return "no /dev/loop-control";
  return {};
}

inline std::string unique_name(const std::string& stem) {
  static int counter = 0;
  return stem + "-" + std::to_string(::getpid()) + "-" + std::to_string(++counter);
}

// FNV-1a over a whole file: equal before and after = not a byte changed.
inline uint64_t file_checksum(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  uint64_t h = 1469598103934665603ULL;
  std::array<char, 1 << 16> buf{};
  while (in.read(buf.data(), buf.size()) || in.gcount() > 0) {
    for (std::streamsize i = 0; i < in.gcount(); ++i) {
      h = (h ^ static_cast<uint8_t>(buf[static_cast<size_t>(i)])) * 1099511628211ULL;
    }
  }
  return h;
}

inline bool file_is_all(const std::string& path, uint8_t value) {
  std::ifstream in(path, std::ios::binary);
  std::array<char, 1 << 16> buf{};
  while (in.read(buf.data(), buf.size()) || in.gcount() > 0) {
    for (std::streamsize i = 0; i < in.gcount(); ++i) {
      if (static_cast<uint8_t>(buf[static_cast<size_t>(i)]) != value) return false;
    }
  }
  return true;
}

inline int run_command(const std::string& cmd) { return std::system((cmd + " >/dev/null 2>&1").c_str()); }

class LoopDevice {
 public:
  // A `size_bytes` file in /dev/shm filled with `fill`, attached to a free loop device.
  LoopDevice(uint64_t size_bytes, bool partscan, uint8_t fill = 0xab)
      : m_backing("/dev/shm/" + unique_name("ptsuite-devtest") + ".img") {
    {
      std::ofstream out(m_backing, std::ios::binary);
      const std::vector<char> chunk(1 << 20, static_cast<char>(fill));
      for (uint64_t done = 0; done < size_bytes; done += chunk.size()) {
        out.write(chunk.data(), static_cast<std::streamsize>(std::min<uint64_t>(chunk.size(), size_bytes - done)));
      }
    }
    const int backing = ::open(m_backing.c_str(), O_RDWR | O_CLOEXEC);
    const int control = ::open("/dev/loop-control", O_RDWR | O_CLOEXEC);
    for (int attempt = 0; attempt < 20 && m_path.empty() && backing >= 0 && control >= 0; ++attempt) {
      const int n = ::ioctl(control, LOOP_CTL_GET_FREE);
      if (n < 0) break;
      const std::string path = "/dev/loop" + std::to_string(n);
      const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
      if (fd < 0) continue;
      loop_config config{};
      config.fd = static_cast<uint32_t>(backing);
      config.info.lo_flags = partscan ? LO_FLAGS_PARTSCAN : 0;
      if (::ioctl(fd, LOOP_CONFIGURE, &config) == 0) {
        m_path = path;
        m_fd = fd;
      } else {
        ::close(fd);  // EBUSY: another process took it; try the next free one
      }
    }
    if (backing >= 0) ::close(backing);
    if (control >= 0) ::close(control);
    if (!m_path.empty()) test_support::settle_udev();  // udevd's probe holds the device open
  }
  ~LoopDevice() {
    if (m_fd >= 0) {
      for (int attempt = 0; attempt < 50 && ::ioctl(m_fd, LOOP_CLR_FD, 0) != 0 && errno == EBUSY; ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      ::close(m_fd);
    }
    std::error_code ec;
    std::filesystem::remove(m_backing, ec);
  }
  LoopDevice(const LoopDevice&) = delete;
  LoopDevice& operator=(const LoopDevice&) = delete;

  [[nodiscard]] bool ok() const { return !m_path.empty(); }
  [[nodiscard]] const std::string& path() const { return m_path; }
  [[nodiscard]] const std::string& backing() const { return m_backing; }
  [[nodiscard]] std::string name() const { return m_path.substr(5); }
  [[nodiscard]] int fd() const { return m_fd; }

  // Adds partition 1 at [start, start+length) with BLKPG and waits for its device node.
  // Also writes a one-entry MBR (type 83h) describing it.
  bool add_partition(uint64_t start_bytes, uint64_t length_bytes) {
    std::array<uint8_t, 512> mbr{};
    const uint32_t lba = static_cast<uint32_t>(start_bytes / 512), count = static_cast<uint32_t>(length_bytes / 512);
    mbr[446 + 4] = 0x83;
    for (int i = 0; i < 4; ++i) {
      mbr[446 + 8 + i] = static_cast<uint8_t>(lba >> (8 * i));
      mbr[446 + 12 + i] = static_cast<uint8_t>(count >> (8 * i));
    }
    mbr[510] = 0x55;
    mbr[511] = 0xaa;
    if (::pwrite(m_fd, mbr.data(), mbr.size(), 0) != static_cast<ssize_t>(mbr.size())) return false;
    ::fsync(m_fd);
    blkpg_partition part{};
    part.start = static_cast<long long>(start_bytes);
    part.length = static_cast<long long>(length_bytes);
    part.pno = 1;
    blkpg_ioctl_arg arg{};
    arg.op = BLKPG_ADD_PARTITION;
    arg.datalen = sizeof(part);
    arg.data = &part;
    if (::ioctl(m_fd, BLKPG, &arg) != 0) return false;
    for (int i = 0; i < 100; ++i) {
      struct stat st {};
      if (::stat(partition_path().c_str(), &st) == 0 && S_ISBLK(st.st_mode)) {
        test_support::settle_udev();
        return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }
  [[nodiscard]] std::string partition_path() const { return m_path + "p1"; }

 private:
  std::string m_backing;
  std::string m_path;
  int m_fd = -1;
};

class TempDir {
 public:
  TempDir() {
    std::string templ = "/tmp/ptsuite-devtest-XXXXXX";
    if (::mkdtemp(templ.data()) != nullptr) m_path = templ;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
  }
  [[nodiscard]] const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

// mkfs.ext4 + a READ-ONLY mount (so the filesystem itself writes nothing while mounted).
class ReadOnlyMount {
 public:
  ReadOnlyMount(const std::string& device, const std::string& dir) : m_dir(dir) {
    if (run_command("mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 " + device) != 0) return;
    if (::mount(device.c_str(), dir.c_str(), "ext4", MS_RDONLY, nullptr) == 0) m_mounted = true;
  }
  ~ReadOnlyMount() {
    if (m_mounted && ::umount2(m_dir.c_str(), 0) != 0) ::umount2(m_dir.c_str(), MNT_DETACH);
  }
  [[nodiscard]] bool ok() const { return m_mounted; }

 private:
  std::string m_dir;
  bool m_mounted = false;
};

class ActiveSwap {
 public:
  explicit ActiveSwap(const std::string& device) : m_device(device) {
    if (run_command("mkswap " + device) != 0) return;
    if (::swapon(device.c_str(), 0) == 0) m_on = true;
  }
  ~ActiveSwap() {
    if (m_on) ::swapoff(m_device.c_str());
  }
  [[nodiscard]] bool ok() const { return m_on; }

 private:
  std::string m_device;
  bool m_on = false;
};

// Runs the built ptsuite binary; returns the exit code and stderr.
struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
inline CliResult run_ptsuite(const std::string& args) {
  const std::string err_file = "/tmp/" + unique_name("ptsuite-devtest-stderr");
  const std::string cmd = std::string(PTSUITE_BINARY) + " " + args + " 2>" + err_file;
  CliResult r;
  if (FILE* pipe = ::popen(cmd.c_str(), "r")) {
    std::array<char, 4096> buf{};
    size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
    const int status = ::pclose(pipe);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::ifstream in(err_file);
  r.err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  std::filesystem::remove(err_file);
  return r;
}

}  // namespace ptsuite::device::testing
