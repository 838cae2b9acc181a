// Contract: what a scenario will run, step by step, before anything runs (`ptsuite scenario plan`,
// and the plan `scenario run` prints first and times its ETA from). plan_scenario() expands every
// phase exactly as the runner does (the same step keys "<phase>/<n>" and "<phase>/purge", the
// same labels): run 1 step, txq one per point, rate_ramp one per percentage, rate_steps one per
// rate, steady_state one per Round (planned at its cap, max_rounds; at the earliest 5 Rounds,
// the PTS window), fill 1 step, purge one record per phase, app one ("<phase>/app"), replay one
// ("<phase>/replay", every target at once).
// Each step's time is its warm-up plus its duration; an open-loop replay takes the capture's
// span (its first issue to its last completion) / speed. A fill, a purge, an app run, a closed-
// loop replay and a byte-limited run take as long as the drive needs: they are listed as untimed
// (duration 0, `timed` false) and the total says so. No IO on any target; a replay phase's
// capture is read (UsageError when it cannot be). Units: ns.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <ptsuite/scenario/scenario.hpp>

namespace ptsuite::scenario {

struct PlannedStep {
  std::string key;    // "pressure/3", "purge/purge": the runner's journal key
  std::string phase;  // the phase's name
  std::string kind;   // "rate_steps", ...
  std::string label;  // "writes 30 MB/s", "TC 4 / QD 8", "Round 2", ...
  uint64_t warmup_ns = 0;
  uint64_t duration_ns = 0;  // measured time; 0 when untimed
  bool timed = true;
  bool beyond_best_case = false;  // a steady-state Round after the 5th: only when not yet steady
};

struct ScenarioPlan {
  std::vector<PlannedStep> steps;
  uint64_t total_ns = 0;  // every timed step, steady-state phases at their Round cap (worst case)
  uint64_t best_ns = 0;   // steady-state phases at 5 Rounds
  size_t untimed = 0;     // fills, purges, app runs, closed-loop replays and byte-limited runs
};

ScenarioPlan plan_scenario(const Scenario& s);

// The label of a replay phase's step: "replay captures/pgbench.ptcap (open loop, speed 2)".
std::string replay_label(const PhaseSpec& p);

// Time still to run after the planned step `key` finished (worst case); 0 when unknown.
uint64_t remaining_after(const ScenarioPlan& plan, const std::string& key);

}  // namespace ptsuite::scenario
