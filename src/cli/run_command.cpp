// `ptsuite run TESTS --target DEV --out DIR [--profile] [--quick] --allow-destructive` and
// `ptsuite resume DIR`: the PTS runner (pts/run.hpp) with a console and signal handling.
#include <fmt/format.h>
#include <algorithm>

#include <ptsuite/pts/run.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>
#include "cli/commands.hpp"
#include "cli/flags.hpp"
#include "cli/history_support.hpp"
#include "cli/path_roles.hpp"
#include "cli/run_common.hpp"
#include "cli/run_console.hpp"
#include "cli/signals.hpp"
#include "cli/spec_options.hpp"

namespace ptsuite::cli {

namespace {

struct RunCommandOptions {
  std::string tests = "core";
  bool strict = false;
  RunOptions run;
};

}  // namespace

void register_run_command(CLI::App& app, CommandSlot& slot) {
  auto o = std::make_shared<RunCommandOptions>();
  CLI::App* sub = app.add_subcommand("run", "Run PTS tests (purge, preconditioning, Rounds to steady state, reports)");
  sub->add_option("tests", o->tests,
                  "Tests to run, comma-separated (iops,throughput,latency,wsat,cbw,hir,xsr,dirth), or core (the five "
                  "core tests: iops, throughput, latency, wsat, cbw) or all (every PTS test: core + hir, xsr, dirth)")
      ->check(paths::none())
      ->capture_default_str();
  add_run_options(sub, o->run, "ptsuite-run");
  sub->add_flag("--strict", o->strict, "Exit 1 when the run is not compliant");
  sub->callback([o, &slot] {
    slot.fields = {{"engine", "--engine"}, {"target", "--target"}};  // named by the engine registry, Target
    slot.action = [o] {
      pts::RunConfig config = run_config(o->run);
      config.tests = pts::tests_for_revision(pts::parse_test_list(o->tests), config.revision);
      config.strict = o->strict;
      device::OutputGate gate("run");
      gate.add_target(o->run.target, "--target");
      const std::optional<history::HistoryDb> history = gate_run_history(gate, o->run.no_history, o->run.db);
      StopSignals signals;
      RunConsole console(o->run.quiet);
      const pts::RunOutcome outcome = pts::start_run(config, console, &signals.flag(), gate);
      return finish(outcome, console, {history, o->run.paper});
    };
  });
}

void register_resume_command(CLI::App& app, CommandSlot& slot) {
  struct ResumeOptions {
    std::string dir;
    bool allow_destructive = false;
    std::string confirm_serial;
    bool quiet = false;
    bool no_history = false;
    std::string db;
    std::string paper = "auto";
  };
  auto o = std::make_shared<ResumeOptions>();
  CLI::App* sub = app.add_subcommand("resume", "Continue an interrupted run after its last completed segment");
  sub->add_option("DIR", o->dir, "The run directory")->check(paths::run_dir())->required();
  add_shared_flag(sub, "--allow-destructive", o->allow_destructive,
                  "Consent to overwrite the target block device (again)");
  add_shared_option(sub, "--confirm-serial", o->confirm_serial,
                    "Serial number of the drive, when the run purges a real drive")
      ->check(paths::none());
  add_shared_flag(sub, "--quiet", o->quiet, "No progress output");
  add_shared_option(sub, "--paper", o->paper,
                    "Paper of the PDF report: a4, letter or auto (Chromium's default, Letter)")
      ->check(paths::none())
      ->capture_default_str();
  add_history_options(sub, o->no_history, o->db);
  sub->callback([o, &slot] {
    slot.action = [o] {
      (void)report_formats("none", o->paper);
      device::OutputGate gate("resume");
      const std::optional<history::HistoryDb> history = gate_run_history(gate, o->no_history, o->db);
      StopSignals signals;
      RunConsole console(o->quiet);
      const std::optional<std::string> serial =
          o->confirm_serial.empty() ? std::nullopt : std::optional<std::string>(o->confirm_serial);
      const pts::RunOutcome outcome =
          pts::resume_run(o->dir, o->allow_destructive, serial, console, &signals.flag(), gate);
      const int code = finish(outcome, console, {history, o->paper});
      if (code != 0) return code;
      // A resumed `ptsuite validate` ends like one: the claims' verdict decides the exit code.
      return claims_verdict(outcome.document, console);
    };
  });
}

}  // namespace ptsuite::cli
