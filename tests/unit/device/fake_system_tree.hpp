// Test helper: a fake /proc, /sys, /dev and /etc tree in a temporary directory, shaped like
// the kernel's (Documentation/ABI/stable/sysfs-block, proc(5)), for SystemRoots-based tests.
// Removed on destruction.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <ptsuite/device/safety.hpp>

namespace ptsuite::device::testing {

class FakeSystemTree {
 public:
  FakeSystemTree() {
    std::string templ = (std::filesystem::temp_directory_path() / "ptsuite-fake-sys-XXXXXX").string();
    if (::mkdtemp(templ.data()) == nullptr) {
      throw std::runtime_error("mkdtemp failed");
    }
    m_root = templ;
    for (const char* d :
         {"proc/self", "sys/dev/block", "sys/class/block", "sys/devices/virtual/block", "sys/fs", "dev", "etc"}) {
      std::filesystem::create_directories(m_root / d);
    }
    write("proc/self/mountinfo", "");
    write("proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
  }
  ~FakeSystemTree() {
    std::error_code ec;
    std::filesystem::remove_all(m_root, ec);
  }
  FakeSystemTree(const FakeSystemTree&) = delete;
  FakeSystemTree& operator=(const FakeSystemTree&) = delete;

  [[nodiscard]] SystemRoots roots() const {
    return SystemRoots{(m_root / "proc").string(), (m_root / "sys").string(), (m_root / "dev").string(),
                       (m_root / "etc").string()};
  }
  [[nodiscard]] const std::filesystem::path& root() const { return m_root; }

  void write(const std::string& rel, const std::string& content) const {
    const auto p = m_root / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << content;
  }
  void append(const std::string& rel, const std::string& content) const {
    std::ofstream(m_root / rel, std::ios::app) << content;
  }

  // A whole disk under sys/devices/<parent>/block/<name> with dev, size, queue/.
  std::filesystem::path add_disk(const std::string& name, unsigned major, unsigned minor,
                                 const std::string& parent = "virtual") const {
    const std::string rel = "sys/devices/" + parent + "/block/" + name;
    add_node(rel, name, major, minor);
    for (const char* d : {"holders", "slaves", "queue"}) {
      std::filesystem::create_directories(m_root / rel / d);
    }
    return m_root / rel;
  }
  // Partition N spans sectors [N x 2048, (N + 1) x 2048) of its disk (sysfs start and size, in
  // 512-byte sectors): partitions never overlap one another.
  std::filesystem::path add_partition(const std::string& disk_dir_rel_to_root, const std::string& name, unsigned major,
                                      unsigned minor, int number) const {
    const std::string rel = disk_dir_rel_to_root + "/" + name;
    add_node(rel, name, major, minor);
    write(rel + "/partition", std::to_string(number) + "\n");
    write(rel + "/start", std::to_string(number * 2048) + "\n");
    write(rel + "/size", "2048\n");
    for (const char* d : {"holders", "slaves"}) {
      std::filesystem::create_directories(m_root / rel / d);
    }
    return m_root / rel;
  }
  // Declares `holder` (itself a disk) as stacked on `lower`.
  void add_holder(const std::filesystem::path& lower_dir, const std::string& holder_name,
                  const std::filesystem::path& holder_dir, const std::string& lower_name) const {
    std::filesystem::create_directory_symlink(holder_dir, lower_dir / "holders" / holder_name);
    std::filesystem::create_directory_symlink(lower_dir, holder_dir / "slaves" / lower_name);
  }
  // A loop device over `backing_file` (a real file: the graph matches it by inode) presenting
  // `size_bytes` (a multiple of 512) from `offset_bytes` on (sysfs loop/backing_file, loop/offset,
  // size).
  std::filesystem::path add_loop(const std::string& name, unsigned minor, const std::string& backing_file,
                                 uint64_t offset_bytes, uint64_t size_bytes) const {
    const std::filesystem::path dir = add_disk(name, 7, minor);
    const std::string rel = std::filesystem::relative(dir, m_root).string();
    write(rel + "/loop/backing_file", backing_file + "\n");
    write(rel + "/loop/offset", std::to_string(offset_bytes) + "\n");
    write(rel + "/size", std::to_string(size_bytes / 512) + "\n");
    return dir;
  }
  void add_mount(unsigned major, unsigned minor, const std::string& mount_point, const std::string& source,
                 const std::string& fstype = "ext4") const {
    static int id = 20;
    append("proc/self/mountinfo", std::to_string(++id) + " 1 " + std::to_string(major) + ":" + std::to_string(minor) +
                                      " / " + mount_point + " rw,relatime shared:1 - " + fstype + " " + source +
                                      " rw\n");
  }
  void add_swap(const std::string& dev_path) const {
    append("proc/swaps", dev_path + "                               partition\t1048572\t\t0\t\t-2\n");
  }

 private:
  void add_node(const std::string& rel, const std::string& name, unsigned major, unsigned minor) const {
    const std::string devnum = std::to_string(major) + ":" + std::to_string(minor);
    write(rel + "/dev", devnum + "\n");
    std::filesystem::create_directory_symlink(m_root / rel, m_root / "sys/class/block" / name);
    std::filesystem::create_directory_symlink(m_root / rel, m_root / "sys/dev/block" / devnum);
  }

  std::filesystem::path m_root;
};

}  // namespace ptsuite::device::testing
