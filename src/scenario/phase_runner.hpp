// Private to src/scenario: runs a scenario's phases in order (run_scenario, scenario_runner.hpp).
// Each phase kind is one method: the measured kinds (fill, run, txq, rate_ramp, rate_steps,
// steady_state) and purge in phase_runner.cpp, the application, mixed and replay kinds in
// phase_app.cpp. A step recorded by an earlier session of the run (ScenarioRunOptions::replay)
// is taken from the journal instead of being run again; each finished step goes to on_step
// before the next starts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/scenario.hpp>
#include <ptsuite/scenario/scenario_runner.hpp>

#include "scenario/scenario_mixed.hpp"
#include "scenario/scenario_steps.hpp"

namespace ptsuite::scenario::detail {

class PhaseRunner {
 public:
  using json = nlohmann::json;

  PhaseRunner(const Scenario& s, const std::vector<ScenarioTarget>& targets, const ScenarioRunOptions& o)
      : m_s(s), m_targets(targets), m_o(o) {}

  // Appends each phase to `phases` before running it, so that a stop leaves every finished
  // step in place.
  void run(std::vector<results::ScenarioPhaseOut>& phases);

 private:
  // Each step's per-target summaries, typed (results/scenario.hpp), per phase in order: what
  // rate ramps and steady-state checks read, for steps run now and journaled ones alike.
  using PhaseFigures = std::vector<std::vector<results::SummaryRecord>>;

  void message(const std::string& m) const {
    if (m_o.on_message) m_o.on_message(m);
  }

  void add_step(results::ScenarioPhaseOut& phase, json step) {
    m_figures.back().push_back(results::read_step_record(step).targets);
    phase.steps.push_back(std::move(step));
  }

  void measured(const PhaseSpec& p, results::ScenarioPhaseOut& phase, std::vector<Instance> in, std::string label,
                results::ScenarioStepX x);
  // segment_warmup: the step's instances for the warm-up time, results discarded (not journaled;
  // a resumed step warms up again).
  void warm_up(const PhaseSpec& p, const std::vector<Instance>& in, const std::string& key);
  // A step (or purge) recorded by an earlier session of this run, if any.
  std::optional<json> replayed(const std::string& key) const;
  void run_phase(const PhaseSpec& p, results::ScenarioPhaseOut& phase);

  void purge(const PhaseSpec& p, results::ScenarioPhaseOut& phase);
  void fill(const PhaseSpec& p, results::ScenarioPhaseOut& phase);
  // 100 % = each target's aggregate IOPS in the last step of the `percent_of` phase.
  void ramp(const PhaseSpec& p, results::ScenarioPhaseOut& phase);
  void steps(const PhaseSpec& p, results::ScenarioPhaseOut& phase);
  static double variable_of(const results::SummaryRecord& summary, const std::string& variable);
  void steady_state(const PhaseSpec& p, results::ScenarioPhaseOut& phase);

  // Each target its own replay of the capture, all at once (replay/replay_runner.hpp); the
  // records go under "replays" ({target, replay}) and into the journal as one entry. A replay
  // that did not complete stops the scenario after every target's record is in the phase (it
  // is not journaled: a resumed run replays the phase again, whole).
  void replay_phase(const PhaseSpec& p, results::ScenarioPhaseOut& phase);
  // An app phase; with streams a mixed one (scenario_runner.hpp): the streams resolved first,
  // started by the application's runner when its measured period begins.
  void app(const PhaseSpec& p, results::ScenarioPhaseOut& phase);
  // The mixed phase's streams as its one step, next to the application's document.
  json mixed_record(const PhaseSpec& p, detail::MixedStreams& streams, const json& doc,
                    results::ScenarioPhaseOut& phase);

  const Scenario& m_s;
  const std::vector<ScenarioTarget>& m_targets;
  const ScenarioRunOptions& m_o;
  std::vector<PhaseFigures> m_figures;  // per phase so far (rate_ramp reads an earlier one)
};

}  // namespace ptsuite::scenario::detail
