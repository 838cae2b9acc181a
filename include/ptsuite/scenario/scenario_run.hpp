// Contract: `ptsuite scenario run` and `scenario resume` end to end (as pts/run.hpp is for
// `ptsuite run`; docs/scenarios.md), behind their own run configuration:
// start_scenario_run():
//   1. loads the scenario (its quick form with config.quick) and checks everything that needs no
//      device: the engine, the number of targets against the roles -> UsageError, exit 2;
//   2. checks the output directory through the command's output gate (device/output_gate.hpp:
//      new or empty, never a device node or a target's storage; one holding a scenario run is
//      refused with `scenario resume`, or, for a run on scratch targets, with another directory);
//      every target passes the gate too (add_target), so no output lands on one;
//   3. opens every target: the given ones, or scratch targets (one per role, or one) made here and
//      removed on every path; each passes the target gate (device/target_gate.hpp) and gets its own
//      device session (exclusive claim); a purging scenario's real drives need their
//      --confirm-serial before anything runs; every phase is resolved against the targets
//      (scenario_runner.hpp check_scenario) -> exit 2 before anything is written;
//   4. creates DIR (locked while the run writes: util/dir_lock.hpp) with scenario-run.json (the
//      configuration, the scenario's text, the targets' identities) and run.log;
//   5. runs the phases (scenario_runner.hpp), journaling every finished step in DIR/journal.json;
//      app phases run the application on the targets (app/app_runner.hpp) into DIR/app-<phase>/,
//      releasing the targets' claims for the phase and taking them again after it;
//   6. writes results.json (kind "ptsuite.scenario") with the status ("complete", or "stopped:
//      <why>" after an error or an interruption) and returns it in the outcome; the caller ends the
//      run with it (lifecycle/finish_run.hpp: reports, run.log's last lines, manifest, history).
// resume_scenario_run() continues a run from scenario-run.json after its last journaled step on the
// same devices (identity fingerprints, device/identity.hpp); a run on scratch targets cannot be
// resumed. Refusals throw before anything is written (UsageError 2, SafetyRefusal 3); an error
// during the run is the outcome's exit code with the document written (Error's code; 130 when
// interrupted). Progress goes to the observer. Not thread-safe: one run per process.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/results/document.hpp>
#include <ptsuite/scenario/scenario_plan.hpp>

namespace ptsuite::scenario {

inline constexpr uint64_t k_default_scenario_scratch_bytes = uint64_t{256} << 20;

struct ScenarioRunConfig {
  std::string name;                  // a built-in scenario or a ptsuite-scenario/1 file
  std::vector<std::string> targets;  // empty: scratch targets
  std::string out_dir;               // "": ./ptsuite-scenario-<name>-<time>
  bool quick = false;
  bool allow_destructive = false;
  std::vector<std::string> confirm_serials;  // one per real drive a purge phase erases
  std::string engine = "libaio";
  uint64_t scratch_size_bytes = k_default_scenario_scratch_bytes;
  uint64_t seed = 1;
  std::string tested_by;
  std::string report_formats = "html,csv,text";  // as given (recorded for resume)
  std::string series;                            // report.series as given ("" = auto)
  std::string plot_targets;                      // "1,5" as given
  bool compact = false;                          // --compact as given (report.compact)
  nlohmann::json report_options;                 // the document's "report" member (the caller checks it)
  std::vector<std::string> command_line;
};

class ScenarioObserver {
 public:
  virtual ~ScenarioObserver() = default;
  virtual void plan_ready(const ScenarioPlan& plan) = 0;
  virtual void message(const std::string& text) = 0;  // progress
  virtual void warning(const std::string& text) = 0;  // why the run stopped
  virtual void step_done(const std::string& key) = 0;
};

struct ScenarioRunOutcome {
  int exit_code = 0;
  std::string out_dir;
  std::optional<OutputDir> out;  // the run directory's gate token: the ending writes through it
  std::string results_path;
  std::string status;      // "complete" or "stopped: <why>"
  bool resumable = false;  // interrupted on real devices: `scenario resume DIR` continues it
  results::Document document;
  // The app phases run in this session: DIR/app-<phase>/ and its "ptsuite.app_run" document.
  std::vector<std::pair<OutputDir, results::Document>> app_phases;
  std::string final_note;  // run.log's last line
};

// `outputs`: the command's output gate; the run directory and every target pass it here.
ScenarioRunOutcome start_scenario_run(const ScenarioRunConfig& config, ScenarioObserver& observer,
                                      const std::atomic<bool>* stop, device::OutputGate& outputs);

// The configuration recorded in DIR/scenario-run.json (UsageError naming the file when it is
// missing or damaged), for the caller to fill in report_options before resuming.
ScenarioRunConfig read_scenario_run(const std::filesystem::path& dir);
// `dir`: the run's directory as the command's output gate (`outputs`) let it through, claimed
// before anything read it (so DIR is checked once); `config` as read_scenario_run() gave it,
// with the resuming session's consent and serials. The targets pass `outputs` here.
ScenarioRunOutcome resume_scenario_run(OutputDir dir, ScenarioRunConfig config, ScenarioObserver& observer,
                                       const std::atomic<bool>* stop, device::OutputGate& outputs);

}  // namespace ptsuite::scenario
