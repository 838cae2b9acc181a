// `ptsuite scenario list | show NAME | plan NAME | run NAME|FILE [--target DEV]... --out DIR |
// resume DIR`: the characterization scenarios (docs/scenarios.md). The run's lifecycle is the
// scenario module's (scenario/scenario_run.hpp: targets, journal, results.json); its ending is
// the one every run has (lifecycle/finish_run.hpp: reports, run.log, manifest, history). This
// file holds the options, the console and the chart options' checks (report/scenario_report.hpp).
#include <fmt/format.h>
#include <chrono>
#include <iostream>

#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/lifecycle/finish_run.hpp>
#include <ptsuite/report/scenario_report.hpp>
#include <ptsuite/results/scenario_writers.hpp>
#include <ptsuite/scenario/profiles.hpp>
#include <ptsuite/scenario/scenario.hpp>
#include <ptsuite/scenario/scenario_plan.hpp>
#include <ptsuite/scenario/scenario_run.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/shell_quote.hpp>

#include "cli/commands.hpp"
#include "cli/ending.hpp"
#include "cli/flags.hpp"
#include "cli/history_support.hpp"
#include "cli/path_roles.hpp"
#include "cli/run_common.hpp"
#include "cli/scenario_console.hpp"
#include "cli/signals.hpp"
#include "cli/target_option.hpp"

namespace ptsuite::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct ScenarioOptions {
  std::string name;
  std::vector<std::string> targets;
  std::string out;
  bool quick = false;
  bool allow_destructive = false;
  std::vector<std::string> confirm_serials;  // one per real drive a purge phase touches
  std::string engine = "libaio";
  std::string scratch_size = "256MiB";
  uint64_t seed = 1;
  bool quiet = false;
  std::string tested_by;
  std::string formats = "html,csv,text";
  std::string paper = "auto";
  std::string series;        // report.series
  std::string plot_targets;  // "1,5"
  bool compact = false;      // --compact: aggregate-only tables (report.compact)
  bool no_history = false;
  std::string db;
};

// The chart options as given, checked against the number of targets before anything runs, as
// the document's "report" member.
nlohmann::json chart_options(const std::string& series, const std::string& plot_targets, bool compact, size_t targets) {
  report::ScenarioReportOptions r{
      series,
      plot_targets.empty() ? std::vector<uint32_t>{} : report::parse_plot_targets(plot_targets, "--plot-targets"),
      compact};
  report::check_scenario_report_options(r, targets, series.empty() ? "--plot-targets" : "--series");
  return report::scenario_report_options_json(r);
}

uint64_t unix_now_s() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count());
}

// `scenario plan NAME|FILE [--quick] [--target ...]`: every step and its time, before anything runs.
int plan_scenario_command(const ScenarioOptions& o) {
  scenario::Scenario s = scenario::load_scenario(o.name);
  if (o.quick) s = scenario::quick_form(s);
  if (!o.targets.empty() && s.targets.exact && o.targets.size() != s.targets.count) {
    throw UsageError("--target", fmt::format("{} needs exactly {} targets, one per role ({}); {} given", s.name,
                                             s.targets.count, fmt::join(s.targets.names, ", "), o.targets.size()));
  }
  const size_t targets = o.targets.empty() ? (s.targets.exact ? s.targets.count : 1) : o.targets.size();
  std::cout << scenario_plan_text(s, scenario::plan_scenario(s), targets);
  return 0;
}

// --json: the scenarios (name, title, reconstructs, targets, phases) and the mix profiles.
json scenarios_json() {
  std::vector<results::ScenarioListEntryOut> scenarios;
  for (const std::string& n : scenario::builtin_scenarios()) {
    const scenario::Scenario s = scenario::load_scenario(n);
    std::vector<std::string> phases;
    for (const scenario::PhaseSpec& p : s.phases) phases.push_back(p.name);
    scenarios.push_back({n, s.title, s.reconstructs, s.targets.count, s.targets.exact, s.targets.names, phases});
  }
  std::vector<results::MixProfileOut> profiles;
  for (const scenario::MixProfile& p : scenario::mix_profiles()) profiles.push_back({p.name, p.title, p.basis});
  return results::scenario_listing(scenarios, profiles);
}

int list_scenarios(bool as_json) {
  if (as_json) {
    std::cout << scenarios_json().dump(1) << "\n";
    return 0;
  }
  for (const std::string& n : scenario::builtin_scenarios()) {
    const scenario::Scenario s = scenario::load_scenario(n);
    std::cout << fmt::format("{:<22} {}\n", n, s.title);
  }
  std::cout << "\nprofiles (\"profile\" in a stream):\n";
  for (const scenario::MixProfile& p : scenario::mix_profiles()) {
    std::cout << fmt::format("  {:<20} {}\n", p.name, p.title);
  }
  return 0;
}

int show_scenario(const std::string& name) {
  std::string text;
  (void)scenario::load_scenario(name, &text);
  std::cout << text << (text.empty() || text.back() != '\n' ? "\n" : "");
  return 0;
}

