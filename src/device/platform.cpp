#include <ptsuite/device/platform.hpp>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include <ptsuite/results/record_writers.hpp>
#include <ptsuite/util/version.hpp>
#include "device/sysfs.hpp"

namespace ptsuite::device {

namespace {

namespace fs = std::filesystem;

void read_cpu(const SystemRoots& roots, PlatformInfo& p) {
  std::ifstream in(fs::path(roots.proc) / "cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    if (key == "processor") ++p.cpu_count;
    if (key == "model name" && p.cpu_model.empty()) p.cpu_model = value;
  }
}

void read_memory(const SystemRoots& roots, PlatformInfo& p) {
  std::ifstream in(fs::path(roots.proc) / "meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib) {
    std::getline(in, unit);
    if (key == "MemTotal:") {
      p.memory_bytes = kib * 1024;
      return;
    }
  }
}

std::string os_release_pretty_name(const SystemRoots& roots) {
  for (const auto& candidate :
       {fs::path(roots.etc) / "os-release", fs::path(roots.etc) / ".." / "usr/lib/os-release"}) {
    std::ifstream in(candidate);
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("PRETTY_NAME=", 0) == 0) {
        std::string v = line.substr(12);
        if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'')) v = v.substr(1, v.size() - 2);
        return v;
      }
    }
  }
  return {};
}

void read_device(const sysfs::BlockNode& node, const SystemRoots& roots, PlatformInfo& p) {
  const fs::path disk_dir = node.is_partition ? node.dir.parent_path() : node.dir;
  p.device = node.disk_name;
  const auto sched = sysfs::read_attr(disk_dir / "queue" / "scheduler").value_or("");
  const auto open = sched.find('['), close = sched.find(']');
  p.io_scheduler =
      (open != std::string::npos && close != std::string::npos) ? sched.substr(open + 1, close - open - 1) : sched;
  // Walk up from the device directory to the nearest directory with a PCIe link.
  static const std::regex k_bdf("[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");
  for (fs::path dir = disk_dir; !dir.empty() && dir != dir.root_path() && dir.string().size() > roots.sys.size();
       dir = dir.parent_path()) {
    const std::string name = dir.filename().string();
    if (!std::regex_match(name, k_bdf)) continue;
    if (!p.numa_node) {
      if (const auto numa = sysfs::read_attr(dir / "numa_node")) {
        try {
          p.numa_node = std::stoi(*numa);
        } catch (const std::exception&) {
        }
      }
    }
    const auto speed = sysfs::read_attr(dir / "current_link_speed");
    if (!speed) continue;
    PcieLink link;
    link.pci_address = name;
    link.current_speed = *speed;
    link.max_speed = sysfs::read_attr(dir / "max_link_speed").value_or("");
    auto width = [&](const char* attr) -> std::optional<uint32_t> {
      const auto text = sysfs::read_attr(dir / attr);
      if (!text || text->empty()) return std::nullopt;
      try {
        return static_cast<uint32_t>(std::stoul(*text));
      } catch (const std::exception&) {
        return std::nullopt;
      }
    };
    link.current_width = width("current_link_width");
    link.max_width = width("max_link_width");
    p.pcie = link;
    break;
  }
}

PlatformInfo capture_host(const SystemRoots& roots) {
  PlatformInfo p;
  read_cpu(roots, p);
  read_memory(roots, p);
  p.kernel_release = sysfs::read_attr(fs::path(roots.proc) / "sys/kernel/osrelease").value_or("");
  p.kernel_version = sysfs::read_attr(fs::path(roots.proc) / "sys/kernel/version").value_or("");
  utsname u{};
  if (::uname(&u) == 0) p.machine = u.machine;
  p.distribution = os_release_pretty_name(roots);
  p.ptsuite_version = std::string(version());
  p.ptsuite_git_revision = std::string(git_revision());
  return p;
}

}  // namespace

PlatformInfo capture_platform_for_kernel_name(const std::string& kernel_name, const SystemRoots& roots) {
  PlatformInfo p = capture_host(roots);
  if (const auto node = sysfs::node_by_name(kernel_name, roots)) read_device(*node, roots, p);
  return p;
}

PlatformInfo capture_platform(const std::string& device_path, const SystemRoots& roots) {
  PlatformInfo p = capture_host(roots);
  struct stat st {};
  if (!device_path.empty() && ::stat(device_path.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) {
    if (const auto node = sysfs::node_by_devnum({::major(st.st_rdev), ::minor(st.st_rdev)}, roots)) {
      read_device(*node, roots, p);
    }
  }
  return p;
}

results::PlatformRecord platform_record(const PlatformInfo& p) {
  results::PlatformRecord r;
  r.cpu_model = p.cpu_model;
  r.cpu_count = p.cpu_count;
  r.memory_bytes = p.memory_bytes;
  r.kernel_release = p.kernel_release;
  r.kernel_version = p.kernel_version;
  r.machine = p.machine;
  r.distribution = p.distribution;
  r.ptsuite_version = p.ptsuite_version;
  r.ptsuite_git_revision = p.ptsuite_git_revision;
  r.device = p.device;
  if (p.pcie) {
    r.pcie = results::PcieLink{p.pcie->pci_address, p.pcie->current_speed, p.pcie->max_speed, p.pcie->current_width,
                               p.pcie->max_width};
  }
  r.io_scheduler = p.io_scheduler;
  r.numa_node = p.numa_node;
  return r;
}

void to_json(nlohmann::json& j, const PlatformInfo& p) { results::to_json(j, platform_record(p)); }

}  // namespace ptsuite::device
