// Contract: `ptsuite run` and `ptsuite resume` end to end. start_run():
//   1. validates everything that can be validated without the device (tests, revision,
//      profile, presets, --set values) -> UsageError, exit 2, nothing touched;
//   2. picks the target: the given one, or a scratch target (loop device over /dev/shm, or an
//      O_DIRECT file) created here and removed on every path;
//   3. passes the safety gate (device/safety.hpp; block devices need --allow-destructive);
//   4. opens the target O_DIRECT, identifies it and captures the platform;
//   5. creates the run directory (refusing one that already holds a run) with
//      journal/run.json (config, identity, plan fingerprint) and journal/steps/;
//   6. runs each test through JournalingExecutor(DeviceExecutor) (with --engine sim: SimExecutor,
//      on a simulated drive in virtual time; steps 2-4 open nothing: docs/sim.md), setting the profile's
//      write-cache state before the test and restoring it after (re-applied on resume);
//   7. after every test and at the end writes results.json atomically (status, per-test
//      records, compliance) and returns the document in its outcome; the caller ends the run
//      with it (lifecycle/finish_run.hpp: the reports config.report_formats names when the run
//      is complete, run.log's last lines, the bundle manifest, the history, the headline).
// resume_run() reloads journal/run.json and continues after the last journaled step, only if
// the device identity (model, serial, firmware, capacity) and the plan fingerprint are
// unchanged; otherwise it refuses (SafetyRefusal / Error) without touching the device.
// Interruption (stop flag) and IO errors end the run with results written: exit 130 / 4.
// Host preflight (device/preflight.hpp): after step 4 and before anything is written (start
// and resume), with the needs of the worst-case plan; an error finding refuses the run (exit
// 3), a warning too with config.strict_preflight; findings go to results.json "preflight"
// (one session per start/resume) and warnings to run.log.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/device/preflight.hpp>
#include <ptsuite/pts/compliance.hpp>
#include <ptsuite/pts/plan.hpp>
#include <ptsuite/pts/results_format.hpp>
#include <ptsuite/pts/run_config.hpp>
#include <ptsuite/pts/step_executor.hpp>
#include <ptsuite/results/document.hpp>

namespace ptsuite::pts {

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual void message(const std::string& text) = 0;
  // What the user must see even with --quiet: why a run stopped, a write cache that could not
  // be restored, the temporary ATA password before it is set.
  virtual void warning(const std::string& text) { message(text); }
  virtual void plan_ready(const Plan& best, const Plan& worst) = 0;
  virtual void test_started(const std::string& id, const std::string& title, size_t index, size_t count) = 0;
  virtual void step_started(const StepId& id, const std::string& label) = 0;
  virtual void step_progress(const StepProgress& progress) = 0;
  virtual void step_finished(const StepId& id) = 0;
  // On resume: a journaled step replayed (not run again), with the time it took when it ran on
  // the run's clock (JournalEntry::step_ns), in the order of the journal; entries of earlier
  // versions, which carry no time, are not reported. The console's ETA learns from it as from
  // step_finished.
  virtual void step_replayed(const std::string& id, uint64_t step_ns) {
    (void)id;
    (void)step_ns;
  }
  // The clock the run's steps are on, in ns (a simulated run: the drive's virtual clock, so a
  // step's length and the ETA are virtual time like the plan); until called, the host's
  // monotonic clock. Called before the first step.
  virtual void use_clock(std::function<uint64_t()> now_ns) { (void)now_ns; }
};

struct RunOutcome {
  int exit_code = 0;
  std::string out_dir;
  std::optional<OutputDir> out;  // the run directory's gate token: the ending writes through it
  std::string results_path;
  std::string status;  // "complete", "interrupted", "io_error", "failed"
  ComplianceVerdict compliance;
  results::Document document;               // results.json as written (never read back)
  std::vector<std::string> report_formats;  // what the run asked for; none unless complete
  std::string final_note;                   // run.log's last line: "run complete: ...; exit code 0"
};

// `outputs`: the command's output gate (device/output_gate.hpp); the run directory and the
// target pass it here (the target is protected from the command's other outputs).
RunOutcome start_run(RunConfig config, RunObserver& observer, const std::atomic<bool>* stop,
                     device::OutputGate& outputs);
RunOutcome resume_run(const std::string& dir, bool allow_destructive, const std::optional<std::string>& confirm_serial,
                      RunObserver& observer, const std::atomic<bool>* stop, device::OutputGate& outputs);

// What the host must provide for the worst-case plan `worst` (device/preflight.hpp): the
// largest TC x QD of any segment (AIO events; libaio only) and memory for the largest step's IO
// buffers (TC x QD x its largest block size), the scratch target when there is one (it lives in
// RAM) and k_process_overhead_bytes for the process itself (histograms, results, reports).
inline constexpr uint64_t k_process_overhead_bytes = uint64_t{256} << 20;
device::PreflightNeeds preflight_needs(const Plan& worst, const RunConfig& config);

}  // namespace ptsuite::pts
