// The streams of a mixed phase (scenario_mixed.hpp).
#include "scenario/scenario_mixed.hpp"

#include <fmt/format.h>

#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::scenario::detail {

MixedStreams::MixedStreams(std::vector<StepInstance> instances, const std::vector<ScenarioTarget>& targets,
                           const std::string& key)
    : m_instances(std::move(instances)), m_targets(targets) {
  for (const StepInstance& in : m_instances) {
    try {
      m_resolved.push_back(workload::resolve(in.spec, m_targets.at(in.target).target->geometry()));
    } catch (const UsageError& e) {
      throw UsageError(fmt::format("{}: stream {} on target {}", key, in.stream, in.target + 1), e.what());
    }
  }
  m_results.resize(m_instances.size());
  m_errors.resize(m_instances.size());
}

MixedStreams::~MixedStreams() { join(); }

void MixedStreams::start(uint64_t start_monotonic_ns, uint64_t duration_ns) {
  if (m_started) return;
  m_started = true;
  const uint64_t now = monotonic_ns();
  m_offset_ns = now > start_monotonic_ns ? now - start_monotonic_ns : 0;
  for (size_t i = 0; i < m_instances.size(); ++i) {
    m_resolved[i].spec.limits = {};
    m_resolved[i].spec.limits.duration_ns = duration_ns;
    m_threads.emplace_back([this, i] {
      workload::RunControl control;
      control.stop_requested = &m_stop;
      try {
        m_results[i] = workload::run_workload(m_resolved[i], *m_targets[m_instances[i].target].target, control);
      } catch (...) {
        m_errors[i] = std::current_exception();
      }
    });
  }
}

void MixedStreams::join() {
  m_stop = true;
  for (std::jthread& t : m_threads) {
    if (t.joinable()) t.join();
  }
  m_threads.clear();
}

std::vector<workload::WorkloadResult> MixedStreams::finish() {
  // They end at the measured period's length, before the application's teardown ends.
  for (std::jthread& t : m_threads) {
    if (t.joinable()) t.join();
  }
  m_threads.clear();
  for (const std::exception_ptr& e : m_errors) {
    if (e) std::rethrow_exception(e);
  }
  return std::move(m_results);
}

}  // namespace ptsuite::scenario::detail
