// start_scenario_run() / resume_scenario_run(): a scenario run's lifecycle (scenario_run.hpp).
#include <ptsuite/scenario/scenario_run.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <exception>

#include <ptsuite/app/app_runner.hpp>
#include <ptsuite/device/identity.hpp>
#include <ptsuite/engine/engine_registry.hpp>
#include <ptsuite/results/scenario_writers.hpp>
#include <ptsuite/scenario/scenario_runner.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/command_line.hpp>
#include <ptsuite/util/dir_lock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/out_dir.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/run_log_file.hpp>
#include <ptsuite/util/sha256.hpp>
#include <ptsuite/util/version.hpp>

#include "scenario/scenario_targets.hpp"

namespace ptsuite::scenario {

namespace {

namespace fs = std::filesystem;
using detail::OpenTarget;
using nlohmann::json;

constexpr const char* k_scenario_run_file = "scenario-run.json";

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

// Everything one session of a run holds.
struct ScenarioSession {
  ScenarioRunConfig config;
  Scenario scenario;
  std::string text;  // the scenario's source
  fs::path dir;
  std::optional<OutputDir> out;  // dir, as the command's output gate let it through
  json run;                      // scenario-run.json
  std::vector<std::unique_ptr<OpenTarget>> opened;
  std::vector<ScenarioTarget> targets;
};

// The results document's header, status and phases still to come.
results::ScenarioDocumentOut results_skeleton(const ScenarioSession& s) {
  results::ScenarioDocumentOut d;
  d.tool_version = version();
  d.git_revision = git_revision();
  d.scenario = {s.scenario.name,         s.scenario.title,           s.scenario.description,
                s.scenario.reconstructs, s.scenario.ptsuite_choices, s.scenario.targets.names,
                s.config.quick,          sha256_hex(s.text)};
  d.engine = s.config.engine;
  d.seed = s.config.seed;
  d.quick = s.config.quick;
  d.tested_by = s.config.tested_by;
  d.report = s.config.report_options;
  d.targets = s.run.at("identities");
  d.started_utc = s.run.at("started_utc").get<std::string>();
  return d;
}

// The targets an app phase's application runs on: its app_targets, or every target.
std::vector<size_t> app_target_indices(const PhaseSpec& p, size_t targets) {
  std::vector<size_t> out;
  for (size_t i = 0; i < targets; ++i) {
    if (p.app_targets.empty() || std::find(p.app_targets.begin(), p.app_targets.end(), i) != p.app_targets.end()) {
      out.push_back(i);
    }
  }
  return out;
}

// app phases (docs/app.md): mkfs and mount need each device to themselves, so the claims and
// opens of the application's targets are released for the phase and taken again after it (the
// targets' entries are updated in place: the runner holds the vector); a mixed phase's streams
// keep theirs. The app's document goes to DIR/app-<phase>/results.json; its reports are the
// run's ending's (lifecycle/finish_run.hpp).
std::function<json(const PhaseSpec&, const ScenarioRunOptions::MeasuredStart&)> app_phase_runner(
    ScenarioSession& s, ScenarioObserver& observer, const std::atomic<bool>* stop,
    std::vector<std::pair<OutputDir, results::Document>>& done) {
  return [&s, &observer, stop, &done](const PhaseSpec& p, const ScenarioRunOptions::MeasuredStart& measured_start) {
    app::AppRunRequest rq;
    const std::vector<size_t> used = app_target_indices(p, s.opened.size());
    for (const size_t i : used) {
      OpenTarget& t = *s.opened[i];
      rq.targets.push_back(t.identity.at("path").get<std::string>());
      t.target.reset();
      t.session.reset();
      t.guard = device::TargetGuard{};  // the app run takes the target's lock itself
    }
    rq.app = p.app;
    rq.quick = s.config.quick;
    rq.sets = p.app_settings;
    rq.allow_destructive = s.config.allow_destructive || s.config.targets.empty();
    rq.confirm_serials = s.config.confirm_serials;
    rq.output_dir = s.out->subdir("app-" + p.name);
    rq.command = fmt::format("scenario app phase {}", p.name);
    rq.tool_version = fmt::format("{} ({})", version(), git_revision());
    rq.stop = stop;
    rq.log = [&observer](const std::string& m) { observer.message(m); };
    rq.on_measured_start = measured_start;
    std::optional<app::AppRunOutcome> outcome;
    std::exception_ptr error;
    try {
      outcome = app::run_app(rq);
    } catch (...) {
      error = std::current_exception();
    }
    for (size_t k = 0; k < used.size(); ++k) {  // the claims again, also after a refusal
      const size_t i = used[k];
      detail::open_device(*s.opened[i], rq.targets[k], s.config, s.config.targets.empty());
      s.targets[i].target = &*s.opened[i]->target;
      s.targets[i].session = s.opened[i]->session.get();
    }
    if (error) std::rethrow_exception(error);
    json doc;
    to_json(doc, outcome->run);
    done.emplace_back(*rq.output_dir, results::make_document(outcome->run, std::make_shared<const json>(doc)));
    return doc;
  };
}

// Runs (or continues, with the journal's steps replayed) and writes results.json.
ScenarioRunOutcome execute(ScenarioSession& s, RunLogFile& log, ScenarioObserver& observer,
                           const std::atomic<bool>* stop) {
  ScenarioJournal journal(s.out->file("journal.json"));
  ScenarioRunOutcome out;
  ScenarioRunOptions ro;
  ro.seed = s.config.seed;
  ro.engine = s.config.engine;
  ro.allow_destructive = s.config.allow_destructive || s.config.targets.empty();  // our own scratch targets
  ro.stop = stop;
  ro.on_message = [&observer, &log](const std::string& m) {
    log.info(m);
    observer.message(m);
  };
  const ScenarioPlan plan = plan_scenario(s.scenario);
  observer.plan_ready(plan);
  ro.on_step = [&journal, &observer, &log](const std::string& key, const json& record) {
    journal.record(key, record);
    log.info("done  " + key);
    observer.step_done(key);
  };
  ro.replay = [&journal](const std::string& key) { return journal.find(key); };
  ro.run_app = app_phase_runner(s, observer, stop, out.app_phases);
  results::ScenarioDocumentOut doc = results_skeleton(s);
  try {
    run_scenario(s.scenario, s.targets, ro, doc.phases);
    out.status = "complete";
  } catch (const Error& e) {
    out.status = fmt::format("stopped: {}", e.what());
    out.exit_code = static_cast<int>(e.code());
    log.warning(e.what());
    observer.warning(fmt::format("ptsuite: {}", e.what()));  // a failed scenario always says why
  }
  doc.status = out.status;
  doc.finished_utc = utc_now_iso8601();
  json written = doc;
  write_file_atomic(s.out->file("results.json"), written.dump());
  out.out_dir = s.dir.string();
  out.out = s.out;
  out.results_path = (s.dir / "results.json").string();
  out.resumable = out.exit_code == static_cast<int>(ExitCode::interrupted) && !s.config.targets.empty();
  out.final_note = fmt::format("scenario {}: {}; exit code {}", s.scenario.name, out.status, out.exit_code);
  auto source = std::make_shared<const json>(std::move(written));
  out.document = results::make_document(results::read_scenario_document(source), source);
  return out;
}

// A directory holding a run already: `scenario resume` continues one on real devices; one on
// scratch targets cannot be continued (they are gone), so only another directory helps.
std::string holds_run_message(const fs::path& dir) {
  bool scratch = false;
  try {
    scratch = json::parse(read_file(dir / k_scenario_run_file)).value("scratch", false);
  } catch (const std::exception&) {
    scratch = false;
  }
  return scratch ? fmt::format(
                       "{} already holds a scenario run on scratch targets, which cannot be resumed (they "
                       "were removed); choose another directory",
                       dir.string())
                 : fmt::format(
                       "{} already holds a scenario run; continue it with `ptsuite scenario resume {}` or "
                       "choose another directory",
                       dir.string(), dir.string());
}

void check_target_count(const Scenario& s, size_t given) {
  if (given != 0 && s.targets.exact && given != s.targets.count) {
    throw UsageError("--target", fmt::format("{} needs exactly {} targets, one per role ({}); {} given", s.name,
                                             s.targets.count, fmt::join(s.targets.names, ", "), given));
  }
}

json run_file_json(const ScenarioSession& s) {
  results::ScenarioRunFileOut r;
  r.scenario_text = s.text;
  r.targets = s.config.targets;
  r.quick = s.config.quick;
  r.engine = s.config.engine;
  r.seed = s.config.seed;
  r.identities = json::array();
  for (const auto& t : s.opened) r.identities.push_back(t->identity);
  r.scratch = s.config.targets.empty();
  r.tested_by = s.config.tested_by;
  r.reports = s.config.report_formats;
  r.series = s.config.series;
  r.plot_targets = s.config.plot_targets;
  r.compact = s.config.compact;
  r.started_utc = utc_now_iso8601();
  return r;
}

}  // namespace

ScenarioRunOutcome start_scenario_run(const ScenarioRunConfig& config, ScenarioObserver& observer,
                                      const std::atomic<bool>* stop, device::OutputGate& outputs) {
  ScenarioSession s;
  s.config = config;
  s.scenario = load_scenario(config.name, &s.text);
  if (config.quick) s.scenario = quick_form(s.scenario);
  (void)engine::create_engine(config.engine);
  check_target_count(s.scenario, config.targets.size());
  s.dir =
      fs::absolute(config.out_dir.empty() ? default_out_dir("ptsuite-scenario-" + s.scenario.name) : config.out_dir);
  check_run_markers(s.dir, {"--out", {"results.json", k_scenario_run_file}, holds_run_message(s.dir)});
  for (const std::string& t : config.targets) outputs.add_target(t, "--target");
  s.out = outputs.directory(s.dir.string(), "--out", device::OutputGate::Existing::must_be_empty);
  s.dir = s.out->path();
  s.opened = detail::open_targets(config, s.scenario.targets.exact ? s.scenario.targets.count : 1, outputs);
  s.targets = detail::runner_targets(s.scenario, config, s.opened);  // refusals first
  detail::check_against_targets(s.scenario, config, s.opened);
  s.out->create();
  const UniqueFd dir_lock = lock_run_directory(s.dir);
  s.run = run_file_json(s);
  write_file_atomic(s.out->file(k_scenario_run_file), s.run.dump());
  RunLogFile log(s.out->file(k_run_log_file));
  log.info(fmt::format("ptsuite {} scenario {} started: {}", version(), s.scenario.name,
                       join_command_line(config.command_line)));
  return execute(s, log, observer, stop);
}

ScenarioRunConfig read_scenario_run(const fs::path& dir_in) {
  const fs::path dir = fs::absolute(dir_in);
  const fs::path run_file = dir / k_scenario_run_file;
  if (!fs::exists(run_file)) {
    throw UsageError("DIR", fmt::format("{} holds no scenario run (no {})", dir.string(), k_scenario_run_file));
  }
  const json run = load_json_input(run_file, run_file.string(), k_document_json_limits);
  ScenarioRunConfig c;
  try {
    if (run.at("scratch").get<bool>()) {
      throw UsageError("DIR", "the run used scratch targets, which were removed when ptsuite exited; run it again");
    }
    c.targets = run.at("targets").get<std::vector<std::string>>();
    c.quick = run.at("quick").get<bool>();
    c.engine = run.at("engine").get<std::string>();
    c.seed = run.at("seed").get<uint64_t>();
    c.tested_by = run.value("tested_by", "");
    c.report_formats = run.value("reports", c.report_formats);
    c.series = run.value("series", "");
    c.plot_targets = run.value("plot_targets", "");
    c.compact = run.value("compact", false);
    (void)run.at("scenario_text").get<std::string>();
    (void)run.at("identities").at(c.targets.size() - 1);
  } catch (const json::exception& e) {
    throw UsageError(run_file.string(), fmt::format("damaged, the run cannot be resumed from it ({})", e.what()));
  }
  c.out_dir = dir.string();
  return c;
}

ScenarioRunOutcome resume_scenario_run(OutputDir dir, ScenarioRunConfig config, ScenarioObserver& observer,
                                       const std::atomic<bool>* stop, device::OutputGate& outputs) {
  ScenarioSession s;
  s.out = std::move(dir);
  s.dir = s.out->path();
  const UniqueFd dir_lock = lock_run_directory(s.dir);
  const fs::path run_file = s.dir / k_scenario_run_file;
  s.run = load_json_input(run_file, run_file.string(), k_document_json_limits);
  s.text = s.run.at("scenario_text").get<std::string>();
  s.config = std::move(config);
  s.scenario = parse_scenario(s.text, run_file.string());
  if (s.config.quick) s.scenario = quick_form(s.scenario);
  s.opened = detail::open_targets(s.config, 0, outputs);
  detail::check_against_targets(s.scenario, s.config, s.opened);
  for (size_t i = 0; i < s.opened.size(); ++i) {
    const json before = device::identity_fingerprint(s.run.at("identities").at(i));
    const json now = device::identity_fingerprint(s.opened[i]->identity);
    if (before != now) {
      throw SafetyRefusal(fmt::format("refusing to resume: target {} ({}) is not the device the run started on ({})",
                                      i + 1, s.config.targets[i], device::fingerprint_difference(before, now)));
    }
  }
  s.targets = detail::runner_targets(s.scenario, s.config, s.opened);
  RunLogFile log(s.out->file(k_run_log_file));
  log.info(fmt::format("ptsuite {} scenario {} resumed: {}", version(), s.scenario.name,
                       join_command_line(s.config.command_line)));
  return execute(s, log, observer, stop);
}

}  // namespace ptsuite::scenario
