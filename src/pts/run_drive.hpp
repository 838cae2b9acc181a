// Private to the run layer: the drive a run works on (one drive, one gate, one rule). A run
// holds one RunDrive from open_drive() and asks it, never its kind, for what it needs of a drive:
// its geometry and identity, the time of anything recorded now, the plans' assumptions, the
// host preflight, the write cache (applied for the run, recorded per test, restored at the end),
// the step executor, and what results.json records of it (target, device, platform; the
// simulation record of a simulated one). Two kinds today: the real drive (a target and its
// DeviceSession, the DeviceExecutor, the wall clock; run_drive.cpp) and the simulated one
// (SimDrive, SimExecutor, the drive's virtual clock; run_sim.cpp). Another kind (e.g. a remote
// drive) is one more implementation and one more case in open_drive().
// Lifetime: the drive refers to the context's config, settings, spec and run directory, which
// must outlive it; the executor it makes lives as long as the drive.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include <ptsuite/device/identity.hpp>
#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/pts/definitions.hpp>
#include <ptsuite/pts/device_executor.hpp>
#include <ptsuite/pts/plan.hpp>
#include <ptsuite/pts/run_config.hpp>
#include <ptsuite/pts/run_log.hpp>
#include <ptsuite/pts/settings.hpp>
#include <ptsuite/results/run_draft.hpp>
#include <ptsuite/util/output_file.hpp>

namespace ptsuite::pts::detail {

// What a run hands its drive when it opens it.
struct DriveContext {
  const RunConfig& config;
  const Settings& settings;
  const SpecContext& spec;
  const OutputDir& out;           // the run directory (journal/device.json)
  const std::atomic<bool>* stop;  // a stop request (Ctrl-C) ends the current step
  std::string started_utc;        // the run's start (journal/run.json), the same on resume
  bool resuming = false;
};

class RunDrive {
 public:
  virtual ~RunDrive() = default;

  [[nodiscard]] virtual engine::TargetGeometry geometry() const = 0;
  [[nodiscard]] virtual const device::DeviceIdentity& identity() const = 0;
  // The time of anything the run records now (ISO 8601 UTC): the wall clock, or the virtual one.
  [[nodiscard]] virtual std::string now_utc() const = 0;
  // The run's own clock when the drive keeps one (a simulated drive's virtual time since the
  // run's start, across sessions); nullopt: the run counts the steady clock (pts/run.cpp).
  [[nodiscard]] virtual std::optional<uint64_t> run_clock_ns() const { return std::nullopt; }
  // The run log's first word on the drive after the start line ("" when it has none).
  [[nodiscard]] virtual std::string log_note() const = 0;
  // What precedes the run's final note ("SIMULATED " for a simulated drive, else "").
  [[nodiscard]] virtual std::string outcome_prefix() const = 0;
  // The assumptions both plans are timed with; the worst case is first checked step by step
  // against the drive (pts/step_check.hpp: exit 2 before anything is written). `shape` is the
  // run-wide step parameters (no target, session or callbacks).
  virtual PlanAssumptions plan_assumptions(const DeviceRunParams& shape) = 0;
  // The host preflight before anything is written (session "start" or "resume"); its record,
  // or none when the drive has no host to check.
  virtual std::optional<results::PreflightSession> preflight(const std::string& session, const Plan& worst) = 0;
  // results.json's target, device and platform (start and every resume), and the simulation
  // record of a simulated drive.
  virtual void record(results::RunDraft& draft) = 0;
  // Brings what the drive records while the run goes (the simulation record) up to now.
  virtual void update(results::RunDraft& draft) const = 0;
  // The run's step executor, made once before the first step; progress goes to `observer`.
  virtual StepExecutor& executor(DeviceRunParams shape, RunLog& observer) = 0;
  // The profile's write cache (PTS-E WCD, PTS-C WCE), applied once for the run.
  virtual void apply_write_cache(bool want_enabled, RunLog& observer) = 0;
  // The write cache as a test record carries it (after apply_write_cache()).
  [[nodiscard]] virtual results::WriteCacheRecord test_write_cache() const = 0;
  // Puts the write cache back (every exit path that reaches the end of the run) and records
  // the run-level write-cache record.
  virtual void restore_write_cache(results::RunDraft& draft, RunLog& observer) = 0;
  // The run's end: results.json's throttle summary and the drive's last word in the run log.
  virtual void finish(results::RunDraft& draft, RunLog& observer) = 0;
};

// The engine and drive settings no device is needed to refuse (UsageError, exit 2): an unknown
// engine, and what cannot be a simulated run (run_sim.hpp).
void check_drive_config(const RunConfig& config, const Settings& settings);
// The drive of the run: the simulated one for --engine sim, else the real target (the scratch
// target when --target is empty; refused on resume: it was removed when ptsuite exited). A
// target passes the command's output gate and the target gate here.
std::unique_ptr<RunDrive> open_drive(const DriveContext& ctx, device::OutputGate& outputs);
std::unique_ptr<RunDrive> open_real_drive(const DriveContext& ctx, device::OutputGate& outputs);
std::unique_ptr<RunDrive> open_sim_drive(const DriveContext& ctx);  // run_sim.cpp

}  // namespace ptsuite::pts::detail
