// A cgroup that throttles one block device's IOPS for the processes in it (io_throttle.hpp).
#include "support/io_throttle.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace ptsuite::test_support {

namespace {

struct Mount {
  std::string path;
  std::string type;
  std::string options;
};

std::vector<Mount> mounts() {
  std::vector<Mount> out;
  std::ifstream in("/proc/self/mounts");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    Mount m;
    std::string device;
    fields >> device >> m.path >> m.type >> m.options;
    out.push_back(std::move(m));
  }
  return out;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Writes `text` in one write(2), as the cgroup files want; false with errno's text in `why`.
bool write_text(const std::string& path, const std::string& text, std::string& why) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) {
    why = path + ": " + std::strerror(errno);
    return false;
  }
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0;
  const int err = errno;
  std::fclose(f);
  if (!ok) why = path + " <- \"" + text + "\": " + std::strerror(err);
  return ok;
}

bool has_word(const std::string& list, const std::string& word) {
  std::istringstream in(list);
  std::string w;
  while (in >> w) {
    if (w == word) return true;
  }
  return false;
}

std::string dev_text(dev_t device) { return std::to_string(major(device)) + ":" + std::to_string(minor(device)); }

std::optional<std::string> make_group(const std::string& parent, const std::string& name, std::string& why) {
  const std::string dir = parent + "/" + name;
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    why = dir + ": " + std::strerror(errno);
    return std::nullopt;
  }
  return dir;
}

std::optional<std::string> try_v2(const std::string& name, dev_t device, uint32_t iops, std::string& why) {
  for (const Mount& m : mounts()) {
    if (m.type != "cgroup2") continue;
    if (!has_word(read_text(m.path + "/cgroup.controllers"), "io")) {
      why = "cgroup v2 at " + m.path + " offers no io controller";
      continue;
    }
    if (!has_word(read_text(m.path + "/cgroup.subtree_control"), "io") &&
        !write_text(m.path + "/cgroup.subtree_control", "+io", why)) {
      continue;
    }
    const std::optional<std::string> dir = make_group(m.path, name, why);
    if (!dir) continue;
    const std::string limit = dev_text(device) + " riops=" + std::to_string(iops) + " wiops=" + std::to_string(iops);
    if (write_text(*dir + "/io.max", limit, why)) return dir;
    ::rmdir(dir->c_str());
  }
  return std::nullopt;
}

std::optional<std::string> try_v1(const std::string& name, dev_t device, uint32_t iops, std::string& why) {
  for (const Mount& m : mounts()) {
    if (m.type != "cgroup" || m.options.find("blkio") == std::string::npos) continue;
    const std::optional<std::string> dir = make_group(m.path, name, why);
    if (!dir) continue;
    const std::string limit = dev_text(device) + " " + std::to_string(iops);
    if (write_text(*dir + "/blkio.throttle.read_iops_device", limit, why) &&
        write_text(*dir + "/blkio.throttle.write_iops_device", limit, why)) {
      return dir;
    }
    ::rmdir(dir->c_str());
  }
  return std::nullopt;
}

}  // namespace

std::optional<IoThrottle> IoThrottle::create(const std::string& name, dev_t device, uint32_t iops,
                                             std::string& why_not) {
  if (::geteuid() != 0) {
    why_not = "not root: cgroups cannot be made";
    return std::nullopt;
  }
  const std::string unique = name + "-" + std::to_string(::getpid());
  std::string why_v2;
  if (std::optional<std::string> dir = try_v2(unique, device, iops, why_v2)) {
    return IoThrottle(*dir, "cgroup v2 io.max");
  }
  std::string why_v1;
  if (std::optional<std::string> dir = try_v1(unique, device, iops, why_v1)) {
    return IoThrottle(*dir, "cgroup v1 blkio.throttle");
  }
  why_not = "no IO throttling cgroup here (v2: " + (why_v2.empty() ? "no cgroup2 mount" : why_v2) +
            "; v1: " + (why_v1.empty() ? "no blkio hierarchy" : why_v1) + ")";
  return std::nullopt;
}

IoThrottle::IoThrottle(IoThrottle&& other) noexcept
    : m_directory(std::move(other.m_directory)), m_mechanism(std::move(other.m_mechanism)) {
  other.m_directory.clear();
}

IoThrottle::~IoThrottle() {
  if (!m_directory.empty()) ::rmdir(m_directory.c_str());
}

}  // namespace ptsuite::test_support
