// `ptsuite fleet submit` and `ptsuite fleet job` (docs/fleet.md): one sbatch per drive, and the
// batch step each job runs.
#include <fmt/format.h>
#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include <ptsuite/device/drives.hpp>
#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/fleet/inventory.hpp>
#include <ptsuite/fleet/job.hpp>
#include <ptsuite/fleet/progress.hpp>
#include <ptsuite/fleet/slurm.hpp>
#include <ptsuite/fleet/submit.hpp>
#include <ptsuite/history/drives.hpp>
#include <ptsuite/history/location.hpp>
#include <ptsuite/history/store.hpp>
#include <ptsuite/lifecycle/finish_run.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/printable.hpp>
#include <ptsuite/util/shell_quote.hpp>
#include <ptsuite/util/units.hpp>

#include "cli/commands.hpp"
#include "cli/ending.hpp"
#include "cli/flags.hpp"
#include "cli/fleet_command.hpp"
#include "cli/history_support.hpp"
#include "cli/path_roles.hpp"
#include "cli/run_common.hpp"
#include "cli/run_console.hpp"
#include "cli/signals.hpp"

namespace ptsuite::cli {

namespace {

namespace fs = std::filesystem;

struct SubmitOptions {
  FleetRunOptions run;
  std::vector<std::string> serials;
  std::string model, firmware;
  std::vector<std::string> drive_labels;
  std::string gres_name = fleet::k_default_gres_name;
  std::string partition;
  std::string time;      // --time DURATION: instead of the plan's
  std::string capacity;  // --capacity SIZE: for drives the registry does not know
  std::string ptsuite_binary;
  std::vector<std::string> sbatch_args;
  bool again = false;
  bool dry_run = false;
};

struct JobOptions {
  FleetRunOptions run;
  std::string serial;
};

std::string self_binary() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("ptsuite") : self.string();
}

fs::path run_root_of(const FleetRunOptions& o) {
  return o.run_root.empty() ? fs::path(fleet::default_run_root()) : fs::path(o.run_root);
}

fleet::SbatchRequest sbatch_request(const SubmitOptions& o, const pts::RunConfig& config,
                                    const fleet::SubmitDrive& drive) {
  fleet::SbatchRequest r;
  r.serial = drive.serial;
  r.gres_name = o.gres_name;
  if (!o.time.empty()) {
    r.time_limit_s = units::parse_duration_ns(o.time, "--time") / 1000000000;
  } else {
    std::optional<uint64_t> capacity = drive.capacity_bytes;
    if (!capacity && !o.capacity.empty()) capacity = units::parse_capacity_bytes(o.capacity, "--capacity");
    if (!capacity) {
      throw UsageError("--capacity", fmt::format("the registry does not know the capacity of {}, which the time "
                                                 "limit comes from: register the drives (`fleet inventory "
                                                 "--register`) or give --capacity or --time",
                                                 drive.serial));
    }
    r.time_limit_s = fleet::time_limit_s(config, *capacity);
  }
  r.signal_lead_s = std::min(fleet::k_signal_lead_s, r.time_limit_s / 4);
  r.partition = o.partition;
  const fs::path root = run_root_of(o.run);
  r.output = (root / "%x-%j.out").string();
  r.comment = fleet::progress_comment({o.run.campaign, "queued", 0, 0, "", "", ""});
  r.job_argv = {o.ptsuite_binary.empty() ? self_binary() : o.ptsuite_binary, "fleet", "job"};
  for (std::string& w : fleet_run_words(o.run)) r.job_argv.push_back(std::move(w));
  r.job_argv.insert(r.job_argv.end(), {"--serial", drive.serial});
  r.extra_sbatch = {"--chdir=" + root.string()};
  r.extra_sbatch.insert(r.extra_sbatch.end(), o.sbatch_args.begin(), o.sbatch_args.end());
  return r;
}

void print_dry_run(const fleet::SbatchRequest& r) {
  std::string line;
  for (const std::string& w : fleet::sbatch_argv(r)) line += (line.empty() ? "" : " ") + shell_quote(w);
  fmt::print("{} <<'EOF'\n{}EOF\n", line, fleet::batch_script(r.job_argv));
}

int run_fleet_submit(const SubmitOptions& o) {
  if (!o.run.allow_destructive) {
    throw SafetyRefusal(
        "fleet submit runs PTS tests that overwrite and purge every drive named: give "
        "--allow-destructive");
  }
  // The run root is written on the hosts (Slurm's job output, the runs): one that is a device
  // node, a special file or a loop device's backing file here is refused before anything.
  device::OutputGate gate("fleet submit");
  (void)gate.directory(run_root_of(o.run).string(), "--run-root", device::OutputGate::Existing::may_hold_files);
  const history::HistoryDb db = gate_history_db(gate, o.run.db, "--db");
  const pts::RunConfig config = fleet_run_config(o.run);
  history::HistoryStore store = history::HistoryStore::open(db);
  const Labels drive_labels = parse_labels(o.drive_labels, "--drive-label");
  const std::vector<history::FleetDrive> registered =
      o.serials.empty() ? history::registered_drives(store.backend(), o.model, o.firmware, drive_labels)
                        : history::registered_drives(store.backend(), "", "", {});
  const std::vector<fleet::SubmitDrive> drives =
      fleet::select_drives(o.serials, registered, o.model, o.firmware, drive_labels);
  const std::vector<history::RunRecord> done = store.list({"", "", Labels{{"campaign", o.run.campaign}}});
  size_t submitted = 0;
  for (const fleet::SubmitDrive& d : drives) {
    if (const auto run = fleet::completed_run(done, d.serial, config.tests); run && !o.again) {
      fmt::print("{}: skipped: campaign {} is complete on it (history run {}; --again submits it anyway)\n", d.serial,
                 o.run.campaign, run->id);
      continue;
    }
    const fleet::SbatchRequest request = sbatch_request(o, config, d);
    if (o.dry_run) {
      print_dry_run(request);
      continue;
    }
    const uint64_t job = fleet::submit(request);
    ++submitted;
    fmt::print("{}: job {} (time limit {}{})\n", d.serial, job, fleet::slurm_time(request.time_limit_s),
               d.node.empty() ? "" : ", node " + d.node);
  }
  fmt::print("campaign {}: {} job(s) submitted for {} drive(s); `ptsuite fleet status --campaign {}` follows them\n",
             o.run.campaign, submitted, drives.size(), o.run.campaign);
  return 0;
}

std::string exit_meaning(int code) {
  switch (static_cast<fleet::JobExit>(code)) {
    case fleet::JobExit::done:
      return "done: the run is complete and in the history";
    case fleet::JobExit::history_retry:
      return "the history is unreachable: requeue (slurm.conf RequeueExit) to push again";
    case fleet::JobExit::interrupted:
      return "interrupted: requeue to resume";
    case fleet::JobExit::io_error:
      return "an IO error stopped the run: hold for a human (RequeueExitHold)";
    default:
      return "hold for a human (RequeueExitHold)";
  }
}

int run_fleet_job_command(const JobOptions& o) {
  fleet::JobRequest r;
  r.serial = device::normalize_serial(o.serial);
  r.campaign = o.run.campaign;
  r.config = fleet_run_config(o.run);
  r.run_root = run_root_of(o.run);
  device::OutputGate gate("fleet job");
  r.run_root_dir = gate.directory(r.run_root.string(), "--run-root", device::OutputGate::Existing::may_hold_files);
  r.history_db = gate_history_db(gate, o.run.db, "--db");
  r.max_push_failures = o.run.push_retries;
  StopSignals signals;
  RunConsole console(false);
  const char* job_env = std::getenv("SLURM_JOB_ID");
  const uint64_t job_id = job_env != nullptr ? std::strtoull(job_env, nullptr, 10) : 0;
  fleet::ProgressPoster poster(console, {r.campaign, "starting", 0, 0, "", "", ""},
                               [job_id](const std::string& comment) {
                                 if (job_id != 0) fleet::set_comment(job_id, comment);
                               });
  fleet::JobHooks hooks;
  hooks.say = [&console](const std::string& line) { console.result(line); };
  hooks.state = [&poster](const std::string& state) { poster.set_state(state); };
  hooks.run = [&poster](const std::string& uid) { poster.set_run(uid); };
  hooks.finish = [&console](const pts::RunOutcome& outcome) {
    lifecycle::FinishOptions fo;  // no history: the job pushes the run itself (fleet/job.hpp)
    fo.formats = outcome.report_formats;
    fo.final_note = outcome.final_note;
    if (!outcome.out) throw std::logic_error("fleet job: a run outcome without its directory's token");
    const lifecycle::FinishedRun done = lifecycle::finish_run(*outcome.out, outcome.document, fo);
    print_ending(done, outcome.results_path, "", [&console](const std::string& l) { console.result(l); });
  };
  int code = 0;
  try {
    code = fleet::run_fleet_job(r, poster, &signals.flag(), gate, hooks);
  } catch (const Error& e) {
    poster.set_state(e.code() == ExitCode::refused ? "refused" : "failed");
    throw;
  }
  poster.set_state(code == 0 ? "complete" : code == 130 ? "interrupted" : code == 75 ? "push-retry" : "held");
  console.result(fmt::format("fleet job: exit {}: {}", code, exit_meaning(code)));
  return code;
}

}  // namespace

