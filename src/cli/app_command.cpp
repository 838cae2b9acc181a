// `ptsuite app`: application workloads on the target (docs/app.md): `app list`, `app run NAME`,
// `app cleanup`. An app run ends as every run does (lifecycle/finish_run.hpp: reports from its
// document, run.log, manifest, history, the summary on the console).
#include <fmt/format.h>
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>

#include <ptsuite/app/app_runner.hpp>
#include <ptsuite/app/definition.hpp>
#include <ptsuite/app/run_state.hpp>
#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/lifecycle/finish_run.hpp>
#include <ptsuite/util/command_line.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/out_dir.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/run_log_file.hpp>
#include <ptsuite/util/version.hpp>

#include "cli/commands.hpp"
#include "cli/ending.hpp"
#include "cli/flags.hpp"
#include "cli/history_support.hpp"
#include "cli/path_roles.hpp"
#include "cli/run_common.hpp"
#include "cli/signals.hpp"
#include "cli/target_option.hpp"

namespace ptsuite::cli {

namespace {

namespace fs = std::filesystem;

struct AppRunArgs {
  std::string name;
  std::vector<std::string> targets;
  int64_t instances = 0;
  bool instances_given = false;
  bool quick = false;
  std::vector<std::string> sets;
  std::string out;
  bool allow_destructive = false;
  std::vector<std::string> confirm_serials;
  bool no_capture = false;
  bool quiet = false;
  std::string formats = "html,csv,text";
  std::string paper = "auto";
  bool no_history = false;
  std::string db;
};

// Console lines (stderr; none with --quiet) and run.log once the output directory exists.
class AppLog {
 public:
  AppLog(OutputDir dir, bool quiet) : m_dir(std::move(dir)), m_quiet(quiet) {}
  void line(const std::string& text) {
    const std::lock_guard lock(m_mutex);
    if (!m_quiet) fmt::print(stderr, "{}\n", text);
    std::error_code ec;
    if (!m_file && std::filesystem::is_directory(m_dir.path(), ec)) m_file.emplace(m_dir.file(k_run_log_file));
    if (m_file) m_file->info(text);
  }