// The console of a scenario run: progress on stderr (none with --quiet), the ETA after each step.
class ScenarioConsole final : public scenario::ScenarioObserver {
 public:
  explicit ScenarioConsole(bool quiet) : m_quiet(quiet) {}
  void plan_ready(const scenario::ScenarioPlan& plan) override {
    m_plan = plan;
    if (!m_quiet) std::cerr << scenario_plan_summary(plan) << "\n";
  }
  void message(const std::string& text) override {
    if (!m_quiet) std::cerr << text << "\n";
  }
  void warning(const std::string& text) override { std::cerr << text << "\n"; }
  void step_done(const std::string& key) override {
    if (!m_quiet) std::cerr << key << " done " << scenario_eta_text(m_plan, key, unix_now_s()) << "\n";
  }

 private:
  bool m_quiet;
  scenario::ScenarioPlan m_plan;
};

// The run's ending (lifecycle/finish_run.hpp) and its lines on stdout.
int end_scenario_run(const scenario::ScenarioRunOutcome& outcome, const ScenarioOptions& o,
                     const std::vector<std::string>& formats, const std::optional<history::HistoryDb>& history) {
  lifecycle::FinishOptions fo;
  fo.formats = formats;
  fo.paper = o.paper;
  fo.history = history;
  fo.final_note = outcome.final_note;
  fo.children = outcome.app_phases;
  if (!outcome.out) throw std::logic_error("scenario: a run outcome without its directory's token");
  const lifecycle::FinishedRun done = lifecycle::finish_run(*outcome.out, outcome.document, fo);
  print_ending(done, outcome.results_path,
               outcome.resumable ? "ptsuite scenario resume " + shell_quote(outcome.out_dir) : "",
               [](const std::string& l) { std::cout << l << "\n"; });
  return outcome.exit_code;
}

int run_scenario_command(const ScenarioOptions& o) {
  const std::vector<std::string> formats = report_formats(o.formats, o.paper);
  device::OutputGate gate("scenario run");
  gate.add_input(o.name, "NAME");
  const std::optional<history::HistoryDb> history = gate_run_history(gate, o.no_history, o.db);
  scenario::ScenarioRunConfig c;
  c.name = o.name;
  c.targets = o.targets;
  c.out_dir = o.out;
  c.quick = o.quick;
  c.allow_destructive = o.allow_destructive;
  c.confirm_serials = o.confirm_serials;
  c.engine = o.engine;
  if (o.targets.empty()) c.scratch_size_bytes = parse_scratch_size(o.scratch_size);
  c.seed = o.seed;
  c.tested_by = o.tested_by;
  c.report_formats = o.formats;
  c.series = o.series;
  c.plot_targets = o.plot_targets;
  c.compact = o.compact;
  c.command_line = invocation();
  scenario::Scenario s = scenario::load_scenario(o.name);
  c.report_options = chart_options(o.series, o.plot_targets, o.compact,
                                   o.targets.empty() ? (s.targets.exact ? s.targets.count : 1) : o.targets.size());
  StopSignals signals;
  ScenarioConsole console(o.quiet);
  return end_scenario_run(scenario::start_scenario_run(c, console, &signals.flag(), gate), o, formats, history);
}

int resume_scenario_command(const std::string& dir, const ScenarioOptions& flags) {
  // The outputs first, then what DIR holds: DIR is claimed from the command's one gate before
  // anything reads it (a device node as DIR or --db is exit 3 whatever it holds), and the run
  // continues in that directory.
  device::OutputGate gate("scenario resume");
  OutputDir out = gate.directory(dir, "DIR", device::OutputGate::Existing::may_hold_files);
  const std::optional<history::HistoryDb> history = gate_run_history(gate, flags.no_history, flags.db);
  scenario::ScenarioRunConfig c = scenario::read_scenario_run(out.path());
  c.allow_destructive = flags.allow_destructive;
  c.confirm_serials = flags.confirm_serials;
  c.command_line = invocation();
  c.report_options = chart_options(c.series, c.plot_targets, c.compact, c.targets.size());
  ScenarioOptions o = flags;
  o.formats = c.report_formats;
  const std::vector<std::string> formats = report_formats(o.formats, o.paper);
  StopSignals signals;
  ScenarioConsole console(o.quiet);
  return end_scenario_run(scenario::resume_scenario_run(std::move(out), c, console, &signals.flag(), gate), o, formats,
                          history);
}

}  // namespace

