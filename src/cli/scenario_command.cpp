// `ptsuite scenario list | show NAME | run NAME|FILE [--target DEV]... --out DIR`: the
// characterization scenario runner (scenario/scenario_runner.hpp; docs/scenarios.md). Every
// target passes the safety gate and gets its own device session; with no --target, scratch
// targets (one per role, or one) are created and removed again. Every finished step is
// journaled (DIR/journal.json); `scenario resume DIR` continues after the last one on the same
// devices (checked by identity). results.json is the source of
// truth; report.html and summary.txt are rendered from it (report/scenario_report.hpp).
#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <ptsuite/app/app_runner.hpp>
#include <ptsuite/app/definition.hpp>
#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/device/purge.hpp>
#include <ptsuite/device/session.hpp>
#include <ptsuite/device/target_gate.hpp>
#include <ptsuite/engine/engine_registry.hpp>
#include <ptsuite/engine/scratch_target.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/report/app_report.hpp>
#include <ptsuite/report/report_writer.hpp>
#include <ptsuite/report/scenario_report.hpp>
#include <ptsuite/scenario/profiles.hpp>
#include <ptsuite/scenario/scenario.hpp>
#include <ptsuite/scenario/scenario_plan.hpp>
#include <ptsuite/scenario/scenario_runner.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/dir_lock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/sha256.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/util/version.hpp>

#include "cli/commands.hpp"
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
  std::string reports = "html,csv,text";
  std::string series;        // report.series
  std::string plot_targets;  // "1,5"
  bool compact = false;      // --compact: aggregate-only tables (report.compact)
  bool no_history = false;
  std::string history_db;
};

