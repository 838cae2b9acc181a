// Private: the individual host-preflight checks (device/preflight.hpp). Each returns one
// finding; none throws for what it cannot read (that is an info finding).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <ptsuite/device/preflight.hpp>

#include "device/sysfs.hpp"

namespace ptsuite::device::preflight_detail {

// The target as the checks see it: a block device (its whole disk and every partition) or a
// regular file (its canonical path).
struct TargetView {
  const PreflightInputs* inputs = nullptr;
  std::optional<sysfs::BlockNode> disk;
  std::vector<sysfs::BlockNode> nodes;  // the disk and its partitions (or the partition alone)
  std::string file_path;                // for a regular file target
};

// Host checks.
PreflightFinding check_cpu_governor(const SystemRoots& roots);
PreflightFinding check_free_memory(const SystemRoots& roots, const PreflightNeeds& needs);
PreflightFinding check_aio_max_nr(const SystemRoots& roots, const PreflightNeeds& needs);

// Target checks.
PreflightFinding check_pcie_link(const TargetView& t);
PreflightFinding check_io_scheduler(const TargetView& t);
PreflightFinding check_other_openers(const TargetView& t);
PreflightFinding check_sibling_mounts(const TargetView& t);
PreflightFinding check_temperature(const std::optional<HealthSnapshot>& health);

// "16.0 GT/s PCIe" -> 16.0; nullopt for "Unknown" or garbage.
std::optional<double> parse_link_speed_gts(const std::string& text);

}  // namespace ptsuite::device::preflight_detail
