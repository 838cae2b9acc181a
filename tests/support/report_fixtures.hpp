// Contract: typed records of the application, replay and capture reports at the reviews' scale,
// for the report tests (layout in the browser, the statistic-order check, the report gallery).
// Deterministic: the same arguments give the same record.
//   app_run_fixture      an application run of `instances` instances ("pgbench" or "sysbench"):
//                        each instance's figures parsed from the checked-in driver output
//                        (tests/data/app/) by the app module's own parsers, its TPS series
//                        scaled a little per instance (so the lines differ); the aggregate by
//                        app::aggregate_instances(); one target and identity per instance; the
//                        device capture = the built-in pgbench capture's characterization
//   replay_record_fixture  a replay of `steps` steps (100 ms each) whose every step holds
//                        `sizes_per_step` block sizes (512 B multiples from 4 KiB), captured
//                        and replayed counts equal except in every 5th step (one IO short)
//   capture_fixture      the built-in pgbench capture (pts/captures/) characterized in steps of
//                        `step_ns` by capture::characterize_bytes()
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <ptsuite/results/app_run.hpp>
#include <ptsuite/results/io_characterization.hpp>
#include <ptsuite/results/replay.hpp>

namespace ptsuite::test_support {

results::AppRun app_run_fixture(const std::string& driver, size_t instances);
results::ReplayRecord replay_record_fixture(size_t steps, size_t sizes_per_step);
results::IoCharacterization capture_fixture(uint64_t step_ns);

}  // namespace ptsuite::test_support
