// The application, mixed and replay phase kinds (phase_runner.hpp).
#include "scenario/phase_runner.hpp"

#include <fmt/format.h>

#include <ptsuite/results/app_run.hpp>
#include <ptsuite/results/scenario_writers.hpp>
#include <ptsuite/scenario/scenario_plan.hpp>
#include <ptsuite/util/error.hpp>

#include "scenario/scenario_replay.hpp"

namespace ptsuite::scenario::detail {

using nlohmann::json;

// Each target its own replay of the capture, all at once (replay/replay_runner.hpp); the
// records go under "replays" ({target, replay}) and into the journal as one entry. A replay
// that did not complete stops the scenario after every target's record is in the phase (it
// is not journaled: a resumed run replays the phase again, whole).
void PhaseRunner::replay_phase(const PhaseSpec& p, results::ScenarioPhaseOut& phase) {
  const std::string key = p.name + "/replay";
  if (std::optional<json> done = replayed(key)) {
    phase.replays = std::move(*done);
    return;
  }
  message(fmt::format("{}: {} on {} target(s)", p.name, replay_label(p), m_targets.size()));
  std::vector<uint64_t> seeds;
  for (size_t t = 0; t < m_targets.size(); ++t) seeds.push_back(step_seed(m_o.seed, fmt::format("{}/{}", key, t)));
  json replays;
  try {
    detail::replay_on_targets(p, m_targets, m_o, seeds, replays, [this](const std::string& m) { message(m); });
  } catch (...) {
    if (!replays.is_null()) phase.replays = std::move(replays);
    throw;
  }
  if (m_o.on_step) m_o.on_step(key, replays);
  phase.replays = std::move(replays);
}

// An app phase; with streams a mixed one (scenario_runner.hpp): the streams resolved first,
// started by the application's runner when its measured period begins.
void PhaseRunner::app(const PhaseSpec& p, results::ScenarioPhaseOut& phase) {
  if (!p.app_targets.empty()) phase.app_targets = p.app_targets;
  const std::string key = p.name + "/app";
  const bool mixed = !p.streams.empty();
  if (std::optional<json> done = replayed(key)) {
    if (!mixed) {
      phase.app = std::move(*done);
      return;
    }
    results::ScenarioMixedEntry e = results::read_mixed_entry(*done);
    phase.streams_start_ns = e.streams_start_ns;
    add_step(phase, std::move(e.step));
    phase.app = std::move(e.app);
    return;
  }
  if (!m_o.run_app) throw UsageError(p.name, "app phases need the application runner (ptsuite scenario run)");
  std::optional<detail::MixedStreams> streams;
  if (mixed) {
    std::vector<Instance> in = mixed_instances(p, m_targets.size(), m_o);
    for (Instance& i : in) i.spec.seed = step_seed(m_o.seed, fmt::format("{}/{}/{}", key, i.stream, i.target));
    streams.emplace(std::move(in), m_targets, key);
    message(fmt::format("{}: {} with {} stream instance(s) on the other targets", p.name, p.app,
                        streams->instances().size()));
  }
  json doc = m_o.run_app(p, [&streams](uint64_t start_ns, uint64_t duration_ns) {
    if (streams) streams->start(start_ns, duration_ns);
  });
  const results::AppRun run = results::read_app_run(doc);
  if (run.status != "completed") {
    const ExitCode code = run.status == "interrupted" ? ExitCode::interrupted : ExitCode::system;
    phase.app = std::move(doc);
    throw Error(code, fmt::format("{}: the application run did not complete ({})", p.name, run.status));
  }
  message(fmt::format("{}: {} completed", p.name, p.app));
  json record = doc;
  if (streams) record = mixed_record(p, *streams, doc, phase);
  if (m_o.on_step) m_o.on_step(key, record);
  phase.app = std::move(doc);
}

// The mixed phase's streams as its one step, next to the application's document.
json PhaseRunner::mixed_record(const PhaseSpec& p, detail::MixedStreams& streams, const json& doc,
                               results::ScenarioPhaseOut& phase) {
  if (!streams.started()) {
    throw Error(ExitCode::system, fmt::format("{}: the application's measured period never began", p.name));
  }
  StepResult r;
  r.results = streams.finish();
  r.instances = streams.instances();
  check_stopped(r);
  message(fmt::format("{} streams: {}", p.name, step_figures(r)));
  results::ScenarioStepX x;
  x.app = p.app;
  results::ScenarioMixedEntry e{doc, step_json(r, m_targets.size(), fmt::format("with {}", p.app), std::move(x)),
                                streams.start_offset_ns()};
  phase.streams_start_ns = e.streams_start_ns;
  add_step(phase, e.step);
  return json(e);
}

}  // namespace ptsuite::scenario::detail
