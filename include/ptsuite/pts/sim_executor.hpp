// Contract: the executor of a simulated run (docs/sim.md). It carries out every step on one
// simulated drive (engine::SimDevice) in virtual time: segment steps are the same workloads the
// device executor would run (DeviceExecutor::workload_for: the same seeds, ranges and
// patterns), run by workload::run_simulated_workload() on the model; purge steps format the
// model back to fresh-out-of-box; idle steps advance the virtual clock without IO; health steps
// return an empty snapshot (source "none"). Every time a step records (elapsed, started_utc,
// finished_utc, intervals) is the drive's virtual clock, which this executor owns and which the
// caller reads through clock(): started_utc = epoch_unix_s + the virtual time.
// Resume: replayed() re-executes the journaled step's IO on the model (the same workload and
// seeds, so the same flash state and virtual clock; deterministic on any machine) without
// recording it or reporting progress, then restores the sequential positions the journal
// holds: after the journaled steps the drive is the one an uninterrupted run had there.
// Not thread-safe; one per run.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include <ptsuite/device/write_cache.hpp>
#include <ptsuite/engine/sim_device.hpp>
#include <ptsuite/pts/device_executor.hpp>
#include <ptsuite/pts/step_executor.hpp>
#include <ptsuite/workload/sim_runner.hpp>

namespace ptsuite::pts {

// The purge method a simulated drive's purge step records (the model formatted back to FOB): a
// value of the results schema's purge_method enum next to device::purge_method_names().
inline constexpr const char* k_simulated_purge_method = "simulated-format";
// The write-cache mechanism of a simulated drive's records (the schema's write_cache_state enum).
inline constexpr const char* k_simulated_write_cache_mechanism = "simulated";

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
  // IOs simulated so far (every segment and warm-up, replayed steps included).
  [[nodiscard]] uint64_t simulated_ios() const noexcept { return m_ios; }
  // Of which re-executed by replayed() to rebuild the drive's state on resume.
  [[nodiscard]] uint64_t replayed_ios() const noexcept { return m_replayed_ios; }
  // epoch_unix_s + the virtual time, ISO 8601 UTC: the stamp of anything that happens now.
  [[nodiscard]] std::string virtual_utc() const;
  // The write cache the run applies (the profile's WCE / WCD): set on the model
  // (SimDevice::set_write_cache), kept across purges (a format does not reset it) and read back
  // into every later purge record's write_cache_after_purge, as the device executor does.
  void set_write_cache(bool enabled);
  // The model's write cache as a device reports it (applicable, mechanism "simulated").
  [[nodiscard]] device::WriteCacheState write_cache_state() const;

 private:
  nlohmann::json run_segment_step(const StepId& id, const SegmentSpec& spec);
  workload::WorkloadResult run(const workload::WorkloadSpec& ws, workload::WorkloadState* state,
                               const workload::RunControl& control);

  engine::SimDevice m_device;
  SimRunParams m_params;
  DeviceExecutor m_workloads;  // only for workload_for(): the device executor's workloads
  workload::VirtualClock m_clock;
  std::map<std::string, workload::WorkloadState> m_cursors;
  uint64_t m_ios = 0;
  uint64_t m_replayed_ios = 0;
  bool m_replaying = false;               // inside replayed(): no progress reported
  std::optional<bool> m_cache_requested;  // set_write_cache()'s last state; none: never set
};

}  // namespace ptsuite::pts