void register_fleet_submit(CLI::App& fleet, CommandSlot& slot) {
  auto o = std::make_shared<SubmitOptions>();
  CLI::App* sub = fleet.add_subcommand("submit", "One Slurm job per drive: a campaign's PTS run on each named drive");
  add_fleet_run_options(sub, o->run);
  add_shared_option(sub, "--serial", o->serials, "The drives, by serial (repeatable)")->check(paths::none());
  add_shared_option(sub, "--model", o->model, "Or: every registered drive of this model (`fleet inventory --register`)")
      ->check(paths::none());
  sub->add_option("--firmware", o->firmware, "With --model: only this firmware")->check(paths::none());
  add_shared_option(sub, "--drive-label", o->drive_labels,
                    "Or: registered drives with this label, key=value (repeatable)")
      ->check(paths::none());
  add_shared_option(sub, "--gres-name", o->gres_name, "The drives' GRES name in gres.conf")
      ->check(paths::none())
      ->capture_default_str();
  sub->add_option("--partition", o->partition, "Slurm partition (default: the cluster's)")->check(paths::none());
  sub->add_option("--time", o->time, "Time limit per job instead of the plan's worst case x 1.5 + 15 min (e.g. 3d)")
      ->check(paths::none());
  add_shared_option(sub, "--capacity", o->capacity, "Capacity to plan the time limit for, when the registry has none")
      ->check(paths::none());
  sub->add_option("--ptsuite", o->ptsuite_binary, "ptsuite on the hosts (default: this binary's path)")
      ->check(paths::none());  // a path on the hosts: neither read nor written here
  sub->add_option("--sbatch-arg", o->sbatch_args, "One more sbatch argument (repeatable), e.g. --sbatch-arg=--qos=lab")
      ->check(paths::none());
  sub->add_flag("--again", o->again, "Submit drives whose campaign run is complete in the history too");
  sub->add_flag("--dry-run", o->dry_run, "Print the sbatch commands and scripts; submit nothing");
  sub->callback([o, &slot] { slot.action = [o] { return run_fleet_submit(*o); }; });
}

