// Contract: the single seam between PTS test logic and the world. Tests describe every action
// as a step (a segment, a purge, a health snapshot, a host idle period) with a StepId, and
// an executor carries it out, returning the step's record as JSON (exactly what results.json
// stores). Three executors implement it:
//   * the device executor (run_executor.hpp) runs workloads and device operations for real;
//   * JournalingExecutor (journal.hpp) wraps one and replays completed steps from the run
//     directory's journal, which is how `ptsuite resume` continues after a crash: the test
//     logic is re-run from the top, and every step already journaled returns its recorded
//     result instead of touching the device;
//   * PlanningExecutor (plan.hpp) fabricates results without touching anything, which is how
//     `ptsuite plan` lists the exact steps a run would take.
// Because test logic only ever sees step results, all three follow the same control flow.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/device/health.hpp>
#include <ptsuite/pts/segment.hpp>

namespace ptsuite::pts {

// idle: the host issues no IO for idle_ns of wall time (HIR's wait states); it is journaled
// and an interrupted idle step runs again from its start on resume, like a segment.
enum class StepKind { segment, purge, health, idle };
const char* to_string(StepKind kind) noexcept;

// Identifies a step uniquely within a run; its text form names journal entries.
struct StepId {
  std::string test;   // "iops"
  std::string phase;  // "main", "1024KiB", "precondition", "demand", ...
  std::string name;   // "r003-s12", "wipc", "purge", "capture-max", ...
  [[nodiscard]] std::string text() const { return test + "/" + phase + "/" + name; }
  friend bool operator==(const StepId&, const StepId&) = default;
};

struct StepRequest {
  StepKind kind = StepKind::segment;
  SegmentSpec segment;       // kind == segment
  std::string purge_method;  // kind == purge: "auto", "discard", ...
  uint64_t idle_ns = 0;      // kind == idle: wall time without IO
  // The Round a segment belongs to when its step name does not say it ("rNNN-..."), e.g.
  // WSAT's samples under stop_rule=steady-state; 0 otherwise. Only the planner reads it: its
  // worst case swings values Round by Round (plan.hpp), whatever the step names.
  uint32_t plan_round = 0;
  // The time limit of the loop a step belongs to (WSAT's and endurance-write's samples and
  // their health snapshots: the loop ends after the sample whose segments' times reach it); 0
  // otherwise. Only the planner reads it: the ETA stops counting the loop's planned steps there
  // (eta.hpp).
  uint64_t plan_time_limit_ns = 0;
};

// The request as the journal stores it: {"kind"} and the segment, "method" or "idle_ns".
void to_json(nlohmann::json& j, const StepRequest& request);

// The records of the steps that are not segments (a segment's is SegmentResult), written by
// their to_json as results.json and the journal store them.
// A host-idle step: {"kind": "idle", "idle_ns", "elapsed_ns"}, the times when it ran
// ("" omitted: an interrupted one), "planned": true from the planner.
struct IdleStepResult {
  uint64_t idle_ns = 0;
  uint64_t elapsed_ns = 0;
  std::string started_utc, finished_utc;
  bool planned = false;
};
// A warm-up that an IO error or a stop request ended (RunStopped's partial record):
// {"kind": "warmup", "warmup_ns"}.
struct WarmupStopRecord {
  uint64_t warmup_ns = 0;
};
// A step the planner did not carry out: {"planned": true}, and "method" for a purge.
struct PlannedStepResult {
  std::optional<std::string> method;
};
// A health step: the snapshot's members and "throttling" (the throttle monitor's verdict).
struct HealthStepResult {
  device::HealthSnapshot snapshot;
  bool throttling = false;
};
void to_json(nlohmann::json& j, const IdleStepResult& r);
void to_json(nlohmann::json& j, const WarmupStopRecord& r);
void to_json(nlohmann::json& j, const PlannedStepResult& r);
void to_json(nlohmann::json& j, const HealthStepResult& r);

// What tests see while a step runs (the CLI draws the progress line from it).
struct StepProgress {
  StepId id;
  std::string label;
  uint64_t elapsed_ns = 0;
  uint64_t expected_ns = 0;
  double live_iops = 0;
  double live_mb_per_s = 0;
  uint64_t stalled_ns = 0;  // time since the last IO completed (workload/stall_detector.hpp)
};

class StepExecutor {
 public:
  virtual ~StepExecutor() = default;
  // Carries out one step and returns its record. Throws Error when the run must stop (an IO
  // error, an interruption: see RunStopped), after recording what is needed.
  virtual nlohmann::json execute(const StepId& id, const StepRequest& request) = 0;
  // Called instead of execute() when a step's result comes from the journal, so that state
  // carried between steps (sequential positions) is restored exactly as if it had run.
  virtual void replayed(const StepId& id, const StepRequest& request, const nlohmann::json& result) = 0;
};

// Thrown by an executor when the run stops early: an IO error stopped a segment (exit 4) or
// SIGINT/SIGTERM interrupted it (exit 130). The interrupted segment is not journaled, so a
// resume runs it again from its start: nothing is half-counted.
class RunStopped : public std::runtime_error {
 public:
  RunStopped(int exit_code, const std::string& why, nlohmann::json partial)
      : std::runtime_error(why), m_exit_code(exit_code), m_partial(std::move(partial)) {}
  [[nodiscard]] int exit_code() const noexcept { return m_exit_code; }
  // The measurements of the stopped segment (for the record; never counted in a Round).
  [[nodiscard]] const nlohmann::json& partial() const noexcept { return m_partial; }

 private:
  int m_exit_code;
  nlohmann::json m_partial;
};

// Typed convenience over execute() for segment steps (plan_round: see StepRequest).
SegmentResult run_segment(StepExecutor& exec, const StepId& id, const SegmentSpec& spec, uint32_t plan_round = 0,
                          uint64_t plan_time_limit_ns = 0);

}  // namespace ptsuite::pts