// The chart options as given (checked against the number of targets before anything runs).
report::ScenarioReportOptions chart_options(const ScenarioOptions& o, size_t targets) {
  report::ScenarioReportOptions r{
      o.series,
      o.plot_targets.empty() ? std::vector<uint32_t>{} : report::parse_plot_targets(o.plot_targets, "--plot-targets"),
      o.compact};
  report::check_scenario_report_options(r, targets, o.series.empty() ? "--plot-targets" : "--series");
  return r;
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
  json scenarios = json::array();
  for (const std::string& n : scenario::builtin_scenarios()) {
    const scenario::Scenario s = scenario::load_scenario(n);
    json phases = json::array();
    for (const scenario::PhaseSpec& p : s.phases) phases.push_back(p.name);
    scenarios.push_back(
        {{"name", n},
         {"title", s.title},
         {"reconstructs", s.reconstructs},
         {"targets", {{"count", s.targets.count}, {"exact", s.targets.exact}, {"roles", s.targets.names}}},
         {"phases", std::move(phases)}});
  }
  json profiles = json::array();
  for (const scenario::MixProfile& p : scenario::mix_profiles()) {
    profiles.push_back({{"name", p.name}, {"title", p.title}, {"basis", p.basis}});
  }
  return {{"scenarios", std::move(scenarios)}, {"profiles", std::move(profiles)}};
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

// One opened target: its scratch backing (if ours), session and O_DIRECT target.
struct OpenTarget {
  std::optional<engine::ScratchTarget> scratch;
  device::TargetGuard guard;  // ptsuite's lock on the target, released after the session and target
  std::unique_ptr<device::DeviceSession> session;
  std::optional<engine::Target> target;
  json identity;
};

// The session (gate, identity, claim) and the O_DIRECT open of `path`.
void open_device(OpenTarget& t, const std::string& path, const ScenarioOptions& o, bool scratch) {
  device::SessionOptions so;
  so.allow_destructive = o.allow_destructive || scratch;
  t.guard = device::pass_target_gate({path, device::TargetAccess::read_write, so.allow_destructive, "scenario"});
  t.session = device::DeviceSession::open(t.guard.writable(), so);
  t.target.emplace(engine::Target::open(t.guard.writable()));
}

std::vector<std::unique_ptr<OpenTarget>> open_targets(const ScenarioOptions& o, uint32_t needed,
                                                      device::OutputGate& gate) {
  std::vector<std::unique_ptr<OpenTarget>> out;
  const bool scratch = o.targets.empty();
  const size_t n = scratch ? needed : o.targets.size();
  for (size_t i = 0; i < n; ++i) {
    auto t = std::make_unique<OpenTarget>();
    if (scratch) t->scratch.emplace(engine::ScratchTarget::create(parse_scratch_size(o.scratch_size), true));
    const std::string path = scratch ? t->scratch->path() : o.targets[i];
    gate.add_target(path, "--target");
    open_device(*t, path, o, scratch);
    t->identity = t->session->identity();
    t->identity["path"] = path;
    t->identity["scratch"] = scratch;
    out.push_back(std::move(t));
  }
  return out;
}

json scenario_header(const scenario::Scenario& s, const std::string& text, const ScenarioOptions& o);

json config_json(const ScenarioOptions& o) {
  json c{{"engine", o.engine}, {"seed", o.seed}, {"quick", o.quick}};
  if (!o.tested_by.empty()) c["tested_by"] = o.tested_by;
  return c;
}

json results_skeleton(const scenario::Scenario& s, const std::string& text, const ScenarioOptions& o, const json& run) {
  return json{{"kind", "ptsuite.scenario"},
              {"schema_version", 1},
              {"tool", {{"name", "ptsuite"}, {"version", version()}, {"git_revision", git_revision()}}},
              {"scenario", scenario_header(s, text, o)},
              {"config", config_json(o)},
              {"report", report::scenario_report_options_json(chart_options(o, run.at("identities").size()))},
              {"targets", run.at("identities")},
              {"started_utc", run.at("started_utc")}};
}

json scenario_header(const scenario::Scenario& s, const std::string& text, const ScenarioOptions& o) {
  return json{{"name", s.name},
              {"title", s.title},
              {"description", s.description},
              {"reconstructs", s.reconstructs},
              {"ptsuite_choices", s.ptsuite_choices},
              {"roles", s.targets.names},
              {"quick", o.quick},
              {"source_sha256", sha256_hex(text)}};
}

// The journal of a scenario run (DIR/journal.json): every finished step and purge by key,
// rewritten atomically after each, so a kill at any moment leaves a consistent file.
class ScenarioJournal {
 public:
  explicit ScenarioJournal(OutputPath file) : m_file(std::move(file)) {
    if (fs::exists(m_file.path())) m_done = load_json_input(m_file.path(), m_file.string(), k_document_json_limits);
  }
  void record(const std::string& key, const json& value) {
    m_done[key] = value;
    write_file_atomic(m_file, m_done.dump());
  }
  [[nodiscard]] std::optional<json> find(const std::string& key) const {
    if (!m_done.contains(key)) return std::nullopt;
    return m_done.at(key);
  }

 private:
  OutputPath m_file;
  json m_done = json::object();
};

// What identifies a target across sessions: a drive by its serial, a file by its path.
json fingerprint(const json& id) {
  json out = json::object();
  for (const char* key : {"transport", "model", "serial", "identifier", "medium", "capacity_bytes",
                          "logical_block_bytes", "canonical_path"}) {
    if (id.contains(key) && !(id.value("transport", "") != "file" && std::string(key) == "canonical_path")) {
      out[key] = id.at(key);
    }
  }
  return out;
}

// Each target with its own --confirm-serial (the one equal to its serial). When the scenario
// purges, every real drive must be confirmed before anything runs: a refusal at the second
// target's purge would come after the first was already erased.
// Every phase resolved against the opened targets before anything is written (exit 2).
void check_before_writing(const scenario::Scenario& s, const ScenarioOptions& o,
                          const std::vector<std::unique_ptr<OpenTarget>>& opened) {
  std::vector<engine::TargetGeometry> geometries;
  for (const auto& t : opened) geometries.push_back(t->target->geometry());
  scenario::ScenarioRunOptions ro;
  ro.engine = o.engine;
  scenario::check_scenario(s, geometries, ro);
  // app phases: their settings (ranges, agreement) and the targets' size, as `app run` checks.
  for (const scenario::PhaseSpec& p : s.phases) {
    if (p.kind != scenario::PhaseKind::app) continue;
    try {
      const app::AppConfig config = app::resolve_app(app::load_app(p.app), o.quick, p.app_settings);
      for (size_t i = 0; i < opened.size(); ++i) {
        app::check_capacity(config, opened[i]->target->path(), geometries[i].capacity_bytes);
      }
    } catch (const UsageError& e) {
      throw UsageError(fmt::format("phase {}", p.name), fmt::format("{}; nothing was written", e.what()));
    }
  }
}

std::vector<scenario::ScenarioTarget> scenario_targets(const scenario::Scenario& s, const ScenarioOptions& o,
                                                       const std::vector<std::unique_ptr<OpenTarget>>& opened) {
  const bool purges = std::any_of(s.phases.begin(), s.phases.end(),
                                  [](const scenario::PhaseSpec& p) { return p.kind == scenario::PhaseKind::purge; });
  std::vector<scenario::ScenarioTarget> out;
  for (const auto& t : opened) {
    const device::DeviceIdentity& id = t->session->identity();
    std::optional<std::string> confirm;
    for (const std::string& serial : o.confirm_serials) {
      if (!id.serial.empty() && serial == id.serial) confirm = serial;
    }
    if (purges && !t->scratch) device::require_serial_confirmation(id, confirm);
    out.push_back({&*t->target, t->session.get(), confirm});
  }
  return out;
}

// app phases (docs/app.md): mkfs and mount need each device to themselves, so the targets'
// claims and opens are released for the phase and taken again after it (the targets' entries
// are updated in place: the runner holds the vector). The app's own reports go to
// DIR/app-<phase>/.
std::function<json(const scenario::PhaseSpec&)> app_phase_runner(const ScenarioOptions& o, const OutputDir& dir,
                                                                 std::vector<std::unique_ptr<OpenTarget>>& opened,
                                                                 std::vector<scenario::ScenarioTarget>& targets,
                                                                 const std::atomic<bool>* stop) {
  return [&o, dir, &opened, &targets, stop](const scenario::PhaseSpec& p) {
    app::AppRunRequest rq;
    for (auto& t : opened) {
      rq.targets.push_back(t->identity.at("path").get<std::string>());
      t->target.reset();
      t->session.reset();
      t->guard = device::TargetGuard{};  // the app run takes the target's lock itself
    }
    rq.app = p.app;
    rq.quick = o.quick;
    rq.sets = p.app_settings;
    rq.allow_destructive = o.allow_destructive || o.targets.empty();
    rq.confirm_serials = o.confirm_serials;
    rq.output_dir = dir.subdir("app-" + p.name);
    rq.command = fmt::format("scenario app phase {}", p.name);
    rq.tool_version = fmt::format("{} ({})", version(), git_revision());
    rq.stop = stop;
    rq.log = [&o](const std::string& m) {
      if (!o.quiet) std::cerr << m << "\n";
    };
    std::optional<app::AppRunOutcome> outcome;
    std::exception_ptr error;
    try {
      outcome = app::run_app(rq);
    } catch (...) {
      error = std::current_exception();
    }
    for (size_t i = 0; i < opened.size(); ++i) {  // the claims again, also after a refusal
      open_device(*opened[i], rq.targets[i], o, o.targets.empty());
      targets[i].target = &*opened[i]->target;
      targets[i].session = opened[i]->session.get();
    }
    if (error) std::rethrow_exception(error);
    write_file_atomic(rq.output_dir->file("report.html"), report::app_html(outcome->run));
    write_file_atomic(rq.output_dir->file("summary.txt"), report::app_text(outcome->run));
    json doc;
    to_json(doc, outcome->run);
    return doc;
  };
}

// Runs (or continues, with the journal's steps replayed) and writes results.json, summary.txt
// and report.html; returns the exit code.
int execute(const scenario::Scenario& s, const ScenarioOptions& o, const OutputDir& out, json doc,
            std::vector<std::unique_ptr<OpenTarget>>& opened, std::vector<scenario::ScenarioTarget>& targets,
            const std::optional<history::HistoryDb>& history) {
  const fs::path& dir = out.path();
  ScenarioJournal journal(out.file("journal.json"));
  StopSignals signals;
  scenario::ScenarioRunOptions ro;
  ro.seed = o.seed;
  ro.engine = o.engine;
  ro.allow_destructive = o.allow_destructive || o.targets.empty();  // our own scratch targets
  ro.stop = &signals.flag();
  ro.on_message = [&o](const std::string& m) {
    if (!o.quiet) std::cerr << m << "\n";
  };
  const scenario::ScenarioPlan plan = scenario::plan_scenario(s);
  if (!o.quiet) std::cerr << scenario_plan_summary(plan) << "\n";
  ro.on_step = [&journal, &plan, &o](const std::string& key, const json& record) {
    journal.record(key, record);
    if (!o.quiet) std::cerr << key << " done " << scenario_eta_text(plan, key, unix_now_s()) << "\n";
  };
  ro.replay = [&journal](const std::string& key) { return journal.find(key); };
  ro.run_app = app_phase_runner(o, out, opened, targets, &signals.flag());
  json phases = json::array();
  int code = 0;
  try {
    scenario::run_scenario(s, targets, ro, phases);
    doc["status"] = "complete";
  } catch (const Error& e) {
    doc["status"] = fmt::format("stopped: {}", e.what());
    code = static_cast<int>(e.code());
    std::cerr << "ptsuite: " << e.what() << "\n";  // a failed scenario always says why
  }
  doc["phases"] = std::move(phases);
  doc["finished_utc"] = utc_now_iso8601();
  write_file_atomic(out.file("results.json"), doc.dump());
  std::vector<std::string> written;
  try {
    written = report::write_reports(out, doc, report_formats(o.reports));
  } catch (const Error& e) {
    std::cerr << "ptsuite: warning: reports not written (" << e.what() << "); render them with `ptsuite report "
              << dir.string() << "`\n";
  }
  (void)bundle::write_manifest(out);
  if (history) {
    record_run_in_history(dir.string(), *history, [&o](const std::string& m) {
      if (!o.quiet) std::cerr << m << "\n";
    });
  }
  if (!o.quiet) {
    std::cout << "results: " << (dir / "results.json").string() << "\n";
    for (const std::string& w : written) std::cout << "report: " << w << "\n";
    if (code == static_cast<int>(ExitCode::interrupted) && !o.targets.empty()) {
      std::cout << "continue with: ptsuite scenario resume " << dir.string() << "\n";
    }
  }
  return code;
}

// A directory that holds a run already: `scenario resume` continues one on real devices; a run on
// scratch targets cannot be continued (they are gone), so only another directory helps.
void refuse_existing_run(const fs::path& dir) {
  if (!fs::exists(dir / "results.json") && !fs::exists(dir / "scenario-run.json")) return;
  bool scratch = false;
  try {
    scratch = json::parse(read_file(dir / "scenario-run.json")).value("scratch", false);
  } catch (const std::exception&) {
    scratch = false;
  }
  if (scratch) {
    throw UsageError("--out", fmt::format("{} already holds a scenario run on scratch targets, which cannot be "
                                          "resumed (they were removed); choose another directory",
                                          dir.string()));
  }
  throw UsageError("--out", fmt::format("{} already holds a scenario run; continue it with `ptsuite scenario resume "
                                        "{}` or choose another directory",
                                        dir.string(), dir.string()));
}

int run_scenario_command(const ScenarioOptions& o) {
  if (o.targets.empty()) (void)parse_scratch_size(o.scratch_size);
  std::string text;
  scenario::Scenario s = scenario::load_scenario(o.name, &text);
  if (o.quick) s = scenario::quick_form(s);
  (void)engine::create_engine(o.engine);
  if (!o.targets.empty() && s.targets.exact && o.targets.size() != s.targets.count) {
    throw UsageError("--target", fmt::format("{} needs exactly {} targets, one per role ({}); {} given", s.name,
                                             s.targets.count, fmt::join(s.targets.names, ", "), o.targets.size()));
  }
  (void)report_formats(o.reports);
  (void)chart_options(o, o.targets.empty() ? (s.targets.exact ? s.targets.count : 1) : o.targets.size());
  const fs::path dir = fs::absolute(o.out.empty() ? "ptsuite-scenario-" + s.name : o.out);
  refuse_existing_run(dir);
  device::OutputGate gate("scenario run");
  gate.add_input(o.name, "NAME");
  for (const std::string& t : o.targets) gate.add_target(t, "--target");
  const OutputDir out = gate.directory(dir.string(), "--out", device::OutputGate::Existing::must_be_empty);
  const std::optional<history::HistoryDb> history = gate_run_history(gate, o.no_history, o.history_db);
  auto opened = open_targets(o, s.targets.exact ? s.targets.count : 1, gate);
  std::vector<scenario::ScenarioTarget> targets = scenario_targets(s, o, opened);  // refusals first
  check_before_writing(s, o, opened);
  out.create();
  const UniqueFd dir_lock = lock_run_directory(out.path());
  json identities = json::array();
  for (const auto& t : opened) identities.push_back(t->identity);
  const json run{{"scenario_text", text},
                 {"targets", o.targets},
                 {"quick", o.quick},
                 {"engine", o.engine},
                 {"seed", o.seed},
                 {"identities", identities},
                 {"scratch", o.targets.empty()},
                 {"tested_by", o.tested_by},
                 {"reports", o.reports},
                 {"series", o.series},
                 {"plot_targets", o.plot_targets},
                 {"compact", o.compact},
                 {"started_utc", utc_now_iso8601()}};
  write_file_atomic(out.file("scenario-run.json"), run.dump());
  return execute(s, o, out, results_skeleton(s, text, o, run), opened, targets, history);
}

int resume_scenario_command(const std::string& dir_text, const ScenarioOptions& flags) {
  device::OutputGate gate("scenario resume");
  const OutputDir out = gate.directory(dir_text, "DIR", device::OutputGate::Existing::may_hold_files);
  const std::optional<history::HistoryDb> history = gate_run_history(gate, flags.no_history, flags.history_db);
  const fs::path& dir = out.path();
  if (!fs::exists(dir / "scenario-run.json")) {
    throw UsageError("DIR", fmt::format("{} holds no scenario run (no scenario-run.json)", dir.string()));
  }
  const UniqueFd dir_lock = lock_run_directory(dir);
  const fs::path run_file = dir / "scenario-run.json";
  const json run = load_json_input(run_file, run_file.string(), k_document_json_limits);
  ScenarioOptions o = flags;
  std::string text;
  try {
    if (run.at("scratch").get<bool>()) {
      throw UsageError("DIR", "the run used scratch targets, which were removed when ptsuite exited; run it again");
    }
    o.targets = run.at("targets").get<std::vector<std::string>>();
    o.quick = run.at("quick").get<bool>();
    o.engine = run.at("engine").get<std::string>();
    o.seed = run.at("seed").get<uint64_t>();
    o.tested_by = run.value("tested_by", "");
    o.reports = run.value("reports", o.reports);
    o.series = run.value("series", "");
    o.plot_targets = run.value("plot_targets", "");
    o.compact = run.value("compact", false);
    text = run.at("scenario_text").get<std::string>();
    (void)run.at("identities").at(o.targets.size() - 1);
  } catch (const json::exception& e) {
    throw UsageError(run_file.string(), fmt::format("damaged, the run cannot be resumed from it ({})", e.what()));
  }
  scenario::Scenario s = scenario::parse_scenario(text, (dir / "scenario-run.json").string());
  if (o.quick) s = scenario::quick_form(s);
  auto opened = open_targets(o, 0, gate);
  check_before_writing(s, o, opened);
  for (size_t i = 0; i < opened.size(); ++i) {
    if (fingerprint(opened[i]->identity) != fingerprint(run.at("identities").at(i))) {
      throw SafetyRefusal(
          fmt::format("refusing to resume: target {} ({}) is not the device the run started on", i + 1, o.targets[i]));
    }
  }
  std::vector<scenario::ScenarioTarget> targets = scenario_targets(s, o, opened);
  return execute(s, o, out, results_skeleton(s, text, o, run), opened, targets, history);
}

}  // namespace