 private:
  OutputDir m_dir;
  bool m_quiet;
  std::mutex m_mutex;
  std::optional<RunLogFile> m_file;
};

int run_app_command(const AppRunArgs& a) {
  const std::vector<std::string> formats = report_formats(a.formats, a.paper);
  device::OutputGate gate("app run");
  for (const std::string& t : a.targets) gate.add_target(t, "--target");
  const OutputDir out = gate.directory(a.out.empty() ? default_out_dir("ptsuite-app-" + a.name) : a.out, "--out",
                                       device::OutputGate::Existing::must_be_empty);
  const std::optional<history::HistoryDb> history = gate_run_history(gate, a.no_history, a.db);
  const StopSignals signals;
  int code = 0;
  app::AppRunOutcome outcome;
  {
    AppLog log(out, a.quiet);
    app::AppRunRequest rq;
    rq.app = a.name;
    rq.quick = a.quick;
    rq.sets = a.sets;
    rq.targets = a.targets;
    if (a.instances_given) {  // the range is app::check_request's; a negative count never reaches it
      if (a.instances < 0) {
        throw UsageError("--instances", fmt::format("{} is outside 1 to {}", a.instances, app::k_max_instances));
      }
      rq.instances = static_cast<uint32_t>(std::min<int64_t>(a.instances, UINT32_MAX));
    }
    rq.allow_destructive = a.allow_destructive;
    rq.confirm_serials = a.confirm_serials;
    rq.output_dir = out;
    rq.capture = !a.no_capture;
    rq.command = join_command_line(invocation());
    rq.tool_version = fmt::format("{} ({})", version(), git_revision());
    rq.stop = &signals.flag();
    rq.log = [&log](const std::string& line) { log.line(line); };
    outcome = app::run_app(rq);
    code = outcome.exit_code;
  }  // run.log closed: the ending appends to it
  lifecycle::FinishOptions fo;
  fo.formats = formats;
  fo.paper = a.paper;
  fo.history = history;
  fo.final_note = fmt::format("app run {}: {}; exit code {}", a.name, outcome.run.status, code);
  nlohmann::json doc;
  to_json(doc, outcome.run);
  const results::Document document =
      results::make_document(outcome.run, std::make_shared<const nlohmann::json>(std::move(doc)));
  const lifecycle::FinishedRun done = lifecycle::finish_run(out, document, fo);
  print_ending(
      done, (out.path() / "results.json").string(), "", [](const std::string& l) { fmt::print("{}\n", l); }, !a.quiet);
  if (code != 0) fmt::print(stderr, "ptsuite: app run {}: {}\n", outcome.run.status, outcome.run.error);
  return code;
}

int list_apps() {
  for (const std::string& name : app::app_names()) {
    const app::AppDefinition d = app::load_app(name);
    fmt::print("{:<18} {} ({} + {} {})\n", name, d.title, d.server, d.driver, d.workload);
  }
  return 0;
}

int cleanup() {
  const app::CleanupReport r = app::cleanup_leftovers();
  for (const std::string& line : r.actions) fmt::print("{}\n", line);
  fmt::print("{} leftover run(s) cleaned up{}\n", r.runs_cleaned,
             r.runs_in_use > 0 ? fmt::format("; {} run(s) still in progress left alone", r.runs_in_use) : "");
  return 0;
}

void register_run(CLI::App* cmd, CommandSlot& slot) {
  CLI::App* run = cmd->add_subcommand("run", "Run an application on the target(s), capture its block IO, report");
  auto a = std::make_shared<AppRunArgs>();
  run->add_option("name", a->name, "Application (see `ptsuite app list`)")->check(paths::none())->required();
  add_shared_option(run, "--target", a->targets,
                    "Block device per instance (default: scratch loop devices in /dev/shm)")
      ->check(paths::target_write());
  run->add_option(
         "--instances", a->instances,
         fmt::format("Instances without --target: that many scratch devices at once (1 to {})", app::k_max_instances))
      ->check(paths::none());
  add_shared_flag(run, "--quick", a->quick, "The short form (small database, seconds-long periods)");
  add_shared_option(run, "--set", a->sets, "Setting NAME=VALUE (see docs/app.md), repeatable")->check(paths::none());
  add_out_dir(run, a->out, "Run directory (default: ./ptsuite-app-<name>-<UTC time>)");
  add_shared_flag(run, "--allow-destructive", a->allow_destructive, "Allow making a filesystem on a block device");
  add_shared_option(run, "--confirm-serial", a->confirm_serials, "Serial of each real drive (repeatable)")
      ->check(paths::none());
  run->add_flag("--no-capture", a->no_capture, "Do not capture the block IO of the measured period");
  add_shared_flag(run, "--quiet", a->quiet, "No progress lines (errors and the final result lines only)");
  add_formats(run, a->formats, "Reports to write into the run directory: html,pdf,csv,text,json (or none)")
      ->capture_default_str();
  add_shared_option(run, "--paper", a->paper, "Paper of the PDF report: a4, letter or auto")
      ->check(paths::none())
      ->capture_default_str();
  add_history_options(run, a->no_history, a->db);
  run->callback([&slot, a, run] {
    a->instances_given = run->count("--instances") > 0;
    slot.fields = FieldFlags{{"app.scale", "--set scale"},
                             {"app.clients", "--set clients"},
                             {"app.threads", "--set threads"},
                             {"app.tables", "--set tables"},
                             {"app.rows", "--set rows"},
                             {"app.warmup", "--set warmup"},
                             {"app.duration", "--set duration"},
                             {"app.step", "--set step"},
                             {"app.server_cache", "--set server_cache"},
                             {"app.memory_limit", "--set memory_limit"},
                             {"app.filesystem", "--set filesystem"}};
    slot.action = [a] {
      resolve_target_options(a->targets);
      return run_app_command(*a);
    };
  });
}

}  // namespace

void register_app_command(CLI::App& app, CommandSlot& slot) {
  CLI::App* cmd = app.add_subcommand("app", "Application workloads: databases and their benchmarks on the target");
  cmd->require_subcommand(1);
  register_run(cmd, slot);
  cmd->add_subcommand("list", "The built-in applications")->callback([&slot] { slot.action = list_apps; });
  cmd->add_subcommand("cleanup", "Stop servers and unmount filesystems that killed app runs left behind")
      ->callback([&slot] { slot.action = cleanup; });
}

}  // namespace ptsuite::cli