void register_fleet_job(CLI::App& fleet, CommandSlot& slot) {
  auto o = std::make_shared<JobOptions>();
  CLI::App* sub = fleet.add_subcommand(
      "job", "The batch step of a fleet job (sbatch runs it): run or resume the drive's campaign run, push it once");
  add_fleet_run_options(sub, o->run);
  add_shared_option(sub, "--serial", o->serial, "The drive, by serial")->check(paths::none())->required();
  sub->callback([o, &slot] {
    slot.fields = FieldFlags{{"engine", "--engine"}, {"target", "--serial"}};
    slot.action = [o] { return run_fleet_job_command(*o); };
  });
}

void add_fleet_run_options(CLI::App* sub, FleetRunOptions& o) {
  sub->add_option("tests", o.tests, "Tests, comma-separated, or core / all (as `ptsuite run` takes them)")
      ->check(paths::none())
      ->required();
  add_shared_option(sub, "--campaign", o.campaign, "The campaign: the label campaign=NAME of every run")
      ->check(paths::none())
      ->required();
  add_spec_options(sub, o.spec);
  add_shared_option(sub, "--seed", o.seed, "Run seed")
      ->check(paths::none())
      ->check(whole_number())
      ->capture_default_str();
  add_shared_option(sub, "--engine", o.engine, "IO engine")->check(paths::none())->capture_default_str();
  add_formats(sub, o.reports, "Reports each run writes: html,pdf,csv,text,json (or none)")->capture_default_str();
  add_deprecated(sub, "--reports", o.reports, "--format");
  add_shared_option(sub, "--tested-by", o.tested_by, "Test sponsor / lab named in the report header")
      ->check(paths::none());
  add_shared_option(sub, "--label", o.labels, "key=value stored with every run (repeatable)")->check(paths::none());
  add_shared_flag(sub, "--allow-destructive", o.allow_destructive, "Consent to overwrite and purge the drives");
  add_shared_flag(sub, "--strict-preflight", o.strict_preflight, "Refuse to start on a preflight warning too");
  add_shared_option(sub, "--db", o.db, "The shared history (default: $PTSUITE_HISTORY_DB in the job's environment)")
      ->check(paths::database());
  add_shared_option(sub, "--run-root", o.run_root,
                    "Host-local run directories (default: $PTSUITE_FLEET_ROOT, else /var/lib/ptsuite/fleet)")
      ->check(paths::output_dir());
  add_shared_option(sub, "--push-retries", o.push_retries, "Requeues for an unreachable history before the job is held")
      ->check(paths::none())
      ->check(whole_number())
      ->capture_default_str();
}

