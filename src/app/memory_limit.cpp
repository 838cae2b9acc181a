// The servers' memory cgroup: v2, v1, or a private v2 mount (app/memory_limit.hpp).
#include <ptsuite/app/memory_limit.hpp>

#include <fmt/format.h>
#include <sys/mount.h>
#include <unistd.h>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ptsuite::app {

namespace {

namespace fs = std::filesystem;

bool write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  out.flush();
  return static_cast<bool>(out);
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Mount points of a filesystem type from /proc/self/mountinfo (field 5 the mount point, the
// type after " - ").
std::vector<std::string> mounts_of(const std::string& type, const std::string& option = "") {
  std::vector<std::string> out;
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    const size_t dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream after(line.substr(dash + 3));
    std::string fstype, source, options;
    after >> fstype >> source >> options;
    if (fstype != type) continue;
    if (!option.empty() && ("," + options + ",").find("," + option + ",") == std::string::npos) continue;
    std::istringstream before(line.substr(0, dash));
    std::string f[5];
    for (std::string& x : f) before >> x;
    out.push_back(f[4]);
  }
  return out;
}

// A v2 group under `root` with memory.max = limit; "" and `why` when it cannot be made.
std::string make_v2(const fs::path& root, const std::string& name, uint64_t limit, std::string& why) {
  if (read_text(root / "cgroup.controllers").find("memory") == std::string::npos) {
    why = "cgroup2 at " + root.string() + " has no memory controller";
    return "";
  }
  if (read_text(root / "cgroup.subtree_control").find("memory") == std::string::npos &&
      !write_text(root / "cgroup.subtree_control", "+memory")) {
    why = "cannot enable the memory controller in " + root.string();
    return "";
  }
  const fs::path dir = root / name;
  std::error_code ec;
  fs::create_directory(dir, ec);
  if (ec || !write_text(dir / "memory.max", std::to_string(limit))) {
    why = fmt::format("cannot create {} with memory.max: {}", dir.string(), ec ? ec.message() : std::strerror(errno));
    fs::remove(dir, ec);
    return "";
  }
  write_text(dir / "memory.swap.max", "0");  // absent without swap accounting: fine
  return dir.string();
}

std::string make_v1(const fs::path& root, const std::string& name, uint64_t limit, std::string& why) {
  const fs::path dir = root / name;
  std::error_code ec;
  fs::create_directory(dir, ec);
  if (ec || !write_text(dir / "memory.limit_in_bytes", std::to_string(limit))) {
    why = fmt::format("cannot create {} with memory.limit_in_bytes", dir.string());
    fs::remove(dir, ec);
    return "";
  }
  return dir.string();
}

}  // namespace

MemoryLimit MemoryLimit::create(const std::string& name, uint64_t limit_bytes, const std::string& state_dir) {
  MemoryLimit m;
  std::string why_v2 = "no cgroup2 hierarchy mounted";
  for (const std::string& root : mounts_of("cgroup2")) {
    m.m_directory = make_v2(root, name, limit_bytes, why_v2);
    if (!m.m_directory.empty()) {
      m.m_mechanism = "cgroup2 memory.max";
      return m;
    }
  }
  std::string why_v1 = "no cgroup v1 memory hierarchy mounted";
  for (const std::string& root : mounts_of("cgroup", "memory")) {
    m.m_directory = make_v1(root, name, limit_bytes, why_v1);
    if (!m.m_directory.empty()) {
      m.m_mechanism = "cgroup1 memory.limit_in_bytes";
      return m;
    }
  }
  // Nothing mounted (minimal systems): a private cgroup2 mount of our own.
  const fs::path mount_point = fs::path(state_dir) / "cgroup2";
  std::error_code ec;
  fs::create_directories(mount_point, ec);
  if (!ec && ::mount("none", mount_point.c_str(), "cgroup2", 0, nullptr) == 0) {
    m.m_directory = make_v2(mount_point, name, limit_bytes, why_v2);
    if (!m.m_directory.empty()) {
      m.m_mechanism = "cgroup2 memory.max (private mount)";
      m.m_private_mount = mount_point.string();
      return m;
    }
    ::umount(mount_point.c_str());
  }
  m.m_mechanism = fmt::format("none: {}; {}", why_v2, why_v1);
  return m;
}

MemoryLimit MemoryLimit::existing(const std::string& directory, const std::string& private_mount) {
  MemoryLimit m;
  m.m_directory = directory;
  m.m_private_mount = private_mount;
  m.m_mechanism = "existing";
  return m;
}

std::string MemoryLimit::procs_path() const { return active() ? m_directory + "/cgroup.procs" : ""; }

std::vector<int> MemoryLimit::pids() const {
  std::vector<int> out;
  if (!active()) return out;
  std::ifstream in(procs_path());
  int pid = 0;
  while (in >> pid) out.push_back(pid);
  return out;
}

uint64_t MemoryLimit::peak_bytes() const {
  if (!active()) return 0;
  for (const char* file : {"memory.peak", "memory.max_usage_in_bytes"}) {
    const std::string text = read_text(fs::path(m_directory) / file);
    if (!text.empty()) return std::strtoull(text.c_str(), nullptr, 10);
  }
  return 0;
}

void MemoryLimit::kill_all(int signum) const {
  for (const int pid : pids()) ::kill(pid, signum);
}

void unmount_private_cgroup(const std::string& mount_point) {
  if (mount_point.empty()) return;
  ::umount(mount_point.c_str());
  std::error_code ec;
  fs::remove(mount_point, ec);
}

bool MemoryLimit::remove() {
  if (!active()) return true;
  std::error_code ec;
  if (fs::exists(m_directory, ec) && ::rmdir(m_directory.c_str()) != 0) return false;
  m_directory.clear();
  return true;
}

}  // namespace ptsuite::app