void register_scenario_command(CLI::App& app, CommandSlot& slot) {
  CLI::App* sub =
      app.add_subcommand("scenario", "Characterization scenarios beyond PTS (list, show, plan, run, resume)");
  sub->require_subcommand(1);
  CLI::App* list = sub->add_subcommand("list", "List the built-in scenarios and mix profiles");
  auto list_json = std::make_shared<bool>(false);
  list->add_flag("--json", *list_json, "The scenarios and profiles as JSON");
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
  run->add_option("--target", o->targets, "Target device or file; repeat for several (default: scratch targets)")
      ->check(paths::target_write());
  run->add_option("--out", o->out, "Output directory")->check(paths::output_dir());
  run->add_flag("--quick", o->quick, "The scenario's short form (durations, fill, Rounds, rate steps cut)");
  run->add_flag("--allow-destructive", o->allow_destructive, "Allow writes to block devices (destroys their data)");
  run->add_option("--confirm-serial", o->confirm_serials,
                  "Serial number of a real drive a purge phase erases; repeat for each such --target")
      ->check(paths::none());
  run->add_option("--engine", o->engine, "IO engine")->check(paths::none())->capture_default_str();
  run->add_option("--scratch-size", o->scratch_size, "Size of each scratch target")
      ->check(paths::none())
      ->capture_default_str();
  run->add_option("--seed", o->seed, "PRNG seed")->check(paths::none())->check(whole_number())->capture_default_str();
  run->add_flag("--quiet", o->quiet, "No progress lines");
  run->add_option("--tested-by", o->tested_by, "Who ran the scenario (every report page header)")->check(paths::none());
  run->add_option("--reports", o->reports, "Report formats: html,pdf,csv,text,json or none")
      ->check(paths::none())
      ->capture_default_str();
  run->add_option("--series", o->series,
                  "Multi-target charts: aggregate, drives or both (report.series; default: both up to 4 targets, "
                  "aggregate with the targets' min/max above)")
      ->check(paths::none());
  run->add_option("--plot-targets", o->plot_targets, "The targets charts draw, e.g. 1,5 (default: all)")
      ->check(paths::none());
  run->add_flag("--compact", o->compact,
                "Aggregate-only tables in report.html and summary.txt, no stream-instance table (scenario.csv keeps "
                "every target and stream instance)");
  add_history_options(run, o->no_history, o->history_db);
  run->callback([&slot, o] {
    slot.fields = {{"engine", "--engine"}, {"target", "--target"}};
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
  plan->add_flag("--quick", po->quick, "The scenario's short form");
  plan->add_option("--target", po->targets, "The targets it would run on (their number is checked against roles)")
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
  resume->add_flag("--allow-destructive", ro->allow_destructive, "Allow writes to block devices (destroys their data)");
  resume
      ->add_option("--confirm-serial", ro->confirm_serials,
                   "Serial number of a real drive a purge phase erases; repeat for each such target")
      ->check(paths::none());
  resume->add_flag("--quiet", ro->quiet, "No progress lines");
  add_history_options(resume, ro->no_history, ro->history_db);
  resume->callback([&slot, resume_dir, ro] {
    slot.action = [resume_dir, ro] { return resume_scenario_command(*resume_dir, *ro); };
  });
}

}  // namespace ptsuite::cli
