// Private to src/scenario: the synthetic streams of a mixed phase (an app phase with streams,
// scenario_runner.hpp). Every instance is resolved against its target when constructed (bad
// input before the application starts); start() launches them, one thread each, when the
// application's measured period begins, for its length; finish() (the application completed)
// waits for them and returns what each measured. The destructor stops and joins, so an
// application that failed or threw never leaves a stream running.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include <ptsuite/scenario/scenario_runner.hpp>
#include <ptsuite/workload/workload_runner.hpp>

namespace ptsuite::scenario::detail {

class MixedStreams {
 public:
  // `instances` with their seeds set; `key` names the step in errors.
  MixedStreams(std::vector<StepInstance> instances, const std::vector<ScenarioTarget>& targets, const std::string& key);
  MixedStreams(const MixedStreams&) = delete;
  MixedStreams& operator=(const MixedStreams&) = delete;
  ~MixedStreams();

  // The measured period began at `start_monotonic_ns` and lasts `duration_ns`.
  void start(uint64_t start_monotonic_ns, uint64_t duration_ns);
  [[nodiscard]] bool started() const { return m_started; }
  // How long after the measured period's start the streams were launched (ns).
  [[nodiscard]] uint64_t start_offset_ns() const { return m_offset_ns; }
  // Joins, rethrows a stream's error; results[i] is what instances()[i] measured.
  std::vector<workload::WorkloadResult> finish();
  [[nodiscard]] const std::vector<StepInstance>& instances() const { return m_instances; }

 private:
  void join();

  std::vector<StepInstance> m_instances;
  const std::vector<ScenarioTarget>& m_targets;
  std::vector<workload::ResolvedWorkload> m_resolved;
  std::vector<workload::WorkloadResult> m_results;
  std::vector<std::exception_ptr> m_errors;
  std::atomic<bool> m_stop{false};
  std::vector<std::jthread> m_threads;
  bool m_started = false;
  uint64_t m_offset_ns = 0;
};

}  // namespace ptsuite::scenario::detail
