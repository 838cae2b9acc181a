// run_scenario(): phases -> steps -> concurrent stream instances (scenario_runner.hpp); the
// phases are run by detail::PhaseRunner (phase_runner.hpp), a step by detail::run_step
// (scenario_steps.hpp). check_scenario(): every phase's instances resolved before any IO.
#include <ptsuite/scenario/scenario_runner.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <ptsuite/device/purge.hpp>
#include <ptsuite/util/error.hpp>

#include "scenario/phase_runner.hpp"
#include "scenario/scenario_replay.hpp"
#include "scenario/scenario_steps.hpp"

namespace ptsuite::scenario {

void run_scenario(const Scenario& s, const std::vector<ScenarioTarget>& targets, const ScenarioRunOptions& options,
                  std::vector<results::ScenarioPhaseOut>& phases) {
  if (targets.empty()) throw UsageError("--target", "a scenario needs at least one target");
  if (s.targets.exact && targets.size() != s.targets.count) {
    throw UsageError("--target", fmt::format("{} needs exactly {} targets (roles: {}); {} given", s.name,
                                             s.targets.count, fmt::join(s.targets.names, ", "), targets.size()));
  }
  phases.clear();
  detail::PhaseRunner(s, targets, options).run(phases);
}

namespace {

using detail::fill_instances;
using detail::Instance;
using detail::instances_of;
using detail::limits_of;
using detail::mixed_instances;
using detail::rate_step_streams;
using detail::txq_streams;

// Every stream instance a phase can run, as the runner builds them (a rate ramp at 1 IOPS: its
// rates are known only when it runs, and never change what resolve() checks).
std::vector<std::vector<Instance>> phase_instances(const PhaseSpec& p, size_t n, const ScenarioRunOptions& o) {
  std::vector<std::vector<Instance>> out;
  switch (p.kind) {
    case PhaseKind::purge:
    case PhaseKind::replay:
      break;
    case PhaseKind::app:
      if (!p.streams.empty()) out.push_back(mixed_instances(p, n, o));
      break;
    case PhaseKind::fill:
      out.push_back(fill_instances(p, n, o));
      break;
    case PhaseKind::run:
    case PhaseKind::steady_state:
      out.push_back(instances_of(p.streams, n, limits_of(p), o));
      break;
    case PhaseKind::txq:
      for (const TxqPoint& pt : p.txq) out.push_back(instances_of(txq_streams(p, pt), n, limits_of(p), o));
      break;
    case PhaseKind::rate_ramp:
      out.push_back(instances_of(p.streams, n, limits_of(p), o));
      for (Instance& i : out.back()) i.spec.rate.iops = 1;
      break;
    case PhaseKind::rate_steps:
      for (const double rate : p.step_rates) {
        out.push_back(instances_of(rate_step_streams(p, rate), n, limits_of(p), o));
      }
      break;
  }
  return out;
}

}  // namespace

void check_scenario(const Scenario& s, const std::vector<engine::TargetGeometry>& targets,
                    const ScenarioRunOptions& options) {
  for (const PhaseSpec& p : s.phases) {
    if (p.kind == PhaseKind::replay) detail::check_replay(p, targets);
    if (p.kind == PhaseKind::purge) {
      try {
        (void)device::parse_purge_method(p.purge_method);
      } catch (const UsageError&) {
        throw UsageError(fmt::format("phase {}: purge_method", p.name),
                         fmt::format("unknown purge method \"{}\" (one of: {}); nothing was written", p.purge_method,
                                     fmt::join(device::purge_method_names(), ", ")));
      }
    }
    for (const std::vector<Instance>& step : phase_instances(p, targets.size(), options)) {
      for (const Instance& in : step) {
        try {
          (void)workload::resolve(in.spec, targets.at(in.target));
        } catch (const UsageError& e) {
          throw UsageError(fmt::format("phase {}: stream {} on target {}", p.name, in.stream, in.target + 1),
                           fmt::format("{}; nothing was written", e.what()));
        }
      }
    }
  }
}

}  // namespace ptsuite::scenario
