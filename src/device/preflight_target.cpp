// Target checks of the preflight: PCIe link, IO scheduler, other processes holding the
// target open, mounts on sibling NVMe namespaces, temperature at start.
#include <fmt/format.h>
#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <regex>
#include <set>

#include <ptsuite/device/openers.hpp>
#include <ptsuite/device/platform.hpp>

#include "device/preflight_checks.hpp"

namespace ptsuite::device::preflight_detail {

namespace {

namespace fs = std::filesystem;
using S = PreflightSeverity;

std::string width_text(const std::optional<uint32_t>& w) { return w ? fmt::format("x{}", *w) : "x?"; }

// The names a /proc/<pid>/fd link shows for the target.
std::set<std::string> target_link_names(const TargetView& t) {
  std::set<std::string> names;
  for (const sysfs::BlockNode& n : t.nodes) {
    names.insert("/dev/" + n.name);
  }
  if (!t.file_path.empty()) {
    names.insert(t.file_path);
  }
  return names;
}

}  // namespace

std::optional<double> parse_link_speed_gts(const std::string& text) {
  try {
    size_t used = 0;
    const double v = std::stod(text, &used);
    return used > 0 && v > 0 ? std::optional<double>(v) : std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

PreflightFinding check_pcie_link(const TargetView& t) {
  if (!t.disk) {
    return {"pcie_link", S::info, "not a block device: no PCIe link to check"};
  }
  const PlatformInfo p = capture_platform_for_kernel_name(t.disk->disk_name, t.inputs->roots);
  if (!p.pcie) {
    return {"pcie_link", S::info,
            fmt::format("{} has no PCIe link (virtual, loop, or behind a non-PCIe bus)", t.disk->disk_name)};
  }
  const PcieLink& l = *p.pcie;
  const auto cur = parse_link_speed_gts(l.current_speed);
  const auto max = parse_link_speed_gts(l.max_speed);
  const std::string now = fmt::format("{} {}", l.current_speed, width_text(l.current_width));
  const std::string best = fmt::format("{} {}", l.max_speed, width_text(l.max_width));
  if (!cur || !max || !l.current_width || !l.max_width) {
    return {"pcie_link", S::info,
            fmt::format("PCIe {} link state not fully readable (now {}, max {})", l.pci_address, now, best)};
  }
  if (*cur < *max || *l.current_width < *l.max_width) {
    return {"pcie_link", S::warning,
            fmt::format("PCIe {} trained at {}, the device supports {}: its bandwidth is capped; reseat it or use a "
                        "slot with the full width and speed",
                        l.pci_address, now, best)};
  }
  return {"pcie_link", S::info, fmt::format("PCIe {} at {} (the device's maximum)", l.pci_address, now)};
}

PreflightFinding check_io_scheduler(const TargetView& t) {
  if (!t.disk) {
    return {"io_scheduler", S::info, "not a block device: the file's filesystem schedules its IO"};
  }
  const PlatformInfo p = capture_platform_for_kernel_name(t.disk->disk_name, t.inputs->roots);
  if (p.io_scheduler.empty()) {
    return {"io_scheduler", S::info, fmt::format("{}: no IO scheduler information", t.disk->disk_name)};
  }
  if (p.io_scheduler == "none") {
    return {"io_scheduler", S::info, fmt::format("{}: none", t.disk->disk_name)};
  }
  return {"io_scheduler", S::warning,
          fmt::format("{} uses the {} IO scheduler: it merges and reorders IO, so the drive does not see the workload "
                      "as specified; set none (echo none > /sys/block/{}/queue/scheduler)",
                      t.disk->disk_name, p.io_scheduler, t.disk->disk_name)};
}

PreflightFinding check_other_openers(const TargetView& t) {
  OpenerQuery query;
  query.link_names = target_link_names(t);
  query.exclude_pid = static_cast<pid_t>(t.inputs->self_pid);
  const DeviceOpeners openers = find_openers(query, t.inputs->roots);
  const std::string what = t.disk ? "/dev/" + t.disk->name : t.file_path;
  if (!openers.processes.empty()) {
    std::string list;
    for (const DeviceOpener& p : openers.processes) {
      list += fmt::format("{}{} (pid {}) has {} open", list.empty() ? "" : "; ", p.command, p.pid, p.opened);
    }
    return {"other_openers", S::warning,
            fmt::format("{} other process(es) hold the target open: {}; their IO would mix with the test's: stop them",
                        openers.processes.size(), list)};
  }
  if (openers.unreadable > 0) {
    return {"other_openers", S::info,
            fmt::format("no other process has {} open among those visible; {} process(es) could not be inspected "
                        "(run as root to see all)",
                        what, openers.unreadable)};
  }
  return {"other_openers", S::info, fmt::format("no other process has {} open", what)};
}

PreflightFinding check_sibling_mounts(const TargetView& t) {
  static const std::regex k_namespace("nvme([0-9]+)n[0-9]+");
  std::smatch m;
  if (!t.disk || !std::regex_match(t.disk->disk_name, m, k_namespace)) {
    return {"sibling_mounts", S::info, "not an NVMe namespace: no sibling namespaces"};
  }
  const std::regex sibling_name("nvme" + m[1].str() + "n[0-9]+");
  const fs::path disk_dir = t.disk->is_partition ? t.disk->dir.parent_path() : t.disk->dir;
  const std::vector<sysfs::MountEntry> mounts = sysfs::read_mountinfo(t.inputs->roots);
  std::vector<std::string> found;
  size_t siblings = 0;
  for (const std::string& name : sysfs::list_dir(disk_dir.parent_path())) {
    if (name == t.disk->disk_name || !std::regex_match(name, sibling_name)) {
      continue;
    }
    const auto sibling = sysfs::node_by_name(name, t.inputs->roots);
    if (!sibling) {
      continue;
    }
    ++siblings;
    std::vector<sysfs::BlockNode> nodes = sysfs::partitions_of(*sibling, t.inputs->roots);
    nodes.push_back(*sibling);
    for (const sysfs::BlockNode& n : nodes) {
      for (const sysfs::MountEntry& e : mounts) {
        if (e.devnum == n.devnum) {
          found.push_back(fmt::format("{} on {} ({})", n.name, e.mount_point, e.fs_type));
        }
      }
    }
  }
  if (!found.empty()) {
    std::string list;
    for (const std::string& f : found) {
      list += (list.empty() ? "" : ", ") + f;
    }
    return {"sibling_mounts", S::warning,
            fmt::format("filesystems mounted on other namespaces of the same controller: {}; their IO shares the "
                        "controller with the test: unmount them or keep them idle",
                        list)};
  }
  return {"sibling_mounts", S::info,
          siblings == 0 ? "no other namespace on this controller"
                        : fmt::format("{} other namespace(s) on this controller, none mounted", siblings)};
}

PreflightFinding check_temperature(const std::optional<HealthSnapshot>& health) {
  if (!health || !health->temperature_celsius) {
    return {"temperature", S::info,
            health && !health->note.empty() ? "not reported: " + health->note : "not reported by the device"};
  }
  const double c = *health->temperature_celsius;
  if (health->critical_threshold_celsius && c >= *health->critical_threshold_celsius) {
    return {"temperature", S::error,
            fmt::format("{:.0f} °C at start, at or above the critical threshold {:.0f} °C: cool the drive first", c,
                        *health->critical_threshold_celsius)};
  }
  if (health->warning_threshold_celsius && c >= *health->warning_threshold_celsius) {
    return {"temperature", S::warning,
            fmt::format("{:.0f} °C at start, at or above the warning threshold {:.0f} °C: the drive will throttle; "
                        "improve its cooling",
                        c, *health->warning_threshold_celsius)};
  }
  if (health->critical_warning.value_or(0) != 0) {
    std::string flags;
    for (const std::string& f : health->critical_warning_flags) {
      flags += (flags.empty() ? "" : ", ") + f;
    }
    return {"temperature", S::warning,
            fmt::format("{:.0f} °C at start, but the drive reports critical warnings: {}", c,
                        flags.empty() ? fmt::format("0x{:02x}", *health->critical_warning) : flags)};
  }
  return {"temperature", S::info,
          health->warning_threshold_celsius
              ? fmt::format("{:.0f} °C at start (warning threshold {:.0f} °C)", c, *health->warning_threshold_celsius)
              : fmt::format("{:.0f} °C at start", c)};
}

}  // namespace ptsuite::device::preflight_detail
