// Test double for StepExecutor: fabricates segment results whose IOPS / latency come from a
// callback of (StepId, SegmentSpec, call number), and records every step it was asked for.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <ptsuite/pts/step_executor.hpp>

namespace ptsuite::pts::testing {

// A SegmentResult with the given combined IOPS over 1 s and constant latency, split by mix.
SegmentResult synthetic_result(const SegmentSpec& spec, double iops, uint64_t latency_ns);

class FakeExecutor : public StepExecutor {
 public:
  using ValueFn = std::function<double(const StepId&, const SegmentSpec&)>;
  using LatencyFn = std::function<uint64_t(const StepId&, const SegmentSpec&)>;
  explicit FakeExecutor(ValueFn iops, uint64_t latency_ns = 100'000)
      : m_iops(std::move(iops)), m_latency([latency_ns](const StepId&, const SegmentSpec&) { return latency_ns; }) {}
  FakeExecutor(ValueFn iops, LatencyFn latency) : m_iops(std::move(iops)), m_latency(std::move(latency)) {}

  nlohmann::json execute(const StepId& id, const StepRequest& request) override;
  void replayed(const StepId& id, const StepRequest& request, const nlohmann::json& result) override;

  std::vector<std::string> executed;                  // StepId::text() of every executed step, in order
  std::vector<std::string> replays;                   // ... and of every replayed one
  std::vector<SegmentSpec> segments;                  // the spec of every executed segment, in order
  nlohmann::json purge_result = {{"kind", "purge"}};  // what purge steps return

 private:
  ValueFn m_iops;
  LatencyFn m_latency;
};

}  // namespace ptsuite::pts::testing
