// The scenario's phases in order and the measured phase kinds (phase_runner.hpp).
#include "scenario/phase_runner.hpp"

#include <fmt/format.h>
#include <algorithm>

#include <ptsuite/device/purge.hpp>
#include <ptsuite/pts/steady_state_rule.hpp>
#include <ptsuite/results/scenario_writers.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::scenario::detail {

using nlohmann::json;

// Appends each phase to `phases` before running it, so that a stop leaves every finished
// step in place.
void PhaseRunner::run(std::vector<results::ScenarioPhaseOut>& phases) {
  for (const PhaseSpec& p : m_s.phases) {
    results::ScenarioPhaseOut out;
    out.name = p.name;
    out.kind = to_string(p.kind);
    out.duration_ns = p.duration_ns;
    if (p.warmup_ns > 0) out.warmup_ns = p.warmup_ns;
    phases.push_back(std::move(out));
    m_figures.emplace_back();
    run_phase(p, phases.back());
  }
}

void PhaseRunner::measured(const PhaseSpec& p, results::ScenarioPhaseOut& phase, std::vector<Instance> in,
                           std::string label, results::ScenarioStepX x) {
  const std::string key = fmt::format("{}/{}", p.name, phase.steps.size() + 1);
  if (std::optional<json> done = replayed(key)) {
    add_step(phase, std::move(*done));
    return;
  }
  if (p.warmup_ns > 0) warm_up(p, in, key);
  const StepResult r = run_step(std::move(in), m_targets, key, m_o);
  check_stopped(r);  // an interrupted step is dropped whole: it runs again on resume
  message(fmt::format("{} {}: {}", key, label, step_figures(r)));
  json step = step_json(r, m_targets.size(), std::move(label), std::move(x));
  if (m_o.on_step) m_o.on_step(key, step);
  add_step(phase, std::move(step));
}

// segment_warmup: the step's instances for the warm-up time, results discarded (not journaled;
// a resumed step warms up again).
void PhaseRunner::warm_up(const PhaseSpec& p, const std::vector<Instance>& in, const std::string& key) {
  std::vector<Instance> warm = in;
  for (Instance& i : warm) {
    i.spec.limits = {};
    i.spec.limits.duration_ns = p.warmup_ns;
    i.spec.interval_ns = 0;
  }
  check_stopped(run_step(std::move(warm), m_targets, key + "/warmup", m_o));
}

// A step (or purge) recorded by an earlier session of this run, if any.
std::optional<json> PhaseRunner::replayed(const std::string& key) const {
  std::optional<json> done = m_o.replay ? m_o.replay(key) : std::nullopt;
  if (done) message(fmt::format("{}: done before the interruption (journal)", key));
  return done;
}

void PhaseRunner::run_phase(const PhaseSpec& p, results::ScenarioPhaseOut& phase) {
  const size_t n = m_targets.size();
  switch (p.kind) {
    case PhaseKind::purge:
      purge(p, phase);
      return;
    case PhaseKind::fill:
      fill(p, phase);
      return;
    case PhaseKind::run:
      measured(p, phase, instances_of(p.streams, n, limits_of(p), m_o), "run", {});
      return;
    case PhaseKind::txq:
      for (const TxqPoint& pt : p.txq) {
        results::ScenarioStepX x;
        x.threads = pt.threads;
        x.queue_depth = pt.queue_depth;
        measured(p, phase, instances_of(txq_streams(p, pt), n, limits_of(p), m_o),
                 fmt::format("TC {} / QD {}", pt.threads, pt.queue_depth), std::move(x));
      }
      return;
    case PhaseKind::rate_ramp:
      ramp(p, phase);
      return;
    case PhaseKind::rate_steps:
      steps(p, phase);
      return;
    case PhaseKind::steady_state:
      steady_state(p, phase);
      return;
    case PhaseKind::app:
      app(p, phase);
      return;
    case PhaseKind::replay:
      replay_phase(p, phase);
      return;
  }
}

void PhaseRunner::purge(const PhaseSpec& p, results::ScenarioPhaseOut& phase) {
  const std::string key = p.name + "/purge";
  if (std::optional<json> done = replayed(key)) {
    phase.purges = std::move(*done);
    return;
  }
  json records = json::array();
  for (size_t t = 0; t < m_targets.size(); ++t) {
    if (m_targets[t].session == nullptr) throw Error(ExitCode::system, "purge needs a device session");
    device::PurgeOptions options;
    options.method = device::parse_purge_method(p.purge_method);
    options.allow_destructive = m_o.allow_destructive;
    options.confirm_serial = m_targets[t].confirm_serial;
    options.on_message = m_o.on_message;
    const device::PurgeRecord rec = m_targets[t].session->purge(options);
    if (rec.outcome != device::PurgeOutcome::succeeded) {
      throw Error(ExitCode::system, fmt::format("purge of target {} {}: {}", t + 1, device::to_string(rec.outcome),
                                                rec.messages.empty() ? rec.description : rec.messages.back()));
    }
    records.push_back(results::scenario_purge_entry(rec, static_cast<uint32_t>(t)));
    message(fmt::format("{}: target {} purged ({})", p.name, t + 1, rec.description));
  }
  if (m_o.on_step) m_o.on_step(key, records);
  phase.purges = std::move(records);
}

