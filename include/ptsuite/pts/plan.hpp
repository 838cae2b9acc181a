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

#include <ptsuite/pts/pts_test.hpp>

namespace ptsuite::pts {

enum class PlanCase { best, worst };

struct PlanAssumptions {
  double write_mb_per_s = 500;          // decimal MB/s for byte-limited steps
  uint64_t purge_ns = 120'000'000'000;  // 2 minutes per purge
};

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
  uint64_t total_ns = 0;
};

// Runs every test of `test_ids` over a PlanningExecutor. `base` supplies defs/spec/settings/
// target; its executor is ignored.
Plan make_plan(const std::vector<std::string>& test_ids, const DefinitionSet& defs, const SpecContext& spec,
               const Settings& settings, TargetFacts target, PlanCase plan_case, PlanAssumptions assumptions);

void to_json(nlohmann::json& j, const PlanStep& step);

// A fabricated result with the given combined IOPS and latency over `elapsed_ns`, split between
// read and write by the segment's mix (used for planning and by tests).
SegmentResult synthetic_segment_result(const SegmentSpec& spec, double iops, uint64_t latency_ns, uint64_t elapsed_ns);

}  // namespace ptsuite::pts
