// Contract: the executor of a simulated run (docs/sim.md). It carries out every step on one
// simulated drive (engine::SimDevice) in virtual time: segment steps are the same workloads the
// device executor would run (DeviceExecutor::workload_for: the same seeds, ranges and
// patterns), run by workload::run_simulated_workload() on the model; purge steps format the
// model back to fresh-out-of-box; idle steps advance the virtual clock without IO; health steps
// return an empty snapshot (source "none"). Every time a step records (elapsed, started_utc,
// finished_utc, intervals) is the drive's virtual clock, which this executor owns and which the
// caller reads through clock(): started_utc = epoch_unix_s + the virtual time.
// Resume: replayed() restores sequential positions only; the model's flash state after the
// journaled steps is not rebuilt (docs/sim.md: open).
// Not thread-safe; one per run.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include <ptsuite/engine/sim_device.hpp>
#include <ptsuite/pts/device_executor.hpp>
#include <ptsuite/pts/step_executor.hpp>
#include <ptsuite/workload/sim_runner.hpp>

namespace ptsuite::pts {

struct SimRunParams {
  double active_range_pct = 100;
  uint64_t ar_amount_bytes = 0;
  uint32_t ar_segments = 1;
  bool align_to_logical_block = false;
  uint64_t seed = 1;
  int64_t epoch_unix_s = 0;  // the wall time virtual time 0 stands for (the records' UTC stamps)
  const std::atomic<bool>* stop = nullptr;
  std::function<void(const StepProgress&)> on_progress;
};

class SimExecutor : public StepExecutor {
 public:
  SimExecutor(engine::SimModel model, SimRunParams params);

  nlohmann::json execute(const StepId& id, const StepRequest& request) override;
  void replayed(const StepId& id, const StepRequest& request, const nlohmann::json& result) override;

  [[nodiscard]] const workload::VirtualClock& clock() const noexcept { return m_clock; }
  [[nodiscard]] engine::SimDevice& device() noexcept { return m_device; }
  [[nodiscard]] engine::TargetGeometry geometry() const noexcept;
  // IOs simulated so far (every segment and warm-up).
  [[nodiscard]] uint64_t simulated_ios() const noexcept { return m_ios; }

 private:
  nlohmann::json run_segment_step(const StepId& id, const SegmentSpec& spec);
  workload::WorkloadResult run(const workload::WorkloadSpec& ws, workload::WorkloadState* state,
                               const workload::RunControl& control);
  [[nodiscard]] std::string virtual_utc() const;

  engine::SimDevice m_device;
  SimRunParams m_params;
  DeviceExecutor m_workloads;  // only for workload_for(): the device executor's workloads
  workload::VirtualClock m_clock;
  std::map<std::string, workload::WorkloadState> m_cursors;
  uint64_t m_ios = 0;
};

}  // namespace ptsuite::pts
