// Contract: the plan of a run, computed WITHOUT touching the device by running the real test
// logic over PlanningExecutor, which fabricates step results. Because the plan and the run
// execute the same code, the plan lists exactly the steps a run takes.
//   best case:  every tracking variable is steady from the first check (Round 5) on, WSAT
//               stops at the capacity multiple written at the assumed write rate;
//   worst case: nothing ever attains steady state (every phase runs max_rounds, whatever its
//               tracking metric: IOPS, MB/s and response times all swing 3x Round by Round)
//               and WSAT runs to its time limit.
// Byte-limited steps (WIPC) are timed at an assumed write rate for their TC x QD and purges at
// an assumed duration (both disclosed with the plan; actual times depend on the drive). Every
// segment adds the overhead a step takes beyond its length (thread and engine set-up, drain,
// the result's journal) and every health snapshot its time: plan_probe.hpp measures both on
// the run's target before the run plans, so the worst case bounds the run on a loaded host.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/device/identity.hpp>
#include <ptsuite/pts/test_procedure.hpp>

namespace ptsuite::pts {

enum class PlanCase { best, worst };

// A write rate at one TC x QD (decimal MB/s), measured on the target (plan_probe.hpp).
struct WriteRate {
  uint32_t threads = 0;
  uint32_t queue_depth = 0;
  double mb_per_s = 0;
};

// What the plan cannot know before the run, each with where the figure comes from (shown by
// `ptsuite plan`, the run's first ETA and results.json "plan"); plan_assumptions_for() fits them
// to a known target, plan_probe.hpp measures the overheads (and a scratch target's write rates)
// on it, and the run's ETA replaces them with what the run measures (eta.hpp).
struct PlanAssumptions {
  double write_mb_per_s = 500;         // decimal MB/s for byte-limited steps at a TC x QD not in write_rates
  std::vector<WriteRate> write_rates;  // per TC x QD, measured (a margin applied)
  // The rate of sequential byte-limited steps (WIPC), when it is known apart from the random
  // ones': a simulated drive's fresh-out-of-box rate (sequential writes invalidate whole blocks,
  // so GC moves nothing and the write amplification is 1 however full the drive); 0: the rates
  // above, as for any step.
  double sequential_write_mb_per_s = 0;
  uint64_t purge_ns = 120'000'000'000;  // 2 minutes per purge
  uint64_t step_overhead_ns = 0;        // wall time a segment takes beyond its length, per segment
  uint64_t overhead_per_thread_ns = 0;  // ... and per worker thread of the segment
  uint64_t overhead_per_mib_ns = 0;     // ... and per MiB of its IO buffers (segment_footprint_bytes)
  uint64_t health_ns = 0;               // wall time of a health snapshot
  // The segment overhead is part of the segment's own elapsed time, which a time-limited loop
  // counts (a simulated drive's drain behind GC: run_sim.cpp), not host time around it.
  bool overhead_in_elapsed = false;
  // The console adds the ETA's likely time left (eta.hpp: EtaRemaining::likely_ns): a simulated
  // drive's plan (run_sim.cpp), where it is measured within 10 % (docs/sim.md); a real drive's
  // console keeps its worst and best case only (docs/plan-and-eta.md).
  bool show_likely = false;
  // The results document is written whole after every test (pts/run.cpp): its JSON at this many
  // ns per byte, the document k_record_bytes_per_step per step of the tests run so far.
  double document_ns_per_byte = 0;  // plan_assumptions_for(): 20 (50 MB/s, nlohmann::json's dump)
  std::string write_basis = "writes assumed at 500 MB/s";
  std::string purge_basis = "purges assumed at 2 min";
  std::string overhead_basis = "step overhead assumed";

  // The write rate of a byte-limited step at `threads` x `queue_depth`.
  [[nodiscard]] double write_rate(uint32_t threads, uint32_t queue_depth) const;
  // The wall time a segment takes beyond its length.
  [[nodiscard]] uint64_t segment_overhead_ns(uint32_t threads, uint64_t footprint_bytes) const;
};

// The IO buffers a segment allocates and fills: queue depth x its largest block per thread.
constexpr uint64_t segment_footprint_bytes(uint32_t threads, uint32_t queue_depth, uint64_t max_block_bytes) {
  return uint64_t{threads} * queue_depth * max_block_bytes;
}

// The assumptions for a target and the run's purge method (the setting purge.method, "auto"
// resolved as the run would):
//   loop, zram, file   the purge is a discard: about 1 s + 1 s per 10 GB; writes 1000 MB/s;
//   ATA security erase the drive's IDENTIFY word 89 (or 90, enhanced) estimate;
//   NVMe sanitize      the drive's Sanitize Status log estimate for the action, when it gives one;
//   anything else      2 minutes per purge (NVMe Format and SCSI give no estimate).
// Every segment: a step overhead of 40 ms (thread start, buffers, histogram merge and journal
// write: 35-50 ms measured per step of `ptsuite run --quick` on the 2-core CI machine kind), a
// floor that plan_probe.hpp raises to what the target and the host's load make it.
PlanAssumptions plan_assumptions_for(const device::DeviceIdentity& target, const std::string& purge_method);

struct PlanStep {
  std::string id;    // StepId::text()
  std::string kind;  // "segment", "purge", ...
  std::string label;
  uint32_t threads = 0;
  uint32_t queue_depth = 0;
  uint64_t max_block_bytes = 0;  // largest block size of a segment (its IO buffers' size)
  uint64_t duration_ns = 0;
  uint64_t bytes = 0;        // bytes to transfer (limit, or estimate for timed steps)
  bool estimated = false;    // duration derived from an assumption
  uint64_t overhead_ns = 0;  // wall time beyond duration_ns: a segment's overhead, a health snapshot's time
  // A step of a loop with a time limit (StepRequest::plan_time_limit_ns: WSAT's samples and
  // their health snapshots), the loop named by its test and phase ("wsat/main"); 0 and "" else.
  uint64_t loop_time_limit_ns = 0;
  std::string loop;
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

// What results.json holds per step of a run, at most: 5-6.5 KB per step measured in quick
// runs of IOPS (1.41 MB, 287 steps) and CBW (1.76 MB, 272 steps); a bound for the document
// writes of the plan.
inline constexpr uint64_t k_record_bytes_per_step = 8192;

struct Plan {
  std::vector<PlanStep> steps;
  uint64_t total_ns = 0;      // the steps' durations + their overheads + the results document writes
  uint64_t documents_ns = 0;  // of which: writing results.json after every test
  PlanAssumptions assumptions;
};

// Runs every test of `test_ids` over a PlanningExecutor. `base` supplies defs/spec/settings/
// target; its executor is ignored.
Plan make_plan(const std::vector<std::string>& test_ids, const DefinitionSet& defs, const SpecContext& spec,
               const Settings& settings, TargetFacts target, PlanCase plan_case, PlanAssumptions assumptions);

// The plan of a planner's steps: total_ns sums their durations and overheads, and after each
// test (the first part of a step id) the results document of every step so far.
Plan plan_of(std::vector<PlanStep> steps, const PlanAssumptions& assumptions);

void to_json(nlohmann::json& j, const PlanStep& step);
void to_json(nlohmann::json& j, const PlanAssumptions& assumptions);

// A fabricated result with the given combined IOPS and latency over `elapsed_ns`, split between
// read and write by the segment's mix (used for planning and by tests).
SegmentResult synthetic_segment_result(const SegmentSpec& spec, double iops, uint64_t latency_ns, uint64_t elapsed_ns);

}  // namespace ptsuite::pts
