// Private to src/scenario: a step's stream instances and how one is run (scenario_runner.hpp).
// A step is a set of stream instances (a stream on a target, with its workload); run_step()
// resolves every instance against its target first (all input errors before any IO), then runs
// them concurrently, one thread each. Seeds are per step (step_seed), so a step's offsets do not
// depend on what ran before it and a resumed run repeats them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/scenario.hpp>
#include <ptsuite/scenario/scenario_runner.hpp>
#include <ptsuite/workload/workload_runner.hpp>

namespace ptsuite::scenario::detail {

using Instance = StepInstance;

struct StepResult {
  std::vector<Instance> instances;
  std::vector<workload::WorkloadResult> results;
};

// The limits of one step of a phase: its duration, byte amount and interval series.
struct StepLimits {
  uint64_t duration_ns = 0;
  uint64_t bytes = 0;
  double bytes_range_multiple = 0;
  uint64_t interval_ns = 0;
};

// The run seed mixed with the step's text (FNV-1a 64).
uint64_t step_seed(uint64_t run_seed, const std::string& text);
StepLimits limits_of(const PhaseSpec& p);

// Each stream on each target it names, with the step's limits.
std::vector<Instance> instances_of(const std::vector<StreamSpec>& streams, size_t target_count, const StepLimits& l,
                                   const ScenarioRunOptions& o);
// The streams of a TxQ point and of a rate step (shared by the run and the pre-check).
std::vector<StreamSpec> txq_streams(const PhaseSpec& p, const TxqPoint& pt);
std::vector<StreamSpec> rate_step_streams(const PhaseSpec& p, double rate);
// A fill phase: each target written sequentially, `fill_capacity_multiple` x its capacity.
std::vector<Instance> fill_instances(const PhaseSpec& p, size_t target_count, const ScenarioRunOptions& o);
// A mixed phase's streams: "each" on each target the application does not use.
std::vector<Instance> mixed_instances(const PhaseSpec& p, size_t target_count, const ScenarioRunOptions& o);

// Resolves every instance (seeds set from `step_text`), then runs them concurrently.
StepResult run_step(std::vector<Instance> instances, const std::vector<ScenarioTarget>& targets,
                    const std::string& step_text, const ScenarioRunOptions& o);
nlohmann::json step_json(const StepResult& r, size_t target_count, std::string label, results::ScenarioStepX x);
// Throws (interrupted / io_error) when any instance of the step stopped early.
void check_stopped(const StepResult& r);
// "12345 IOPS, 12.3 MB/s, mean 80.1us": what a step measured, over all its instances.
std::string step_figures(const StepResult& r);

}  // namespace ptsuite::scenario::detail
