// Private: SIGINT/SIGTERM/SIGHUP/SIGUSR1 -> a stop flag, for the commands that run IO. While a
// StopSignals object lives, the first SIGINT, SIGTERM, SIGHUP or SIGUSR1 (Slurm's signal before
// a job's time limit) sets flag() (the workers notice it within one
// reap wait, drain, and the command still writes what was measured, exiting 130); the
// handlers are one-shot (SA_RESETHAND), so a second signal ends the process at once.
// The destructor restores the previous handlers. One instance at a time (process-wide state).
#pragma once

#include <atomic>

namespace ptsuite::cli {

class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  [[nodiscard]] const std::atomic<bool>& flag() const noexcept;
  // The signal that set the flag (SIGINT, SIGTERM or SIGHUP), 0 when none arrived.
  [[nodiscard]] int received() const noexcept;
};

}  // namespace ptsuite::cli
