// Contract: the executor that really does things. Segment steps become workloads
// (workload::run_workload) on the open target with the run-wide parameters (ActiveRange,
// data pattern, alignment, engine) and a per-step seed derived from the run seed and the
// StepId (so each segment's IO stream is repeatable and distinct); purge steps go to the
// run's device session (device::DeviceSession::purge: the safety gate, consent and serial
// rules, on the run's one exclusive claim), after which the profile's write-cache state is
// applied again and read back (recorded in the purge record as write_cache_after_purge);
// health steps take a device::HealthSnapshot through the session and feed the run's
// ThrottleMonitor; idle steps wait idle_ns of wall time with no IO (waking every 50 ms to
// honour the stop flag) and record the time actually idle.
// Sequential positions are kept per SegmentSpec::sequence_key and restored on replay.
// An IO error or an interruption ends the segment and is thrown as RunStopped (exit 4 / 130);
// such a segment is never returned, so it is never journaled.
// Not thread-safe; one per run. The Target and the session must outlive it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include <ptsuite/device/health.hpp>
#include <ptsuite/device/identity.hpp>
#include <ptsuite/device/purge.hpp>
#include <ptsuite/device/session.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/pts/step_executor.hpp>
#include <ptsuite/workload/workload_runner.hpp>

namespace ptsuite::pts {

struct DeviceRunParams {
  const engine::Target* target = nullptr;
  device::DeviceSession* session = nullptr;  // the run's claim: purge, write cache, health
  double active_range_pct = 100;
  // active_range.amount / .segments (pts/common.json): applied to random segments without LBA
  // zones only; 0 = the whole ActiveRange.
  uint64_t ar_amount_bytes = 0;
  uint32_t ar_segments = 1;
  workload::DataPattern data = workload::DataPattern::random;
  bool align_to_logical_block = false;  // the "alignment" setting: logical
  std::string engine = "libaio";
  uint64_t seed = 1;
  bool allow_destructive = false;
  std::optional<std::string> confirm_serial;
  device::PurgePolicy purge_policy;  // purge.accept_nvme_sanitize[_overwrite]
  const std::atomic<bool>* stop = nullptr;
  std::function<void(const StepProgress&)> on_progress;
  std::function<void(const std::string&)> on_message;
};

class DeviceExecutor : public StepExecutor {
 public:
  explicit DeviceExecutor(DeviceRunParams params) : m_params(std::move(params)) {}

  nlohmann::json execute(const StepId& id, const StepRequest& request) override;
  void replayed(const StepId& id, const StepRequest& request, const nlohmann::json& result) override;

  [[nodiscard]] const device::ThrottleMonitor& throttle() const noexcept { return m_throttle; }

  // The workload a segment step runs (exposed for tests and the results' disclosure).
  [[nodiscard]] workload::WorkloadSpec workload_for(const StepId& id, const SegmentSpec& spec) const;

 private:
  nlohmann::json run_segment_step(const StepId& id, const SegmentSpec& spec);
  // segment.warmup: the segment's stimulus for spec.warmup_ns, results discarded (an IO error or
  // a stop request stops the step as in the measured run).
  void warm_up(const StepId& id, const SegmentSpec& spec, workload::WorkloadState* state);
  nlohmann::json purge_step(const StepId& id, const std::string& method);
  nlohmann::json health_step();
  nlohmann::json idle_step(const StepId& id, uint64_t idle_ns);

  DeviceRunParams m_params;
  std::map<std::string, workload::WorkloadState> m_cursors;
  device::ThrottleMonitor m_throttle;
};

// splitmix64 of the run seed mixed with a FNV-1a hash of the step's text id.
uint64_t step_seed(uint64_t run_seed, const StepId& id) noexcept;

// Converts a finished workload into the segment record results.json stores.
SegmentResult to_segment_result(const workload::WorkloadResult& result, uint64_t seed, std::string started_utc,
                                std::string finished_utc);

}  // namespace ptsuite::pts
