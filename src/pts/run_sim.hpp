// Private to the run layer: a run on a simulated drive (`--engine sim`, docs/sim.md). The
// settings sim.model and sim.scale name the model (pts/sim/<model>.json) and its dilation;
// check_sim_config() refuses what cannot be a simulated run before anything is touched (exit 2):
// --engine sim without sim.model, sim.model with a real engine, --target with --engine sim.
// SimDrive is what the run knows of the drive in place of a target and a session: the dilated
// model, its synthetic identity (model "SIMULATED <model>", serial "SIM-<model>-<seed>", source
// "simulated": history never files it with a real drive), the target record, the plan's
// assumptions in the drive's virtual time, and the results' "simulation" record. The run's
// simulated RunDrive (run_drive.hpp: open_sim_drive(), in run_sim.cpp) is made of them.
#pragma once

#include <cstdint>
#include <string>

#include <ptsuite/device/identity.hpp>
#include <ptsuite/engine/sim_device.hpp>
#include <ptsuite/pts/plan.hpp>
#include <ptsuite/pts/run_config.hpp>
#include <ptsuite/pts/settings.hpp>
#include <ptsuite/pts/sim_executor.hpp>
#include <ptsuite/results/run_header.hpp>
#include <ptsuite/results/simulation.hpp>

namespace ptsuite::pts::detail {

inline constexpr const char* k_sim_engine = "sim";

[[nodiscard]] inline bool is_sim_engine(const std::string& engine) { return engine == k_sim_engine; }

// UsageError (exit 2) naming the flag or setting to change.
void check_sim_config(const RunConfig& config, const Settings& settings);

struct SimDrive {
  std::string name;   // "dc500r"
  std::string title;  // the model file's title
  std::string sha256;
  double scale = 1;
  engine::SimModel model;  // dilated
  uint64_t seed = 1;       // the run seed
};

SimDrive sim_drive(const Settings& settings, uint64_t seed);
device::DeviceIdentity sim_identity(const SimDrive& drive);
results::TargetRecord sim_target_record(const SimDrive& drive, const engine::TargetGeometry& geometry);
// Derived from the model (run_sim.cpp): writes at its saturated rate (greedy GC's write
// amplification), every segment drains behind one GC episode; purges and health take no time.
PlanAssumptions sim_plan_assumptions(const SimDrive& drive);
// The record results.json carries ("simulation"), without the counts the run fills in.
results::SimulationRecord sim_record(const SimDrive& drive, uint64_t capacity_bytes);
// "2026-12-02T15:00:00Z" -> seconds since 1970 (the run's start: virtual time 0); 0 if unreadable.
int64_t unix_seconds_of(const std::string& utc);

}  // namespace ptsuite::pts::detail