void register_scenario_command(CLI::App& app, CommandSlot& slot) {
  CLI::App* sub =
      app.add_subcommand("scenario", "Characterization scenarios beyond PTS (list, show, plan, run, resume)");
  sub->require_subcommand(1);
  CLI::App* list = sub->add_subcommand("list", "List the built-in scenarios and mix profiles");
  auto list_json = std::make_shared<bool>(false);
  add_shared_flag(list, "--json", *list_json, "The scenarios and profiles as JSON");
  list->callback([&slot, list_json] { slot.action = [list_json] { return list_scenarios(*list_json); }; });
  auto name = std::make_shared<std::string>();
  CLI::App* show = sub->add_subcommand("show", "Print a scenario's JSON (copy it, edit it, run the file)");
  show->add_option("NAME", *name, "Built-in scenario name or file")->check(paths::input())->required();
  show->callback([&slot, name] { slot.action = [name] { return show_scenario(*name); }; });
  auto o = std::make_shared<ScenarioOptions>();
  CLI::App* run = sub->add_subcommand("run", "Run a scenario on one or more targets");
  run->add_option("NAME", o->name, "Built-in scenario name or ptsuite-scenario/1 file")
      ->check(paths::input())
      ->required();
  add_shared_option(run, "--target", o->targets, "Target device or file; repeat for several (default: scratch targets)")
      ->check(paths::target_write());
  add_out_dir(run, o->out, "Run directory (default: ./ptsuite-scenario-<name>-<time>)");
  add_shared_flag(run, "--quick", o->quick, "The scenario's short form (durations, fill, Rounds, rate steps cut)");
  add_shared_flag(run, "--allow-destructive", o->allow_destructive,
                  "Allow writes to block devices (destroys their data)");
  add_shared_option(run, "--confirm-serial", o->confirm_serials,
                    "Serial number of a real drive a purge phase erases; repeat for each such --target")
      ->check(paths::none());
  add_shared_option(run, "--engine", o->engine, "IO engine")->check(paths::none())->capture_default_str();
  add_shared_option(run, "--scratch-size", o->scratch_size, "Size of each scratch target")
      ->check(paths::none())
      ->capture_default_str();
  add_shared_option(run, "--seed", o->seed, "PRNG seed")
      ->check(paths::none())
      ->check(whole_number())
      ->capture_default_str();
  add_shared_flag(run, "--quiet", o->quiet, "No progress lines");
  add_shared_option(run, "--tested-by", o->tested_by, "Who ran the scenario (every report page header)")
      ->check(paths::none());
  add_formats(run, o->formats, "Report formats: html,pdf,csv,text,json or none")->capture_default_str();
  add_deprecated(run, "--reports", o->formats, "--format");
  add_shared_option(run, "--paper", o->paper, "Paper of the PDF report: a4, letter or auto")
      ->check(paths::none())
      ->capture_default_str();
  add_shared_option(run, "--series", o->series,
                    "Multi-target charts: aggregate, drives or both (report.series; default: both up to 4 targets, "
                    "aggregate with the targets' min/max above)")
      ->check(paths::none());
  add_shared_option(run, "--plot-targets", o->plot_targets, "The targets charts draw, e.g. 1,5 (default: all)")
      ->check(paths::none());
  add_shared_flag(run, "--compact", o->compact,
                  "Aggregate-only tables in report.html and summary.txt, no stream-instance table (scenario.csv "
                  "keeps every target and stream instance)");
  add_history_options(run, o->no_history, o->db);
  run->callback([&slot, o] {
    slot.fields = FieldFlags{{"engine", "--engine"}, {"target", "--target"}};
    slot.action = [o] {
      resolve_target_options(o->targets);
      return run_scenario_command(*o);
    };
  });
  auto po = std::make_shared<ScenarioOptions>();
  CLI::App* plan = sub->add_subcommand("plan", "Every step of a scenario and its time, and the total (runs nothing)");
  plan->add_option("NAME", po->name, "Built-in scenario name or ptsuite-scenario/1 file")
      ->check(paths::input())
      ->required();
  add_shared_flag(plan, "--quick", po->quick, "The scenario's short form");
  add_shared_option(plan, "--target", po->targets,
                    "The targets it would run on (their number is checked against roles)")
      ->check(paths::target_read());
  plan->callback([&slot, po] {
    slot.action = [po] {
      resolve_target_options(po->targets);
      return plan_scenario_command(*po);
    };
  });
  auto resume_dir = std::make_shared<std::string>();
  auto ro = std::make_shared<ScenarioOptions>();
  CLI::App* resume = sub->add_subcommand("resume", "Continue an interrupted scenario run after its last finished step");
  resume->add_option("DIR", *resume_dir, "The run's --out directory")->check(paths::run_dir())->required();
  add_shared_flag(resume, "--allow-destructive", ro->allow_destructive,
                  "Allow writes to block devices (destroys their data)");
  add_shared_option(resume, "--confirm-serial", ro->confirm_serials,
                    "Serial number of a real drive a purge phase erases; repeat for each such target")
      ->check(paths::none());
  add_shared_flag(resume, "--quiet", ro->quiet, "No progress lines");
  add_shared_option(resume, "--paper", ro->paper, "Paper of the PDF report: a4, letter or auto")
      ->check(paths::none())
      ->capture_default_str();
  add_history_options(resume, ro->no_history, ro->db);
  resume->callback([&slot, resume_dir, ro] {
    slot.action = [resume_dir, ro] { return resume_scenario_command(*resume_dir, *ro); };
  });
}

}  // namespace ptsuite::cli
