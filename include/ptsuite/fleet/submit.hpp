// Contract: `ptsuite fleet submit` (docs/fleet.md "Submitting a campaign"): one sbatch per drive.
// Drives are named by serial, or picked from the drives the hosts registered in the history
// (history/drives.hpp: by model, firmware and labels). A drive whose campaign run is complete in
// the history already is skipped (a campaign submitted again adds only what is missing); a
// drive whose job is still queued or running gets another job all the same, which the
// singleton dependency starts only after the first ends and which then finds the run done
// (fleet/job.hpp): a campaign resubmitted while it runs adds no concurrent run and no second
// run.
// time_limit_s(): the plan's worst case (pts/plan.hpp, for the drive's capacity under the
// generic assumptions: writes at 500 MB/s, 2 min per purge) x k_time_margin + k_time_slack_s,
// so that a drive slower than the assumptions still finishes; a run past its limit is not lost:
// the time limit's SIGUSR1 (k_signal_lead_s before it) interrupts it, and the requeued job
// resumes it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/fleet/slurm.hpp>
#include <ptsuite/history/drives.hpp>
#include <ptsuite/history/run_record.hpp>
#include <ptsuite/pts/run_config.hpp>

namespace ptsuite::fleet {

inline constexpr double k_time_margin = 1.5;
inline constexpr uint64_t k_time_slack_s = 15 * 60;
inline constexpr uint64_t k_signal_lead_s = 120;

uint64_t time_limit_s(const pts::RunConfig& config, uint64_t capacity_bytes);

struct SubmitDrive {
  std::string serial;  // normalized
  std::optional<uint64_t> capacity_bytes;
  std::string node;  // "" when not registered
};

// The drives a submit names: `serials` (normalized; capacities from the registry when it has
// them), else the registered drives matching model / firmware / labels. UsageError when none.
std::vector<SubmitDrive> select_drives(const std::vector<std::string>& serials,
                                       const std::vector<history::FleetDrive>& registered, const std::string& model,
                                       const std::string& firmware, const Labels& drive_labels);

// The run of `campaign` with these tests on `serial` that is complete in the history, if any.
std::optional<history::RunRecord> completed_run(const std::vector<history::RunRecord>& campaign_runs,
                                                const std::string& serial, const std::vector<std::string>& tests);

}  // namespace ptsuite::fleet
