#include <ptsuite/pts/step_check.hpp>

#include <fmt/format.h>

#include <ptsuite/device/purge.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/workload/workload_spec.hpp>

namespace ptsuite::pts {

namespace {

// Resolves each step as the device executor would, then lets the planner fabricate its result.
class CheckingExecutor : public StepExecutor {
 public:
  CheckingExecutor(PlanningExecutor& planner, const DeviceRunParams& shape, const engine::TargetGeometry& geometry)
      : m_planner(planner), m_shape(shape), m_geometry(geometry) {}

  nlohmann::json execute(const StepId& id, const StepRequest& request) override {
    if (request.kind == StepKind::segment) {
      check_segment(id, request.segment);
    } else if (request.kind == StepKind::purge && request.purge_method != "none") {
      try {
        (void)device::parse_purge_method(request.purge_method);
      } catch (const UsageError& e) {
        throw UsageError(fmt::format("step {}: purge.method", id.text()),
                         fmt::format("unknown purge method \"{}\"; nothing was written", request.purge_method));
      }
    }
    return m_planner.execute(id, request);
  }
  void replayed(const StepId&, const StepRequest&, const nlohmann::json&) override {}

 private:
  void check_segment(const StepId& id, const SegmentSpec& spec) const {
    const workload::WorkloadSpec ws = m_shape.workload_for(id, spec);
    try {
      (void)workload::resolve(ws, m_geometry);
    } catch (const UsageError& e) {
      throw UsageError(fmt::format("step {} ({})", id.text(), spec.label),
                       fmt::format("{}; nothing was written", e.what()));
    }
  }

  PlanningExecutor& m_planner;
  const DeviceExecutor m_shape;
  const engine::TargetGeometry& m_geometry;
};

}  // namespace

Plan checked_worst_plan(const std::vector<std::string>& test_ids, const DefinitionSet& defs, const SpecContext& spec,
                        const Settings& settings, const engine::TargetGeometry& geometry, const DeviceRunParams& shape,
                        PlanAssumptions assumptions) {
  PlanningExecutor planner(PlanCase::worst, assumptions);
  DeviceRunParams params = shape;
  params.target = nullptr;
  params.session = nullptr;
  CheckingExecutor exec(planner, params, geometry);
  TestContext ctx{defs, spec, settings, exec, TargetFacts{geometry.capacity_bytes, geometry.logical_block_bytes}};
  for (const std::string& id : test_ids) {
    (void)make_test(id)->run(ctx);
  }
  return plan_of(planner.steps(), assumptions);
}

}  // namespace ptsuite::pts
