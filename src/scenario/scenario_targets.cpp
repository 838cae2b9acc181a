// The targets of a scenario run (scenario_targets.hpp).
#include "scenario/scenario_targets.hpp"

#include <fmt/format.h>
#include <algorithm>

#include <ptsuite/app/definition.hpp>
#include <ptsuite/device/purge.hpp>
#include <ptsuite/results/scenario_writers.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::scenario::detail {

void open_device(OpenTarget& t, const std::string& path, const ScenarioRunConfig& c, bool scratch) {
  device::SessionOptions so;
  so.allow_destructive = c.allow_destructive || scratch;
  t.guard = device::pass_target_gate({path, device::TargetAccess::read_write, so.allow_destructive, "scenario"});
  t.session = device::DeviceSession::open(t.guard.writable(), so);
  t.target.emplace(engine::Target::open(t.guard.writable()));
}

std::vector<std::unique_ptr<OpenTarget>> open_targets(const ScenarioRunConfig& c, uint32_t needed,
                                                      device::OutputGate& outputs) {
  std::vector<std::unique_ptr<OpenTarget>> out;
  const bool scratch = c.targets.empty();
  const size_t n = scratch ? needed : c.targets.size();
  for (size_t i = 0; i < n; ++i) {
    auto t = std::make_unique<OpenTarget>();
    if (scratch) t->scratch.emplace(engine::ScratchTarget::create(c.scratch_size_bytes, true));
    const std::string path = scratch ? t->scratch->path() : c.targets[i];
    outputs.add_target(path, "--target");
    open_device(*t, path, c, scratch);
    t->identity = results::scenario_target_identity(t->session->identity(), path, scratch);
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<ScenarioTarget> runner_targets(const Scenario& s, const ScenarioRunConfig& c,
                                           const std::vector<std::unique_ptr<OpenTarget>>& opened) {
  const bool purges =
      std::any_of(s.phases.begin(), s.phases.end(), [](const PhaseSpec& p) { return p.kind == PhaseKind::purge; });
  std::vector<ScenarioTarget> out;
  for (const auto& t : opened) {
    const device::DeviceIdentity& id = t->session->identity();
    std::optional<std::string> confirm;
    for (const std::string& serial : c.confirm_serials) {
      if (!id.serial.empty() && serial == id.serial) confirm = serial;
    }
    if (purges && !t->scratch) device::require_serial_confirmation(id, confirm);
    out.push_back({&*t->target, t->session.get(), confirm});
  }
  return out;
}

void check_against_targets(const Scenario& s, const ScenarioRunConfig& c,
                           const std::vector<std::unique_ptr<OpenTarget>>& opened) {
  std::vector<engine::TargetGeometry> geometries;
  for (const auto& t : opened) geometries.push_back(t->target->geometry());
  ScenarioRunOptions ro;
  ro.engine = c.engine;
  check_scenario(s, geometries, ro);
  // app phases: their settings (ranges, agreement) and the targets' size, as `app run` checks.
  for (const PhaseSpec& p : s.phases) {
    if (p.kind != PhaseKind::app) continue;
    try {
      const app::AppConfig config = app::resolve_app(app::load_app(p.app), c.quick, p.app_settings);
      for (size_t i = 0; i < opened.size(); ++i) {
        const bool used =
            p.app_targets.empty() || std::find(p.app_targets.begin(), p.app_targets.end(), i) != p.app_targets.end();
        if (used) app::check_capacity(config, opened[i]->target->path(), geometries[i].capacity_bytes);
      }
    } catch (const UsageError& e) {
      throw UsageError(fmt::format("phase {}", p.name), fmt::format("{}; nothing was written", e.what()));
    }
  }
}

}  // namespace ptsuite::scenario::detail
