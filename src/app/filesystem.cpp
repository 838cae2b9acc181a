// mkfs, mount and unmount of the run's filesystem (app/filesystem.hpp).
#include <ptsuite/app/filesystem.hpp>

#include <fmt/format.h>
#include <sys/mount.h>
#include <unistd.h>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include <ptsuite/app/process.hpp>
#include <ptsuite/util/command_line.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::app {

namespace {

constexpr uint64_t k_mkfs_timeout_ns = 600'000'000'000ULL;  // 10 min: large drives, slow VMs

std::vector<std::string> mkfs_argv(const FilesystemSpec& spec, const std::string& device) {
  if (spec.type == "ext4") {
    return {"/usr/sbin/mkfs.ext4", "-F", "-q", "-E", "lazy_itable_init=0,lazy_journal_init=0,nodiscard", device};
  }
  if (spec.type == "xfs") return {"/usr/sbin/mkfs.xfs", "-f", "-q", "-K", device};
  throw UsageError("filesystem", fmt::format("\"{}\" is not a filesystem ptsuite makes: ext4 or xfs", spec.type));
}

}  // namespace

std::string mkfs_command_line(const FilesystemSpec& spec, const std::string& device) {
  return join_command_line(mkfs_argv(spec, device));
}

std::string make_filesystem(const FilesystemSpec& spec, const std::string& device, const std::atomic<bool>* stop) {
  ProcessSpec p;
  p.argv = mkfs_argv(spec, device);
  if (::access(p.argv[0].c_str(), X_OK) != 0) {
    throw SystemError(
        fmt::format("{} is missing: apt-get install {}", p.argv[0], spec.type == "xfs" ? "xfsprogs" : "e2fsprogs"));
  }
  run_checked(p, k_mkfs_timeout_ns, stop);
  return mkfs_command_line(spec, device);
}

void mount_filesystem(const FilesystemSpec& spec, const std::string& device, const std::string& mount_point) {
  std::error_code ec;
  std::filesystem::create_directories(mount_point, ec);
  if (::mount(device.c_str(), mount_point.c_str(), spec.type.c_str(), MS_NOATIME, nullptr) != 0) {
    throw SystemError(fmt::format("mounting {} ({}) on {}", device, spec.type, mount_point), errno);
  }
}

bool is_mount_point(const std::string& path) {
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    // Field 5 is the mount point (spaces escaped as \040; ours have none).
    size_t pos = 0;
    for (int field = 0; field < 4 && pos != std::string::npos; ++field) pos = line.find(' ', pos + 1);
    if (pos == std::string::npos) continue;
    const size_t end = line.find(' ', pos + 1);
    if (line.substr(pos + 1, end - pos - 1) == path) return true;
  }
  return false;
}

std::string unmount_filesystem(const std::string& mount_point, unsigned timeout_ms) {
  if (!is_mount_point(mount_point)) return "";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (::umount(mount_point.c_str()) != 0) {
    if (errno != EBUSY || std::chrono::steady_clock::now() >= deadline) {
      const int err = errno;
      if (::umount2(mount_point.c_str(), MNT_DETACH) == 0) {
        return fmt::format(
            "{} was busy ({}): detached lazily; the kernel finishes the unmount when its last user "
            "closes it",
            mount_point, std::strerror(err));
      }
      throw SystemError(fmt::format("unmounting {}", mount_point), errno);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return "";
}

}  // namespace ptsuite::app
