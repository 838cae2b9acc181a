// Contract: the test platform, for the report's Test Platform column (PTS report header):
// CPU model and count, memory, kernel, distribution, ptsuite version and git revision, and
// for the device under test its PCIe link (current/max speed and width of the nearest PCI
// function above the block device in sysfs), IO scheduler and NUMA node.
//
// capture_platform() only reads /proc, /sys and /etc (rooted at SystemRoots for tests) and
// uname(2); it never opens the device and never throws: what cannot be read stays empty/null.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include <ptsuite/device/safety.hpp>
#include <ptsuite/results/run_header.hpp>

namespace ptsuite::device {

struct PcieLink {
  std::string pci_address;               // "0000:3d:00.0"
  std::string current_speed, max_speed;  // "16.0 GT/s PCIe"
  std::optional<uint32_t> current_width, max_width;
};

struct PlatformInfo {
  std::string cpu_model;
  uint32_t cpu_count = 0;      // logical CPUs listed in /proc/cpuinfo
  uint64_t memory_bytes = 0;   // MemTotal
  std::string kernel_release;  // /proc/sys/kernel/osrelease
  std::string kernel_version;  // /proc/sys/kernel/version
  std::string machine;         // uname -m
  std::string distribution;    // PRETTY_NAME from os-release
  std::string ptsuite_version;
  std::string ptsuite_git_revision;
  // The device (empty when no device was given or it is not a block device).
  std::string device;
  std::optional<PcieLink> pcie;
  std::string io_scheduler;
  std::optional<int> numa_node;
};

// `device_path` may be empty (host only), a block device, or a regular file.
PlatformInfo capture_platform(const std::string& device_path = {}, const SystemRoots& roots = {});
// The same for a block device named by kernel name (tests use a fake sysfs tree).
PlatformInfo capture_platform_for_kernel_name(const std::string& kernel_name, const SystemRoots& roots);

// The platform as results.json records it (results::PlatformRecord, written by its writer in
// src/results); to_json() writes that record.
results::PlatformRecord platform_record(const PlatformInfo& p);
void to_json(nlohmann::json& j, const PlatformInfo& p);

}  // namespace ptsuite::device
