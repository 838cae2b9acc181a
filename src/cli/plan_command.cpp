// `ptsuite plan TESTS [--target DEV | --capacity SIZE]`: every step a run would take, its TC/QD,
// duration and bytes, with best- and worst-case totals, computed without touching the device
// (a --target is only opened read-only for its geometry).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <ptsuite/engine/target.hpp>
#include <ptsuite/pts/plan.hpp>
#include <ptsuite/pts/run_config.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>
#include "cli/commands.hpp"
#include "cli/spec_options.hpp"

namespace ptsuite::cli {

namespace {

struct PlanOptions {
  std::string tests = "all";
  std::string target;
  std::string capacity;
  uint32_t logical_block = 512;
  SpecOptions spec;
  double write_mbps = 500;
  std::string purge_time = "2min";
  bool json = false;
  bool summary = false;
};

int run_plan(const PlanOptions& o) {
  const std::vector<std::string> tests = pts::tests_for_revision(pts::parse_test_list(o.tests), o.spec.revision);
  pts::TargetFacts facts;
  if (!o.target.empty() && !o.capacity.empty()) {
    throw UsageError("--capacity", "give either --target or --capacity, not both");
  }
  if (!o.target.empty()) {
    const engine::Target t = engine::Target::open(o.target, engine::Target::Access::read_only);
    facts = {t.geometry().capacity_bytes, t.geometry().logical_block_bytes};
  } else if (!o.capacity.empty()) {
    facts = {units::parse_size_bytes(o.capacity, "--capacity"), o.logical_block};
  } else {
    throw UsageError("--target", "the plan needs the capacity: give --target DEV or --capacity SIZE (e.g. 1TiB)");
  }
  if (!(o.write_mbps > 0)) {
    throw UsageError("--assume-write-mbps", "must be above 0");
  }
  const pts::SpecContext ctx{o.spec.revision, o.spec.profile};
  const pts::DefinitionSet& defs = pts::DefinitionSet::embedded();
  const pts::Settings settings = pts::Settings::build(defs, ctx, o.spec.presets(), o.spec.overrides());
  const pts::PlanAssumptions assumptions{o.write_mbps, units::parse_duration_ns(o.purge_time, "--assume-purge")};
  const pts::Plan worst = pts::make_plan(tests, defs, ctx, settings, facts, pts::PlanCase::worst, assumptions);
  const pts::Plan best = pts::make_plan(tests, defs, ctx, settings, facts, pts::PlanCase::best, assumptions);
  if (o.json) {
    fmt::print("{}\n",
               nlohmann::json{{"tests", tests},
                              {"revision", ctx.revision},
                              {"profile", ctx.profile},
                              {"capacity_bytes", facts.capacity_bytes},
                              {"logical_block_bytes", facts.logical_block_bytes},
                              {"assumptions",
                               {{"write_mb_per_s", assumptions.write_mb_per_s}, {"purge_ns", assumptions.purge_ns}}},
                              {"best_case_ns", best.total_ns},
                              {"worst_case_ns", worst.total_ns},
                              {"steps", worst.steps}}
                   .dump(1));
    return 0;
  }
  fmt::print("Plan of `ptsuite run {}`: PTS {} {} profile, {} target ({}-byte logical blocks){}\n", o.tests,
             ctx.revision, ctx.profile, units::format_size_human(facts.capacity_bytes), facts.logical_block_bytes,
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
      "Assumptions (~): byte-limited steps at {} MB/s (10^6 B/s), each purge {}; real times depend on the drive.\n",
      o.write_mbps, units::format_duration(assumptions.purge_ns));
  return 0;
}

}  // namespace

void register_plan_command(CLI::App& app, CommandSlot& slot) {
  auto o = std::make_shared<PlanOptions>();
  CLI::App* sub =
      app.add_subcommand("plan", "Print every step of a run and its duration estimate, without touching the device");
  sub->add_option("tests", o->tests, "Tests, comma-separated (or all)")->capture_default_str();
  sub->add_option("--target", o->target, "Device or file (opened read-only for its capacity)");
  sub->add_option("--capacity", o->capacity, "Capacity to plan for instead of a target, e.g. 960GiB");
  sub->add_option("--logical-block", o->logical_block, "Logical block size with --capacity")
      ->check(whole_number())
      ->capture_default_str();
  add_spec_options(sub, o->spec);
  sub->add_option("--assume-write-mbps", o->write_mbps, "Write rate assumed for byte-limited steps (MB/s)")
      ->capture_default_str();
  sub->add_option("--assume-purge", o->purge_time, "Time assumed per purge")->capture_default_str();
  sub->add_flag("--json", o->json, "Machine-readable plan on stdout");
  sub->add_flag("--summary", o->summary, "Only the totals");
  sub->callback([o, &slot] {
    slot.fields = {{"target", "--target"}};
    slot.action = [o] { return run_plan(*o); };
  });
}

}  // namespace ptsuite::cli
