// Contract: `ptsuite fleet status` (docs/fleet.md "Status"): one row per drive, from Slurm's
// view of the fleet's jobs (fleet/slurm.hpp list_jobs(): every job named ptsuite-SERIAL) and the
// shared history (the drive's latest run, for its model and last verdict; with a campaign, the
// drives of the campaign's recorded runs too). drive_status() is pure.
//
// Per drive: serial, campaign, model, host, the job's state in words ("pending (Dependency)",
// "running", "held (JobHeldUser, exit 3)", "done", "cancelled", "failed (exit 2)"), how often
// Slurm requeued it, the step (i/N and test) and ETA from the job's progress comment
// (fleet/progress.hpp), and the last verdict in the history. Where a drive has several jobs
// (a campaign submitted twice) the row shows the one that matters: running, else pending or
// held, else the latest to end.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <ptsuite/fleet/slurm.hpp>
#include <ptsuite/history/run_record.hpp>

namespace ptsuite::fleet {

struct DriveStatus {
  std::string serial;
  std::string campaign;
  std::string model;
  std::string host;
  uint64_t job_id = 0;  // 0: no job Slurm still knows
  std::string state;    // in words (above)
  uint32_t requeues = 0;
  std::string step;  // "12/86"
  std::string test;
  std::string eta_utc;
  std::string verdict;  // the latest run's compliance summary in the history ("" when none)
  int64_t history_id = 0;
  size_t jobs = 0;  // how many of Slurm's jobs name this drive
};

std::string job_state_words(const SlurmJob& job);
std::vector<DriveStatus> drive_status(const std::vector<SlurmJob>& jobs, const std::vector<history::RunRecord>& runs,
                                      const std::string& campaign);
void to_json(nlohmann::json& j, const DriveStatus& s);

}  // namespace ptsuite::fleet