void PhaseRunner::fill(const PhaseSpec& p, results::ScenarioPhaseOut& phase) {
  results::ScenarioStepX x;
  x.capacity_multiple = p.fill_capacity_multiple;
  measured(
      p, phase, fill_instances(p, m_targets.size(), m_o),
      fmt::format("SEQ {} W, {}x capacity", units::format_size_binary(p.fill_block_bytes), p.fill_capacity_multiple),
      std::move(x));
}

// 100 % = each target's aggregate IOPS in the last step of the `percent_of` phase.
void PhaseRunner::ramp(const PhaseSpec& p, results::ScenarioPhaseOut& phase) {
  const auto ref =
      std::find_if(m_s.phases.begin(), m_s.phases.end(), [&](const PhaseSpec& d) { return d.name == p.percent_of; });
  const size_t index = static_cast<size_t>(ref - m_s.phases.begin());
  if (ref == m_s.phases.end() || index + 1 >= m_figures.size() || m_figures[index].empty()) {
    throw UsageError(p.name, fmt::format("percent_of \"{}\" measured nothing", p.percent_of));
  }
  const std::vector<results::SummaryRecord> last = m_figures[index].back();
  for (const double pct : p.percents) {
    std::vector<Instance> in = instances_of(p.streams, m_targets.size(), limits_of(p), m_o);
    results::ScenarioStepX x;
    x.percent = pct;
    x.instance_rates_iops.emplace();
    for (Instance& i : in) {
      const double peak = last.at(i.target).combined.iops;
      i.spec.rate.iops = std::max(1.0, peak * pct / 100.0);
      x.instance_rates_iops->push_back(i.spec.rate.iops);
    }
    measured(p, phase, std::move(in), fmt::format("{:g} % of peak", pct), std::move(x));
  }
}

void PhaseRunner::steps(const PhaseSpec& p, results::ScenarioPhaseOut& phase) {
  for (const double rate : p.step_rates) {
    results::ScenarioStepX x;
    (p.step_mb_per_s ? x.rate_mbps : x.rate_iops) = rate;
    measured(p, phase, instances_of(rate_step_streams(p, rate), m_targets.size(), limits_of(p), m_o),
             fmt::format("{} {:g} {}", p.step_stream, rate, p.step_mb_per_s ? "MB/s" : "IOPS"), std::move(x));
  }
}

double PhaseRunner::variable_of(const results::SummaryRecord& summary, const std::string& variable) {
  if (variable == "mb_per_s") return summary.combined.mb_per_s;
  if (variable == "mean_latency") return summary.combined.latency.mean_ns;
  return summary.combined.iops;
}

void PhaseRunner::steady_state(const PhaseSpec& p, results::ScenarioPhaseOut& phase) {
  const pts::SteadyStateCriteria& criteria = pts::common_steady_state_rule().criteria;  // pts/common.json
  std::vector<std::vector<double>> values(m_targets.size());
  std::vector<uint32_t> rounds;
  results::ScenarioSteadyStateOut out;
  out.verdicts = json::array();
  bool attained = false;
  for (uint32_t round = 1; round <= p.max_rounds && !attained; ++round) {
    results::ScenarioStepX x;
    x.round = round;
    measured(p, phase, instances_of(p.streams, m_targets.size(), limits_of(p), m_o), fmt::format("Round {}", round),
             std::move(x));
    rounds.push_back(round);
    out.verdicts = json::array();
    attained = true;
    for (size_t t = 0; t < m_targets.size(); ++t) {
      values[t].push_back(variable_of(m_figures.back().back().at(t), p.variable));
      const pts::SteadyStateVerdict v =
          pts::evaluate_window(fmt::format("target {} {}", t, p.variable), rounds, values[t], criteria);
      attained = attained && v.attained;
      out.verdicts.push_back(v);
    }
  }
  out.attained = attained;
  out.variable = p.variable;
  out.rounds_run = rounds.size();
  out.max_rounds = p.max_rounds;
  phase.steady_state = std::move(out);
  message(fmt::format("{}: steady state {} after {} Round(s)", p.name, attained ? "attained" : "NOT attained",
                      rounds.size()));
}

}  // namespace ptsuite::scenario::detail
