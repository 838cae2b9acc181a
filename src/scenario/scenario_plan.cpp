// plan_scenario(): every step a scenario runs, with its time (scenario_plan.hpp).
#include <ptsuite/scenario/scenario_plan.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include <ptsuite/replay/replay_plan.hpp>
#include <ptsuite/replay/replay_source.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::scenario {

namespace {

// The PTS steady-state window: the earliest Round at which steady state can be found.
constexpr uint32_t k_window_rounds = 5;

void add(ScenarioPlan& plan, const PhaseSpec& p, const std::string& label, bool timed = true) {
  const size_t n = 1 + static_cast<size_t>(std::count_if(plan.steps.begin(), plan.steps.end(),
                                                         [&](const PlannedStep& s) { return s.phase == p.name; }));
  plan.steps.push_back({fmt::format("{}/{}", p.name, n), p.name, to_string(p.kind), label, timed ? p.warmup_ns : 0,
                        timed ? p.duration_ns : 0, timed, false});
}

// A replay phase: open loop takes the capture's span (first issue to last completion) / speed;
// closed loop as long as the target needs (untimed).
void add_replay(ScenarioPlan& plan, const PhaseSpec& p) {
  PlannedStep step{p.name + "/replay", p.name, "replay", replay_label(p), 0, 0, false, false};
  if (!p.closed_loop) {
    const replay::ReplaySource source({p.capture});
    const replay::ReplayPlan r = replay::plan_replay(*source.open(), 0, p.step_ns);
    const double span_ns = static_cast<double>(r.end_ns - std::min(r.first_issue_ns, r.end_ns));
    step.duration_ns = static_cast<uint64_t>(std::ceil(span_ns / p.speed));
    step.timed = true;
  }
  plan.steps.push_back(std::move(step));
}

// The labels the runner gives its steps (scenario_runner.cpp).
void expand(ScenarioPlan& plan, const PhaseSpec& p) {
  switch (p.kind) {
    case PhaseKind::purge:
      plan.steps.push_back({p.name + "/purge", p.name, "purge", "purge " + p.purge_method, 0, 0, false, false});
      return;
    case PhaseKind::fill:
      add(plan, p,
          fmt::format("SEQ {} W, {}x capacity", units::format_size_binary(p.fill_block_bytes),
                      p.fill_capacity_multiple),
          false);
      return;
    case PhaseKind::run:
      add(plan, p, p.duration_ns > 0 ? "run" : "run (until its byte amount)", p.duration_ns > 0);
      return;
    case PhaseKind::txq:
      for (const TxqPoint& pt : p.txq) add(plan, p, fmt::format("TC {} / QD {}", pt.threads, pt.queue_depth));
      return;
    case PhaseKind::rate_ramp:
      for (const double pct : p.percents) add(plan, p, fmt::format("{:g} % of peak", pct));
      return;
    case PhaseKind::rate_steps:
      for (const double rate : p.step_rates) {
        add(plan, p, fmt::format("{} {:g} {}", p.step_stream, rate, p.step_mb_per_s ? "MB/s" : "IOPS"));
      }
      return;
    case PhaseKind::steady_state:
      for (uint32_t round = 1; round <= p.max_rounds; ++round) {
        add(plan, p, fmt::format("Round {}", round));
        plan.steps.back().beyond_best_case = round > k_window_rounds;
      }
      return;
    case PhaseKind::app:
      plan.steps.push_back({p.name + "/app", p.name, "app", "application " + p.app, 0, 0, false, false});
      return;
    case PhaseKind::replay:
      add_replay(plan, p);
      return;
  }
}

}  // namespace

std::string replay_label(const PhaseSpec& p) {
  const std::string builtin = replay::builtin_capture_path(p.capture);
  return fmt::format("replay {} ({} loop{})", builtin.empty() ? p.capture : builtin, p.closed_loop ? "closed" : "open",
                     p.closed_loop ? "" : fmt::format(", speed {:g}", p.speed));
}

ScenarioPlan plan_scenario(const Scenario& s) {
  ScenarioPlan plan;
  for (const PhaseSpec& p : s.phases) expand(plan, p);
  for (const PlannedStep& step : plan.steps) {
    const uint64_t t = step.warmup_ns + step.duration_ns;
    plan.total_ns += t;
    plan.best_ns += step.beyond_best_case ? 0 : t;
    plan.untimed += step.timed ? 0 : 1;
  }
  return plan;
}

uint64_t remaining_after(const ScenarioPlan& plan, const std::string& key) {
  const auto it =
      std::find_if(plan.steps.begin(), plan.steps.end(), [&](const PlannedStep& s) { return s.key == key; });
  if (it == plan.steps.end()) return 0;
  uint64_t left = 0;
  for (auto next = it + 1; next != plan.steps.end(); ++next) left += next->warmup_ns + next->duration_ns;
  return left;
}

}  // namespace ptsuite::scenario
