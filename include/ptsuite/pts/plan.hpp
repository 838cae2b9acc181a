// Contract: the plan of a run, computed WITHOUT touching the device by running the real test
// logic over PlanningExecutor, which fabricates step results. Because the plan and the run
// execute the same code, the plan lists exactly the steps a run takes.
//   best case:  every tracking variable is steady from the first check (Round 5) on, WSAT
//               stops at the capacity multiple written at the assumed write rate;
//   worst case: nothing ever attains steady state (every phase runs max_rounds, whatever its
//               tracking metric: IOPS, MB/s and response times all swing 3x Round by Round)
//               and WSAT runs to its time limit.
// Byte-limited steps (WIPC) are timed at an assumed write rate and purges at an assumed
// duration (both disclosed with the plan; actual times depend on the drive).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/device/identity.hpp>
#include <ptsuite/pts/test_procedure.hpp>

namespace ptsuite::pts {

enum class PlanCase { best, worst };

// What the plan cannot know before the run, each with where the figure comes from (shown by
// `ptsuite plan`, the run's first ETA and results.json "plan"); plan_assumptions_for() fits them
// to a known target, and the run's ETA replaces them with measurements (eta.hpp).
struct PlanAssumptions {
  double write_mb_per_s = 500;          // decimal MB/s for byte-limited steps
  uint64_t purge_ns = 120'000'000'000;  // 2 minutes per purge
  uint64_t step_overhead_ns = 0;        // wall time a segment takes beyond its length
  std::string write_basis = "writes assumed at 500 MB/s";
  std::string purge_basis = "purges assumed at 2 min";
};

// The assumptions for a target and the run's purge method (the setting purge.method, "auto"
// resolved as the run would):
//   loop, zram, file   the purge is a discard: about 1 s + 1 s per 10 GB; writes 1000 MB/s;
//   ATA security erase the drive's IDENTIFY word 89 (or 90, enhanced) estimate;
//   NVMe sanitize      the drive's Sanitize Status log estimate for the action, when it gives one;
//   anything else      2 minutes per purge (NVMe Format and SCSI give no estimate).
// Every segment: a step overhead of 40 ms (thread start, buffers, histogram merge and journal
// write: 35-50 ms measured per step of `ptsuite run --quick` on the 2-core CI machine kind).
PlanAssumptions plan_assumptions_for(const device::DeviceIdentity& target, const std::string& purge_method);

struct PlanStep {
  std::string id;    // StepId::text()
  std::string kind;  // "segment", "purge", ...
  std::string label;
  uint32_t threads = 0;
  uint32_t queue_depth = 0;
  uint64_t max_block_bytes = 0;  // largest block size of a segment (its IO buffers' size)
  uint64_t duration_ns = 0;
  uint64_t bytes = 0;      // bytes to transfer (limit, or estimate for timed steps)
  bool estimated = false;  // duration derived from an assumption
};

class PlanningExecutor : public StepExecutor {
 public:
  PlanningExecutor(PlanCase plan_case, PlanAssumptions assumptions) : m_case(plan_case), m_assumptions(assumptions) {}

  nlohmann::json execute(const StepId& id, const StepRequest& request) override;
  void replayed(const StepId&, const StepRequest&, const nlohmann::json&) override {}

  [[nodiscard]] const std::vector<PlanStep>& steps() const noexcept { return m_steps; }

 private:
  PlanCase m_case;
  PlanAssumptions m_assumptions;
  std::vector<PlanStep> m_steps;
  std::vector<std::pair<std::string, uint64_t>> m_calls;  // per segment slot: how often run
};

struct Plan {
  std::vector<PlanStep> steps;
  uint64_t total_ns = 0;  // the steps' durations + step_overhead_ns per segment
  PlanAssumptions assumptions;
};

// Runs every test of `test_ids` over a PlanningExecutor. `base` supplies defs/spec/settings/
// target; its executor is ignored.
Plan make_plan(const std::vector<std::string>& test_ids, const DefinitionSet& defs, const SpecContext& spec,
               const Settings& settings, TargetFacts target, PlanCase plan_case, PlanAssumptions assumptions);

// The plan of a planner's steps: total_ns adds assumptions.step_overhead_ns per segment.
Plan plan_of(std::vector<PlanStep> steps, const PlanAssumptions& assumptions);

void to_json(nlohmann::json& j, const PlanStep& step);
void to_json(nlohmann::json& j, const PlanAssumptions& assumptions);

// A fabricated result with the given combined IOPS and latency over `elapsed_ns`, split between
// read and write by the segment's mix (used for planning and by tests).
SegmentResult synthetic_segment_result(const SegmentSpec& spec, double iops, uint64_t latency_ns, uint64_t elapsed_ns);

}  // namespace ptsuite::pts
