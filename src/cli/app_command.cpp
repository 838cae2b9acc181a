// `ptsuite app`: application workloads on the target (docs/app.md): `app list`, `app run NAME`,
// `app cleanup`.
#include <fmt/format.h>
#include <filesystem>
#include <fstream>
#include <mutex>

#include <ptsuite/app/app_runner.hpp>
#include <ptsuite/app/definition.hpp>
#include <ptsuite/app/run_state.hpp>
#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/report/app_report.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/version.hpp>

#include "cli/commands.hpp"
#include "cli/path_roles.hpp"
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
};

std::string command_line() {
  std::string line;
  for (const std::string& a : invocation()) line += (line.empty() ? "" : " ") + a;
  return line;
}

std::string default_out(const std::string& name) {
  std::string stamp = utc_now_iso8601();  // 2026-11-26T18:00:00Z -> 20261126-180000
  std::erase_if(stamp, [](char c) { return c == '-' || c == ':' || c == 'Z'; });
  std::replace(stamp.begin(), stamp.end(), 'T', '-');
  return fmt::format("app-{}-{}", name, stamp);
}

// Console lines (stderr) and run.log once the output directory exists.
class RunLog {
 public:
  RunLog(OutputDir dir, bool quiet) : m_dir(std::move(dir)), m_quiet(quiet) {}
  void line(const std::string& text) {
    const std::lock_guard lock(m_mutex);
    const std::string stamped = utc_now_iso8601() + " " + text;
    if (!m_quiet) fmt::print(stderr, "{}\n", text);
    if (!m_file && fs::is_directory(m_dir.path())) m_file.emplace(AppendFile::open(m_dir.file("run.log")));
    if (m_file) m_file->write(stamped + "\n");
  }

 private:
  OutputDir m_dir;
  bool m_quiet;
  std::mutex m_mutex;
  std::optional<AppendFile> m_file;
};

void write_reports(const app::AppRunOutcome& outcome, const OutputDir& dir, bool quiet) {
  write_file_atomic(dir.file("report.html"), report::app_html(outcome.run));
  const std::string text = report::app_text(outcome.run);
  write_file_atomic(dir.file("summary.txt"), text);
  write_file_atomic(dir.file("app.csv"), report::app_csv(outcome.run));
  if (!quiet) {
    fmt::print("{}\nresults: {}/results.json\nreport:  {}/report.html\n", text, dir.string(), dir.string());
  }
}

int run_app_command(const AppRunArgs& a) {
  device::OutputGate gate("app run");
  for (const std::string& t : a.targets) gate.add_target(t, "--target");
  const OutputDir out =
      gate.directory(a.out.empty() ? default_out(a.name) : a.out, "--out", device::OutputGate::Existing::must_be_empty);
  const StopSignals signals;
  RunLog log(out, a.quiet);
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
  rq.command = command_line();
  rq.tool_version = fmt::format("{} ({})", version(), git_revision());
  rq.stop = &signals.flag();
  rq.log = [&log](const std::string& line) { log.line(line); };
  const app::AppRunOutcome outcome = app::run_app(rq);
  write_reports(outcome, out, a.quiet);
  if (outcome.exit_code != 0) {
    fmt::print(stderr, "ptsuite: app run {}: {}\n", outcome.run.status, outcome.run.error);
  }
  return outcome.exit_code;
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
  run->add_option("--target", a->targets, "Block device per instance (default: scratch loop devices in /dev/shm)")
      ->check(paths::target_write());
  run->add_option(
         "--instances", a->instances,
         fmt::format("Instances without --target: that many scratch devices at once (1 to {})", app::k_max_instances))
      ->check(paths::none());
  run->add_flag("--quick", a->quick, "The short form (small database, seconds-long periods)");
  run->add_option("--set", a->sets, "Setting NAME=VALUE (see docs/app.md), repeatable")->check(paths::none());
  run->add_option("--out", a->out, "Output directory (default: ./app-<name>-<UTC time>)")->check(paths::output_dir());
  run->add_flag("--allow-destructive", a->allow_destructive, "Allow making a filesystem on a block device");
  run->add_option("--confirm-serial", a->confirm_serials, "Serial of each real drive (repeatable)")
      ->check(paths::none());
  run->add_flag("--no-capture", a->no_capture, "Do not capture the block IO of the measured period");
  run->add_flag("--quiet", a->quiet, "Print only errors");
  run->callback([&slot, a, run] {
    a->instances_given = run->count("--instances") > 0;
    slot.fields = {{"app.scale", "--set scale"},
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