pts::RunConfig fleet_run_config(const FleetRunOptions& o) {
  pts::RunConfig c;
  c.revision = o.spec.revision;
  c.profile = o.spec.profile;
  c.tests = pts::tests_for_revision(pts::parse_test_list(o.tests), c.revision);
  c.presets = o.spec.presets();
  c.overrides = o.spec.overrides();
  c.seed = o.seed;
  c.engine = o.engine;
  c.allow_destructive = o.allow_destructive;
  c.strict_preflight = o.strict_preflight;
  c.report_formats = report_formats(o.reports);
  c.tested_by = o.tested_by;
  c.command_line = invocation();
  c.labels = run_labels(o.labels);
  add_label(c.labels, parse_label("campaign=" + o.campaign, "--campaign"), "--label");
  if (const char* node = std::getenv("SLURMD_NODENAME"); node != nullptr && *node != '\0' && !c.labels.count("host")) {
    add_label(c.labels, parse_label(std::string("host=") + node, "SLURMD_NODENAME"), "SLURMD_NODENAME");
  }
  return c;
}

std::vector<std::string> fleet_run_words(const FleetRunOptions& o) {
  std::vector<std::string> w = {o.tests,         "--campaign",     o.campaign,
                                "--profile",     o.spec.profile,   "--revision",
                                o.spec.revision, "--seed",         std::to_string(o.seed),
                                "--engine",      o.engine,         "--format",
                                o.reports,       "--push-retries", std::to_string(o.push_retries)};
  if (o.spec.quick) w.emplace_back("--quick");
  for (const std::string& s : o.spec.sets) w.insert(w.end(), {"--set", s});
  for (const std::string& l : o.labels) w.insert(w.end(), {"--label", l});
  if (!o.tested_by.empty()) w.insert(w.end(), {"--tested-by", o.tested_by});
  if (o.allow_destructive) w.emplace_back("--allow-destructive");
  if (o.strict_preflight) w.emplace_back("--strict-preflight");
  if (!o.db.empty()) w.insert(w.end(), {"--db", o.db});
  if (!o.run_root.empty()) w.insert(w.end(), {"--run-root", o.run_root});
  return w;
}

}  // namespace ptsuite::cli
