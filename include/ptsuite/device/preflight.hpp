// Contract: the host preflight (docs/preflight.md): read-only checks of the host and the
// target that catch a bad run before it starts. `ptsuite preflight TARGET` prints them and
// every `ptsuite run` / `resume` records them in results.json ("preflight").
//
// Checks (id: what, and when each severity is given):
//   pcie_link       current PCIe link speed/width of the device's PCI function vs its maximum:
//                   warning when trained below either (x2 instead of x4, 8 GT/s instead of 16)
//   cpu_governor    cpufreq scaling_governor of every CPU: warning unless all are "performance"
//   io_scheduler    the disk's active IO scheduler: warning unless "none" (a scheduler merges
//                   and reorders IO, so the device does not see the workload as specified)
//   other_openers   processes other than this one with the target (or a partition) open, from
//                   /proc/<pid>/fd: warning (their IO mixes with the test's)
//   sibling_mounts  mounted filesystems on other namespaces of the same NVMe controller:
//                   warning (their IO shares the controller)
//   temperature     from the device health snapshot: warning at or above the warning
//                   threshold or with critical-warning flags set; error at or above critical
//   free_memory     MemAvailable vs the run's IO buffers and scratch target: error below what
//                   the run needs, warning below 1.5x
//   aio_max_nr      fs.aio-max-nr (and the fs.aio-nr in use) vs the run's largest TC x QD:
//                   error when io_setup() would fail
// Everything that cannot be read or does not apply is an `info` finding saying so. Errors
// always refuse a run (exit 3); warnings refuse it only with --strict-preflight.
//
// Every sysfs/procfs read goes through `roots` (tests use a fake tree). Preflight never opens
// the device for writing and never writes anything; the temperature comes from a health
// snapshot the caller took (read_health(): read-only SMART / log pages).
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <ptsuite/device/health.hpp>
#include <ptsuite/device/safety.hpp>

namespace ptsuite::device {

enum class PreflightSeverity { info, warning, error };
std::string_view to_string(PreflightSeverity severity);

struct PreflightFinding {
  std::string check;  // id from the list above
  PreflightSeverity severity = PreflightSeverity::info;
  std::string message;  // one line: what was found and, for warnings and errors, what to do
};

// What the run will need; 0 = unknown (no check against it).
struct PreflightNeeds {
  uint64_t aio_events = 0;    // largest TC x QD of any step, when the engine is libaio
  uint64_t memory_bytes = 0;  // IO buffers of the largest step + scratch target + process
  std::string engine = "libaio";
};

struct PreflightInputs {
  std::string target;  // as given: /dev/..., or a regular file
  SystemRoots roots;
  int self_pid = 0;  // this process: not counted as another opener
  PreflightNeeds needs;
  std::optional<HealthSnapshot> health;  // nullopt: temperature not read
};

struct PreflightReport {
  std::string checked_utc;
  std::string target;
  std::vector<PreflightFinding> findings;  // in the order of the list above
  [[nodiscard]] size_t count(PreflightSeverity severity) const;
  // The first finding at `severity` or above, for one-line refusals; nullptr when none.
  [[nodiscard]] const PreflightFinding* first_at_least(PreflightSeverity severity) const;
};

PreflightReport run_preflight(const PreflightInputs& inputs);

// The common case: `target` on this host (roots "/"), this process excluded, the health
// snapshot read from the device (read-only; `identity` when the caller has it, else
// identify(target)).
PreflightReport preflight_target(const std::string& target, const PreflightNeeds& needs,
                                 const DeviceIdentity* identity = nullptr);

void to_json(nlohmann::json& j, const PreflightFinding& f);
void to_json(nlohmann::json& j, const PreflightReport& r);

}  // namespace ptsuite::device
