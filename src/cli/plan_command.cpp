// `ptsuite plan TESTS [--target DEV | --capacity SIZE]`: every step a run would take, its TC/QD,
// duration and bytes, with best- and worst-case totals, computed without touching the device
// (a --target is only opened read-only for its geometry and identity). Without either, the plan
// is for the scratch target `ptsuite run` creates.
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <optional>

#include <ptsuite/device/identity.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/pts/plan.hpp>
#include <ptsuite/pts/run_config.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>
#include "cli/commands.hpp"
#include "cli/flags.hpp"
#include "cli/path_roles.hpp"
#include "cli/run_common.hpp"
#include "cli/spec_options.hpp"
#include "cli/target_option.hpp"

namespace ptsuite::cli {

namespace {

struct PlanOptions {
  std::string tests = "core";
  std::string target;
  std::string capacity;
  uint32_t logical_block = 512;
  SpecOptions spec;
  std::optional<double> write_mbps;       // --assume-write-mbps: overrides the target's figure
  std::optional<std::string> purge_time;  // --assume-purge
  bool json = false;
  bool summary = false;
};

// The plan's assumptions: fitted to the target when one is given (its purge method and the
// drive's own estimates; identification is read-only), then the --assume-* options on top.
pts::PlanAssumptions assumptions_of(const PlanOptions& o, const pts::Settings& settings, uint64_t capacity_bytes) {
  pts::PlanAssumptions a;
  if (o.target.empty() && o.capacity.empty()) {  // the scratch loop device a run creates
    device::DeviceIdentity scratch;
    scratch.transport = device::Transport::loop;
    scratch.capacity_bytes = capacity_bytes;
    scratch.purge.discard = true;
    a = pts::plan_assumptions_for(scratch, settings.text("purge.method"));
  } else if (!o.target.empty()) {
    try {
      a = pts::plan_assumptions_for(device::identify(o.target), settings.text("purge.method"));
    } catch (const Error&) {
      // Not identifiable (no permission for pass-through): the generic assumptions stand.
    }
  }
  if (o.write_mbps) {
    if (!(*o.write_mbps > 0) || !(*o.write_mbps < 1e9)) {
      throw UsageError("--assume-write-mbps", "must be above 0 MB/s and below 10^9");
    }
    a.write_mb_per_s = *o.write_mbps;
    a.write_basis = fmt::format("writes assumed at {} MB/s (--assume-write-mbps)", *o.write_mbps);
  }
  if (o.purge_time) {
    a.purge_ns = units::parse_duration_ns(*o.purge_time, "--assume-purge");
    a.purge_basis = fmt::format("purges assumed at {} (--assume-purge)", units::format_duration(a.purge_ns));
  }
  return a;
}

// `ptsuite plan --json`: what was planned, on what, under which assumptions, and the steps of
// the worst case.
struct PlanReport {
  std::vector<std::string> tests;
  pts::SpecContext ctx;
  pts::TargetFacts facts;
  pts::PlanAssumptions assumptions;
  uint64_t best_case_ns = 0;
  const pts::Plan& worst;
};

void to_json(nlohmann::json& j, const PlanReport& r) {
  j = nlohmann::json{{"tests", r.tests},
                     {"revision", r.ctx.revision},
                     {"profile", r.ctx.profile},
                     {"capacity_bytes", r.facts.capacity_bytes},
                     {"logical_block_bytes", r.facts.logical_block_bytes},
                     {"assumptions", r.assumptions},
                     {"best_case_ns", r.best_case_ns},
                     {"worst_case_ns", r.worst.total_ns},
                     {"steps", r.worst.steps}};
}

int run_plan(const PlanOptions& o) {
  const std::vector<std::string> tests = pts::tests_for_revision(pts::parse_test_list(o.tests), o.spec.revision);
  pts::TargetFacts facts;
  if (!o.target.empty() && !o.capacity.empty()) {
    throw UsageError("--capacity", "give either --target or --capacity, not both");
  }
  std::string what;  // the target planned for, for the first line
  if (!o.target.empty()) {
    const engine::Target t = engine::Target::open_read_only(o.target);
    facts = {t.geometry().capacity_bytes, t.geometry().logical_block_bytes};
    what = o.target;
  } else if (!o.capacity.empty()) {
    facts = {units::parse_capacity_bytes(o.capacity, "--capacity"), o.logical_block};
    what = "a " + units::format_size_human(facts.capacity_bytes) + " target";
  } else {  // what `ptsuite run` without --target runs on
    facts = {units::parse_size_bytes(RunOptions{}.scratch_size, "--scratch-size"), 512};
    what = "the " + units::format_size_human(facts.capacity_bytes) + " scratch target (no --target or --capacity)";
  }
  const pts::SpecContext ctx{o.spec.revision, o.spec.profile};
  const pts::DefinitionSet& defs = pts::DefinitionSet::embedded();
  const pts::Settings settings = pts::Settings::build(defs, ctx, o.spec.presets(), o.spec.overrides());
  const pts::PlanAssumptions assumptions = assumptions_of(o, settings, facts.capacity_bytes);
  const pts::Plan worst = pts::make_plan(tests, defs, ctx, settings, facts, pts::PlanCase::worst, assumptions);
  const pts::Plan best = pts::make_plan(tests, defs, ctx, settings, facts, pts::PlanCase::best, assumptions);
  if (o.json) {
    fmt::print("{}\n", nlohmann::json(PlanReport{tests, ctx, facts, assumptions, best.total_ns, worst}).dump(1));
    return 0;
  }
  fmt::print("Plan of `ptsuite run {}`: PTS {} {} profile, {} ({}, {}-byte logical blocks){}\n", o.tests, ctx.revision,
             ctx.profile, what, units::format_size_human(facts.capacity_bytes), facts.logical_block_bytes,
             o.spec.quick ? ", --quick (not compliant: shortened)" : "");
  if (!o.summary) {
    fmt::print("Every step of the worst case (no steady state before the Round cap):\n");
    fmt::print("{:>6}  {:<34} {:<28} {:>7} {:>11} {:>11} {:>11}\n", "#", "step", "workload", "TC/QD", "duration",
               "bytes", "at");
    uint64_t at = 0;
    for (size_t i = 0; i < worst.steps.size(); ++i) {
      const pts::PlanStep& s = worst.steps[i];
      const std::string toio = s.threads > 0 ? fmt::format("{}/{}", s.threads, s.queue_depth) : "-";
      fmt::print("{:>6}  {:<34} {:<28} {:>7} {:>11} {:>11} {:>11}\n", i + 1, s.id, s.label, toio,
                 (s.estimated ? "~" : "") + units::format_duration(s.duration_ns),
                 s.bytes > 0 ? units::format_size_human(s.bytes) : "-", units::format_duration(at));
      at += s.duration_ns;
    }
  }
  fmt::print("Steps: {} at most, {} if steady at the first check everywhere.\n", worst.steps.size(), best.steps.size());
  fmt::print(
      "Estimated duration: {} best case (steady state at the first check), {} worst case (Round cap everywhere).\n",
      units::format_duration(best.total_ns), units::format_duration(worst.total_ns));
  fmt::print(
      "Assumptions (~): {}; {}; {}; real times depend on the drive and the host's load (a run measures the step "
      "overhead on its target before it plans, and its ETA replaces each figure with what it measures).\n",
      assumptions.purge_basis, assumptions.write_basis, assumptions.overhead_basis);
  return 0;
}

}  // namespace

void register_plan_command(CLI::App& app, CommandSlot& slot) {
  auto o = std::make_shared<PlanOptions>();
  CLI::App* sub =
      app.add_subcommand("plan", "Print every step of a run and its duration estimate, without touching the device");
  sub->add_option(
         "tests", o->tests,
         "Tests, comma-separated, or core (the five core tests) or all (every PTS test: core + hir, xsr, dirth)")
      ->check(paths::none())
      ->capture_default_str();
  add_shared_option(sub, "--target", o->target, "Device or file (opened read-only for its capacity)")
      ->check(paths::target_read());
  add_shared_option(sub, "--capacity", o->capacity,
                    "Capacity to plan for instead of a target, as drive makers write it: 3.84TB (decimal), 894GiB")
      ->check(paths::none());
  sub->add_option("--logical-block", o->logical_block, "Logical block size with --capacity")
      ->check(paths::none())
      ->check(whole_number())
      ->capture_default_str();
  add_spec_options(sub, o->spec);
  sub->add_option("--assume-write-mbps", o->write_mbps,
                  "Write rate assumed for byte-limited steps (MB/s; default: 500, or the target's kind)")
      ->check(paths::none());
  sub->add_option("--assume-purge", o->purge_time,
                  "Time assumed per purge (default: 2min, or the target's own estimate / a discard's seconds)")
      ->check(paths::none());
  add_shared_flag(sub, "--json", o->json, "Machine-readable plan on stdout");
  sub->add_flag("--summary", o->summary, "Only the totals");
  sub->callback([o, &slot] {
    slot.fields = FieldFlags{{"target", "--target"}};
    slot.action = [o] {
      (void)resolve_target_option(o->target);
      return run_plan(*o);
    };
  });
}

}  // namespace ptsuite::cli
