// The summary of a replay phase per target (results/scenario.hpp's `replays`) that the scenario
// HTML, summary.txt and CSV print: the capture's and the replay's IOs, IOPS and MB/s (each the
// sum of its steps' IOs and bytes over the sum of their lengths, measured the same way on both:
// replay/step_meter.hpp), the issue-time error (p50 / p99 / max over the whole replay) and the
// steps that could not keep up. Private to report/scenario.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <ptsuite/results/replay.hpp>
#include <ptsuite/results/scenario.hpp>

namespace ptsuite::report::scenario_detail {

struct ReplayTotals {
  uint64_t ios = 0;
  uint64_t bytes = 0;
  double iops = 0;
  double mb_per_s = 0;  // 10^6 bytes per second
};

struct ReplayRow {
  uint32_t target = 0;
  const results::ReplayRecord* record = nullptr;
  ReplayTotals captured;
  ReplayTotals replayed;
  std::vector<size_t> behind;  // the steps (1-based) that could not keep up
};

// The figures of a set of steps: IOs and bytes summed, rates over the summed lengths.
ReplayTotals replay_totals(const std::vector<const results::ReplayFigures*>& steps);

std::vector<ReplayRow> replay_rows(const results::PhaseRecord& phase);

// "kept up in all 3 steps", "could not keep up in 2 of 3 steps (2, 3)"; "no step" when none;
// a closed loop is measured by its rate only ("closed loop: as fast as the target").
std::string kept_up_text(const ReplayRow& row);

// An issue-time error in microseconds, one decimal: 1234 -> "1.2"; a dash in closed loop (the
// error is an open loop's: IOs have no scheduled time there).
std::string us_text(const results::ReplayRecord& r, uint64_t ns);

// "open, speed 2" / "closed"
std::string replay_mode_text(const results::ReplayRecord& r);

}  // namespace ptsuite::report::scenario_detail
