// Contract: what `ptsuite fleet` asks of Slurm (docs/fleet.md), through Slurm's own commands
// (sbatch, squeue, scontrol from slurm-client; the Slurm of Debian 12 is 22.05): one batch job
// per drive, named after the drive's serial, asking for the drive's GRES.
//
// Pure parts (unit-tested without Slurm): job_name_for() and serial_of_job_name(), the sbatch
// command line of a drive's job (sbatch_argv()), the batch script (batch_script(): `exec
// ptsuite fleet job ...`, so that ptsuite itself is the batch step and receives scancel's,
// `scontrol requeue`'s and the time limit's signals), Slurm's time format, and the parser of
// `squeue --json` (openapi v0.0.38 in 22.05; unknown members ignored, a missing one reads as
// empty/0).
// Effects: submit() runs sbatch (the script on stdin) and returns the job id; list_jobs() runs
// `squeue --json` (every state squeue still knows: pending, running, held, completing, and
// finished ones for MinJobAge); set_comment() runs `scontrol update JobId=N Comment=...`.
// Each command gets k_slurm_command_timeout_ns; Unavailable (exit 75) when Slurm does not
// answer (slurmctld down), SystemError when a command fails otherwise (its stderr's first line).
// Threading: no shared state; blocking.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptsuite::fleet {

inline constexpr uint64_t k_slurm_command_timeout_ns = uint64_t{60} * 1000000000;
// Every job ptsuite submits is named k_job_name_prefix + normalized serial: the singleton
// dependency then allows one job per drive at a time, whatever its campaign.
inline constexpr const char* k_job_name_prefix = "ptsuite-";

std::string job_name_for(const std::string& serial);
std::optional<std::string> serial_of_job_name(const std::string& name);

// Seconds as Slurm's --time takes them, rounded up to whole minutes: "D-HH:MM:SS".
std::string slurm_time(uint64_t seconds);

struct SbatchRequest {
  std::string serial;     // normalized (device::normalize_serial)
  std::string gres_name;  // "nic" by default (docs/fleet.md: the name Slurm 22.05 confines)
  uint64_t time_limit_s = 0;
  uint64_t signal_lead_s = 0;             // SIGUSR1 to the batch step this long before the limit
  std::string partition;                  // "" = the cluster's default
  std::string output;                     // the job's stdout/stderr file pattern ("" = Slurm's default)
  std::string comment;                    // the first comment; the job replaces it with its progress
  std::vector<std::string> job_argv;      // `ptsuite fleet job ...`, argv[0] the ptsuite binary
  std::vector<std::string> extra_sbatch;  // passed through, before the script
};

// sbatch --parsable --job-name=ptsuite-SERIAL --dependency=singleton --gres=NAME:SERIAL:1
// --requeue --time=... --signal=B:USR1@LEAD [--partition] [--output --open-mode=append]
// --comment=... [extra]
std::vector<std::string> sbatch_argv(const SbatchRequest& r);
// "#!/bin/sh\nexec '/usr/bin/ptsuite' 'fleet' 'job' ...\n" (every word shell-quoted).
std::string batch_script(const std::vector<std::string>& job_argv);

struct SlurmJob {
  uint64_t id = 0;
  std::string name;
  std::string state;   // PENDING, RUNNING, COMPLETED, SPECIAL_EXIT (held after RequeueExitHold), ...
  std::string reason;  // state_reason: None, Dependency, BeginTime, JobHeldUser, ...
  std::string comment;
  std::string node;  // the batch host (or the allocated nodes)
  std::string gres;  // tres_per_node: "gres:nic:SERIAL:1"
  uint32_t restarts = 0;
  int exit_code = 0;
  bool held = false;  // priority 0 with a hold reason, or SPECIAL_EXIT
  int64_t submit_time = 0, start_time = 0, end_time = 0;
};

std::vector<SlurmJob> parse_squeue_json(const std::string& text);

uint64_t submit(const SbatchRequest& request);
std::vector<SlurmJob> list_jobs();
void set_comment(uint64_t job_id, const std::string& comment);

}  // namespace ptsuite::fleet
