// `ptsuite preflight TARGET [TESTS] [--profile ...] [--quick] [--set ...] [--engine E] [--json]`:
// the host preflight (device/preflight.hpp, docs/preflight.md) for the run those options
// describe, without running it: TARGET is opened read-only for its geometry (the plan's
// needs) and read-only for its health (temperature); nothing is written anywhere.
// Prints one line per finding ("warning  cpu_governor: ...") and a final verdict line, or with
// --json the findings as results.json records them.
// Exit 0: info only; 1: warnings (a run starts, but --strict-preflight would refuse it);
// 3: errors (a run would be refused); 2: bad input (no such target, bad options).
#include <fmt/format.h>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include <ptsuite/device/preflight.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/pts/plan.hpp>
#include <ptsuite/pts/run.hpp>
#include <ptsuite/util/error.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"
#include "cli/path_roles.hpp"
#include "cli/spec_options.hpp"
#include "cli/target_option.hpp"

namespace ptsuite::cli {

namespace {

struct PreflightOptions {
  std::string target;
  std::string tests = "core";
  SpecOptions spec;
  std::string engine = "libaio";
  bool json = false;
};

device::PreflightNeeds needs_of(const PreflightOptions& o) {
  pts::RunConfig config;
  config.tests = pts::tests_for_revision(pts::parse_test_list(o.tests), o.spec.revision);
  config.target = o.target;
  config.engine = o.engine;
  const engine::Target target = engine::Target::open_read_only(o.target);
  const pts::TargetFacts facts{target.geometry().capacity_bytes, target.geometry().logical_block_bytes};
  const pts::SpecContext ctx{o.spec.revision, o.spec.profile};
  const pts::DefinitionSet& defs = pts::DefinitionSet::embedded();
  const pts::Settings settings = pts::Settings::build(defs, ctx, o.spec.presets(), o.spec.overrides());
  const pts::Plan worst = pts::make_plan(config.tests, defs, ctx, settings, facts, pts::PlanCase::worst, {});
  return pts::preflight_needs(worst, config);
}

int run_preflight_command(const PreflightOptions& o) {
  const device::PreflightReport report = device::preflight_target(o.target, needs_of(o));
  const size_t warnings = report.count(device::PreflightSeverity::warning);
  const size_t errors = report.count(device::PreflightSeverity::error);
  if (o.json) {
    fmt::print("{}\n", nlohmann::json(report).dump(1));
  } else {
    for (const device::PreflightFinding& f : report.findings) {
      fmt::print("{:<8} {}: {}\n", to_string(f.severity), f.check, f.message);
    }
    fmt::print("{}: {} error(s), {} warning(s) for {}\n",
               errors > 0     ? "REFUSE"
               : warnings > 0 ? "WARN"
                              : "OK",
               errors, warnings, o.target);
  }
  return errors > 0     ? static_cast<int>(ExitCode::refused)
         : warnings > 0 ? static_cast<int>(ExitCode::negative_verdict)
                        : static_cast<int>(ExitCode::success);
}

}  // namespace

void register_preflight_command(CLI::App& app, CommandSlot& slot) {
  auto o = std::make_shared<PreflightOptions>();
  CLI::App* sub = app.add_subcommand(
      "preflight", "Check the host and target before a run (read-only): PCIe link, governor, scheduler, ...");
  sub->add_option("TARGET", o->target, "Block device or file a run would use")->check(paths::target_read())->required();
  sub->add_option("tests", o->tests, "Tests the run would run (for its needs), comma-separated, or core / all")
      ->check(paths::none())
      ->capture_default_str();
  add_spec_options(sub, o->spec);
  add_shared_option(sub, "--engine", o->engine, "IO engine the run would use: libaio, sync, null")
      ->check(paths::none())
      ->capture_default_str();
  add_shared_flag(sub, "--json", o->json, "The findings as JSON on stdout");
  sub->callback([o, &slot] {
    slot.fields = FieldFlags{{"engine", "--engine"}, {"target", "TARGET"}};
    slot.action = [o] {
      (void)resolve_target_option(o->target);
      return run_preflight_command(*o);
    };
  });
}

}  // namespace ptsuite::cli
