// Contract: large, deterministic scenario results documents ("ptsuite.scenario") at the scale of
// the published reviews, for the scenario report tests. Each step's record is written by the
// runner's own scenario::step_record() from synthetic workload results (a seeded, plausible
// latency distribution recorded into real IoStats and interval series): nothing here computes
// what the runner or the reporters compute. Same arguments, same document (byte for byte).
//   txq_sweep        `targets` drives x a `points`-point 8 KiB 70/30 TC x QD sweep (the reviews'
//                    8 drives x 16 points)
//   write_pressure   one drive, reads at QD 32 while a write stream steps 10, 20, ... MB/s
//                    (`steps` steps; the reviews' 85 = 10 -> 850 MB/s), each step with a 100 ms
//                    interval series whose last interval is a short tail at twice the rate
//   load_curves      `targets` drives x the 17 named profiles, each a peak and a 10-point curve
//   mixed            a mixed phase: pgbench on `app_instances` targets (targets 1..n, one progress
//                    line a second for `seconds`) while a 70/30 4 KiB stream runs on each of
//                    `stream_targets` more with a 1 s interval series over the same period
#pragma once

#include <cstddef>

#include <nlohmann/json.hpp>

namespace ptsuite::test_support {

nlohmann::json scenario_txq_sweep(size_t targets, size_t points);
nlohmann::json scenario_write_pressure(size_t steps);
nlohmann::json scenario_load_curves(size_t curves, size_t targets);
nlohmann::json scenario_mixed(size_t app_instances, size_t stream_targets, size_t seconds);

}  // namespace ptsuite::test_support
