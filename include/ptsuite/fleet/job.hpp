// Contract: the batch step of a fleet job (`ptsuite fleet job`, docs/fleet.md "The job"): one
// campaign's run on one drive, started, resumed or finished, and its bundle pushed into the
// shared history exactly once. Slurm starts it through the script fleet/slurm.hpp writes; it
// runs again after a requeue (a host that died, `scontrol requeue`, the time limit's signal)
// and then continues where the host-local run directory left off.
//
// Host-local layout under the run root (default /var/lib/ptsuite/fleet, $PTSUITE_FLEET_ROOT):
//   ROOT/CAMPAIGN/SERIAL/KEY/          the run directory (pts/run.hpp), KEY = the tests joined
//                                      by '+' and 8 hex digits of the configuration's hash
//   ROOT/CAMPAIGN/SERIAL/KEY.push.json the push state: pushed or not, the failed attempts, the
//                                      history id (outside the run directory: the bundle's
//                                      manifest must not change after the run)
//
// run_fleet_job():
//   1. pushes every finished, unpushed run under the root first (a push that failed before is
//      retried at the next start; runs of other campaigns on this host included);
//   2. a finished run directory for this campaign, drive and configuration: only its push;
//      a journal there: `resume` (the medium identity-checked, journaled steps replayed, never
//      a second purge of a completed step); nothing: `run` with --target serial:SERIAL;
//   3. pushes the bundle (history add --bundle, keyed by the run id, replacing its own earlier
//      record: idempotent) and records the push in the push state.
// The exit code is what slurm.conf acts on (JobExit below; docs/fleet.md's table): refusals,
// IO errors and device failures hold the job for a human (RequeueExitHold=3-5), an
// unreachable history and an interruption requeue it (RequeueExit=75,130), at most
// max_push_failures times for the history (then 5: held).
// Errors of the run before it starts (bad tests: 2, refused: 3, device: 5) are thrown as Error.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/history/backend.hpp>
#include <ptsuite/pts/run.hpp>
#include <ptsuite/pts/run_config.hpp>
#include <ptsuite/util/output_file.hpp>

namespace ptsuite::fleet {

enum class JobExit : int {
  done = 0,            // the run is complete and in the history (whatever its verdict)
  bad_input = 2,       // the job's command line: fails, never requeued
  refused = 3,         // no such drive, ambiguous, another medium behind the serial: hold
  io_error = 4,        // hold
  failed = 5,          // device or system failure, or the history unreachable too often: hold
  history_retry = 75,  // the run is complete, the history unreachable: requeue
  interrupted = 130,   // SIGTERM / SIGUSR1: requeue (scancel ends the job all the same)
};

inline constexpr uint32_t k_default_max_push_failures = 10;

std::string default_run_root();

struct JobRequest {
  std::string serial;
  std::string campaign;
  pts::RunConfig config;  // tests, spec, settings, seed, engine, labels, reports; target/out set here
  std::filesystem::path run_root;
  // run_root as the command's output gate let it through (the push states are written in it);
  // run_fleet_job() needs it.
  std::optional<OutputDir> run_root_dir;
  history::HistoryDb history_db;  // the output gate's (cli/history_support.hpp gate_history_db())
  uint32_t max_push_failures = k_default_max_push_failures;
};

struct JobPaths {
  std::filesystem::path run_dir;
  std::filesystem::path push_state;
};

// The configuration's part of KEY: what makes two runs of one campaign on one drive different.
std::string run_key(const pts::RunConfig& config);
JobPaths job_paths(const JobRequest& request);

// Hooks for the caller's console and progress poster.
struct JobHooks {
  std::function<void(const std::string& line)> say;     // one line for the job's log
  std::function<void(const std::string& state)> state;  // "resuming", "pushing", "complete", ...
  std::function<void(const std::string& run_uid)> run;  // the run's id once known
  // The run's ending once start or resume returned (reports, run.log, manifest: the cli's
  // lifecycle::finish_run without the history, which the push below records). Required.
  std::function<void(const pts::RunOutcome& outcome)> finish;
};

// `outputs` is the command's output gate (the run's directory and reports pass it).
int run_fleet_job(const JobRequest& request, pts::RunObserver& observer, const std::atomic<bool>* stop,
                  device::OutputGate& outputs, const JobHooks& hooks);

// Step 1 alone (`ptsuite fleet push`): every finished, unpushed run under `root` but `skip` (the
// job's own run, pushed by its step 4). Stops trying at the first unreachable database. Returns
// how many are still unpushed afterwards.
size_t push_pending(const OutputDir& root, const history::HistoryDb& history_db, const JobHooks& hooks,
                    const std::filesystem::path& skip = {});

}  // namespace ptsuite::fleet
