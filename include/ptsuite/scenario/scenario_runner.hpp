// Contract: runs a parsed scenario over its targets and returns the results document
// (kind "ptsuite.scenario", pts/schema/scenario-results.schema.json; docs/scenarios.md).
//   * Phases run in order; generator phases expand into steps (TxQ points, ramp percentages,
//     rate steps, steady-state Rounds). In a step every stream instance (a stream on each of
//     its targets) is resolved first (bad input: UsageError before any IO of the step), then
//     all instances run concurrently, one thread each driving its own workers, for the step's
//     duration.
//   * Per step: per stream instance, per target (its streams merged) and the aggregate (all).
//     Merged summaries: IOPS and MB/s are the SUMS of the instances' values; latency min/max/
//     mean/stddev and percentiles come from the merged histograms and moments (never averaged
//     percentiles). Instances keep their histograms, so any merged value can be recomputed.
//   * rate_ramp: 100 % = the target's aggregate IOPS in the last step of `percent_of`.
//   * steady_state: Rounds until every target's `variable` passes the PTS rule (5-Round window,
//     20 % data / 10 % slope excursion; pts/steady_state.hpp) or max_rounds.
//   * purge goes through each target's DeviceSession (gate, consent, --confirm-serial).
//   * app runs options.run_app (one instance of the application per target of the phase -
//     app_targets, or every target - at once); the phase record holds its results document
//     under "app" (and "app_targets" when the phase names them); a run that did not complete
//     stops the scenario (Error with its code). A mixed phase (an app phase with streams): the
//     streams are resolved before the application starts and run on the other targets from
//     the start of its measured period for its length (options.run_app's callback), one thread
//     each; their step record (label "with <app>", interval series) is the phase's one step,
//     "streams_start_ns" how long after the measured period's start they started; journaled
//     as {app, step, streams_start_ns} under "<phase>/app".
//   * replay runs replay::run_replay() on every target at once (each its own reader of the
//     capture, its own seed derived from the run's); the phase record holds each target's
//     ptsuite.replay record under "replays" ([{target, replay}]), journaled under
//     "<phase>/replay"; a replay that was interrupted or hit an IO error stops the scenario
//     (Error with its code) and runs again whole on resume. check_scenario() reads the capture.
//   * Stop: when `stop` becomes true the running step drains and Error(interrupted) is thrown;
//     that partial step is dropped (it runs again whole on resume), finished ones are kept.
//   * Resume: with `replay`, a step or purge whose key the journal holds is not run again; its
//     recorded result takes its place (rate ramps and steady-state checks read it as before).
// Not thread-safe: one call at a time per set of targets.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/device/session.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/results/scenario_writers.hpp>
#include <ptsuite/scenario/scenario.hpp>
#include <ptsuite/stats/latency_stats.hpp>
#include <ptsuite/workload/workload_runner.hpp>

namespace ptsuite::scenario {

struct ScenarioTarget {
  const engine::Target* target = nullptr;
  device::DeviceSession* session = nullptr;   // purge; may be null when the scenario has no purge
  std::optional<std::string> confirm_serial;  // this target's --confirm-serial (a real drive's purge needs it)
};

struct ScenarioRunOptions {
  uint64_t seed = 1;
  std::string engine = "libaio";
  bool allow_destructive = false;
  const std::atomic<bool>* stop = nullptr;
  std::function<void(const std::string&)> on_message;  // progress lines
  // Journal: each finished step record (or a phase's purge records) under its key
  // ("<phase>/<n>", "<phase>/purge"), and on resume the record of a key done before.
  std::function<void(const std::string& key, const nlohmann::json& record)> on_step;
  std::function<std::optional<nlohmann::json>(const std::string& key)> replay;
  // app phases: runs the phase's application on its targets and returns its results document
  // ("ptsuite.app_run"); the cli provides it (the scenario layer does not run applications).
  // It calls `measured_start` when the application's measured period begins (its
  // CLOCK_MONOTONIC start and its length), on its own thread, at most once.
  using MeasuredStart = std::function<void(uint64_t start_monotonic_ns, uint64_t duration_ns)>;
  std::function<nlohmann::json(const PhaseSpec& phase, const MeasuredStart& measured_start)> run_app;
};

// Fills `phases` (the results' "phases": [{name, kind, steps: [step records], ...}], written by
// results/scenario_writers.hpp) as it goes, so that after an exception it holds every finished
// step.
void run_scenario(const Scenario& s, const std::vector<ScenarioTarget>& targets, const ScenarioRunOptions& options,
                  std::vector<results::ScenarioPhaseOut>& phases);

// Everything run_scenario() would refuse that can be known before it starts, checked without
// touching a target: every stream instance of every phase (each TxQ point, rate step, the fill)
// resolved against its target's geometry (block sizes, alignment, ranges past the capacity,
// threads / QD / buffer memory) and every purge method. Throws UsageError (exit 2) naming the
// phase, stream, target and field. Call it before anything is written.
void check_scenario(const Scenario& s, const std::vector<engine::TargetGeometry>& targets,
                    const ScenarioRunOptions& options);

// One stream on one target in one step, with the step's overrides applied.
struct StepInstance {
  std::string stream;
  uint32_t target = 0;
  workload::WorkloadSpec spec;
};

// The record of one measured step (results "phases[].steps[]", written by
// results/scenario_writers.hpp): every instance with its summary, histograms and interval
// series, each target's merged summary and the aggregate; `x` the generator's coordinate.
// `results[i]` is what `instances[i]` measured. The runner writes every step through it; the
// report tests build their large synthetic documents through it too.
nlohmann::json step_record(const std::vector<StepInstance>& instances,
                           const std::vector<workload::WorkloadResult>& results, size_t target_count, std::string label,
                           results::ScenarioStepX x);

// The merged IoSummary of several concurrent runs as the contract says (exposed for tests).
stats::IoSummary merged_summary(const std::vector<const workload::WorkloadResult*>& parts);

}  // namespace ptsuite::scenario
