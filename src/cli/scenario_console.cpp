#include "cli/scenario_console.hpp"

#include <fmt/format.h>
#include <algorithm>

#include <ptsuite/util/units.hpp>

namespace ptsuite::cli {

namespace {

std::string step_time(const scenario::PlannedStep& s) {
  if (!s.timed) return "as the drive needs";
  return s.warmup_ns > 0 ? fmt::format("{} + {} warm-up", units::format_duration(s.duration_ns),
                                       units::format_duration(s.warmup_ns))
                         : units::format_duration(s.duration_ns);
}

std::string untimed_note(const scenario::ScenarioPlan& plan) {
  return plan.untimed == 0 ? ""
                           : fmt::format(
                                 ", plus {} fill / purge / app / closed-loop replay / byte-limited step(s) whose time "
                                 "depends on the drive",
                                 plan.untimed);
}

}  // namespace

std::string scenario_plan_text(const scenario::Scenario& s, const scenario::ScenarioPlan& plan, size_t targets) {
  std::string out =
      fmt::format("scenario {} - {}: {} step(s) on {} target(s)\n", s.name, s.title, plan.steps.size(), targets);
  out += fmt::format("  {:>4}  {:<24} {:<13} {:<32} {:>22} {:>12}\n", "#", "phase", "kind", "step", "time", "ends at");
  uint64_t at_ns = 0;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const scenario::PlannedStep& st = plan.steps[i];
    at_ns += st.warmup_ns + st.duration_ns;
    out += fmt::format("  {:>4}  {:<24} {:<13} {:<32} {:>22} {:>12}{}\n", i + 1, st.phase, st.kind, st.label,
                       step_time(st), st.timed ? units::format_duration(at_ns) : std::string("-"),
                       st.beyond_best_case ? "  (only while not steady)" : "");
  }
  out += fmt::format("total: {} at most", units::format_duration(plan.total_ns));
  if (plan.best_ns != plan.total_ns) {
    out += fmt::format(" ({} when every steady-state phase settles at its 5th Round)",
                       units::format_duration(plan.best_ns));
  }
  return out + untimed_note(plan) + "\n";
}

std::string scenario_plan_summary(const scenario::ScenarioPlan& plan) {
  return fmt::format("plan: {} step(s), {} at most{} (`ptsuite scenario plan` lists them)", plan.steps.size(),
                     units::format_duration(plan.total_ns), untimed_note(plan));
}

std::string scenario_eta_text(const scenario::ScenarioPlan& plan, const std::string& key, uint64_t now_unix_s) {
  const auto it =
      std::find_if(plan.steps.begin(), plan.steps.end(), [&](const scenario::PlannedStep& s) { return s.key == key; });
  if (it == plan.steps.end()) return "";
  const uint64_t left_ns = scenario::remaining_after(plan, key);
  const uint64_t eta = now_unix_s + left_ns / 1'000'000'000ULL;
  return fmt::format("(step {} of {}; {} left at most, ETA {:02}:{:02} UTC)", it - plan.steps.begin() + 1,
                     plan.steps.size(), units::format_duration(left_ns), (eta / 3600) % 24, (eta / 60) % 60);
}

}  // namespace ptsuite::cli
