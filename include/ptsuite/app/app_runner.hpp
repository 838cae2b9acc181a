// Contract: `ptsuite app run` (docs/app.md): an application on one or more targets, end to end.
//   1. the configuration is resolved (every setting checked: exit 2 before anything)
//   2. leftovers of killed runs are cleaned up (app/run_state.hpp)
//   3. every target passes the device safety gate (device/session.hpp: consent, mounted /
//      in-use / root refusals, exit 3) and, for real drives, --confirm-serial; its identity is
//      recorded; the claim is released right before mkfs (mount then holds the device
//      exclusively). Without a target, one scratch loop device per instance in /dev/shm.
//   4. the output directory is created; the marker is written before each thing is set up
//   5. per instance, in parallel: filesystem, its memory cgroup, its own server, load, warm-up
//   6. the measured period: every instance's driver at once, the block IO of every instance's
//      device captured (capture/block_capture.hpp) and characterized afterwards
//   7. always, also on errors and Ctrl-C: servers stopped, filesystems unmounted, cgroups and
//      the marker removed; results.json written with the status.
// The returned exit code: 0, 130 (interrupted), or the failing Error's code (the results then
// say why). Safety refusals and bad input throw before anything exists: every setting within
// its documented range (app/definition.hpp), --instances from 1 to k_max_instances, scratch
// instances within the host's free RAM and /dev/shm, a given target large enough for the
// database (docs/app.md, "Bounds").
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/results/app_run.hpp>
#include <ptsuite/util/output_file.hpp>

namespace ptsuite::app {

// --instances: 1 to 16 (each a server of its own and, without --target, a scratch device in RAM).
inline constexpr uint32_t k_max_instances = 16;

struct AppRunRequest {
  std::string app;
  bool quick = false;
  std::vector<std::string> sets;     // "name=value"
  std::vector<std::string> targets;  // empty: scratch loop devices
  // Not given: one per target (or 1 scratch). Given: 1 to k_max_instances scratch instances, or
  // the number of targets.
  std::optional<uint32_t> instances;
  bool allow_destructive = false;
  std::vector<std::string> confirm_serials;
  std::optional<OutputDir> output_dir;  // the output gate's token (device/output_gate.hpp)
  bool capture = true;
  std::string command;
  std::string tool_version;
  const std::atomic<bool>* stop = nullptr;
  std::function<void(const std::string&)> log;
  // Called once, on the runner's thread, right when the measured period begins (before the
  // drivers start): its CLOCK_MONOTONIC start and its length. A scenario's mixed phase starts
  // its synthetic streams here, so both run over the same period (docs/scenarios.md).
  std::function<void(uint64_t start_monotonic_ns, uint64_t duration_ns)> on_measured_start;
};

struct AppRunOutcome {
  results::AppRun run;
  int exit_code = 0;
};

AppRunOutcome run_app(const AppRunRequest& request);

// The aggregate over instances: TPS / QPS / transactions summed; mean latency weighted by
// transactions; percentiles and maximum the worst instance's (the reviews' "worst-case");
// the series summed interval by interval.
results::AppInstanceResult aggregate_instances(const std::vector<results::AppInstanceResult>& instances);

}  // namespace ptsuite::app
