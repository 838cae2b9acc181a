// `ptsuite replay CAPTURE`: replay a captured workload on a target and measure how faithful
// the replay was (docs/replay.md). The same order as `workload` (cli/workload_command.hpp):
// option syntax and output paths (2), the capture readable (2), the target gate (3; writes to
// a block device or a file holding data need --allow-destructive), then the replay. Without
// --target a scratch target in RAM as large as the captured device (at most 1 GiB; LBAs are
// remapped into it). The replay is a run: its directory (--out DIR, default
// ./ptsuite-replay-<time>) holds results.json (kind "ptsuite.replay"), run.log, the reports and
// the manifest, and it is recorded in the history (lifecycle/finish_run.hpp). Exit 0, 4 (an IO
// error stopped the replay) or 130; the record is written in every case.
#include <fmt/format.h>
#include <algorithm>
#include <csignal>
#include <memory>
#include <optional>

#include <ptsuite/capture/capture_file.hpp>
#include <ptsuite/capture/characterize.hpp>
#include <ptsuite/capture/trace_import.hpp>
#include <ptsuite/device/identity.hpp>
#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/device/target_gate.hpp>
#include <ptsuite/engine/scratch_target.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/lifecycle/finish_run.hpp>
#include <ptsuite/replay/replay_plan.hpp>
#include <ptsuite/replay/replay_ramp.hpp>
#include <ptsuite/replay/replay_runner.hpp>
#include <ptsuite/replay/replay_source.hpp>
#include <ptsuite/replay/synthesis.hpp>
#include <ptsuite/report/replay_report.hpp>
#include <ptsuite/results/replay_json_text.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/command_line.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/out_dir.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/run_log_file.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/util/version.hpp>
#include <ptsuite/workload/spec_parse.hpp>

#include "cli/commands.hpp"
#include "cli/ending.hpp"
#include "cli/flags.hpp"
#include "cli/history_support.hpp"
#include "cli/path_roles.hpp"
#include "cli/run_common.hpp"
#include "cli/signals.hpp"
#include "cli/target_option.hpp"
#include "cli/workload_command.hpp"

namespace ptsuite::cli {

namespace {

constexpr uint64_t k_max_replay_scratch_bytes = units::k_gib;  // RAM is shared with everything else
constexpr uint64_t k_min_replay_scratch_bytes = 64ULL << 20;

struct ReplayArgs {
  std::vector<std::string> inputs;
  std::string target;
  std::string mode = "open";
  std::string speed = "1";
  std::string step = "5m";
  std::string queue_depth;
  std::string lag_threshold = "1ms";
  std::string engine = "libaio";
  std::string seed;
  std::string ramp;  // "10:100:10": percentages of the closed-loop limit
  int device = 0;
  std::string out;
  bool json = false;     // the record on stdout
  std::string json_out;  // the record to a file (also the old `--json FILE`)
  std::string html;      // deprecated: the HTML report to a file
  std::string formats = "html,csv,text";
  std::string paper = "auto";
  bool no_history = false;
  std::string db;
  bool allow_destructive = false;
  bool quiet = false;
  bool synthesize = false;
};

replay::ReplayOptions options_of(const ReplayArgs& a) {
  replay::ReplayOptions o;
  if (a.mode == "open") {
    o.mode = replay::ReplayMode::open_loop;
  } else if (a.mode == "closed") {
    o.mode = replay::ReplayMode::closed_loop;
  } else {
    throw UsageError("--mode", fmt::format("\"{}\" is not a mode; give open or closed", a.mode));
  }
  o.speed = workload::parse_decimal(a.speed, "--speed");
  if (!(o.speed > 0)) throw UsageError("--speed", "give a speed above 0, e.g. 0.5, 1 or 2");
  o.step_ns = units::parse_duration_ns(a.step, "--step");
  if (o.step_ns == 0) throw UsageError("--step", "0 is not a step length; give e.g. 1s or 5m");
  if (!a.queue_depth.empty()) {
    const uint64_t qd = units::parse_count(a.queue_depth, "--queue-depth");
    if (qd == 0 || qd > 4096) throw UsageError("--queue-depth", "give 1 to 4096 queue slots");
    o.queue_slots = static_cast<uint32_t>(qd);
  }
  o.lag_threshold_ns = units::parse_duration_ns(a.lag_threshold, "--lag-threshold");
  if (a.device < 0 || a.device > UINT16_MAX) throw UsageError("--device", "give a device index of the capture");
  o.device = static_cast<uint16_t>(a.device);
  o.engine = a.engine;
  o.seed = a.seed.empty() ? random_seed() : parse_seed(a.seed);
  if (!a.ramp.empty() && (a.mode != "open" || a.speed != "1")) {
    throw UsageError("--ramp", "a ramp chooses the mode and the speeds itself; leave out --mode and --speed");
  }
  return o;
}

// The drive replayed on, as the record names it (device/identity.hpp: read-only).
results::DriveIdentity target_identity(const std::string& path) {
  nlohmann::json j;
  device::to_json(j, device::identify(path));
  return results::read_drive_identity(j);
}

std::string ramp_point_line(const results::RampPoint& p) {
  const results::ReplayDirectionLatency& all = p.latency.combined;
  return fmt::format(
      "ramp {:g} %: {:.0f} IOPS asked, {:.0f} achieved, mean {:.1f} us, 99 % {:.1f} us, max {:.1f} us{}\n", p.percent,
      p.target_iops, all.iops, all.mean_ns / 1e3, static_cast<double>(all.p99_ns) / 1e3,
      static_cast<double>(all.max_ns) / 1e3,
      p.steps_fell_behind > 0 ? fmt::format(", {} of {} steps could not keep up", p.steps_fell_behind, p.steps) : "");
}

// The --json-out and --html (deprecated) outputs and the run directory, let through by the
// command's output gate before anything is touched.
struct ReplayOutputs {
  std::optional<OutputPath> json;
  std::optional<OutputPath> html;
};

ReplayOutputs gate_replay_outputs(device::OutputGate& gate, const ReplayArgs& a) {
  ReplayOutputs out;
  if (!a.json_out.empty()) out.json = gate.file(a.json_out, "--json-out");
  if (!a.html.empty()) out.html = gate.file(a.html, "--html");
  return out;
}

// The replay's ending (lifecycle/finish_run.hpp) and its exit code.
int end_replay(const results::ReplayRecord& rec, const ReplayArgs& a, const OutputDir& dir, const ReplayOutputs& out,
               const std::vector<std::string>& formats, const std::optional<history::HistoryDb>& history,
               const StopSignals& signals) {
  // results.json streamed ~1 MiB at a time (neither a tree nor the whole text of a long replay
  // is ever in memory); the JSON tree only where JSON is asked for (--json, --json-out,
  // --format json).
  StreamedFile results_file = StreamedFile::create(dir.file("results.json"));
  results::write_json_text(rec,
                           [&results_file](std::string_view part) { results_file.write(part.data(), part.size()); });
  results_file.publish();
  const bool tree_wanted = a.json || out.json || std::find(formats.begin(), formats.end(), "json") != formats.end();
  std::shared_ptr<nlohmann::json> doc;
  if (tree_wanted) {
    doc = std::make_shared<nlohmann::json>();
    to_json(*doc, rec);
  }
  if (out.json) write_file_atomic(*out.json, doc->dump(2) + "\n");
  if (out.html) write_file_atomic(*out.html, report::replay_html(rec));
  lifecycle::FinishOptions fo;
  fo.formats = formats;
  fo.paper = a.paper;
  fo.history = history;
  fo.final_note = fmt::format("replay {}: {} steps, {} could not keep up", rec.stop_reason, rec.steps.size(),
                              rec.steps_fell_behind);
  const results::Document document = results::make_document(rec, std::shared_ptr<const nlohmann::json>(doc));
  const lifecycle::FinishedRun done = lifecycle::finish_run(dir, document, fo);
  if (a.json) {
    fmt::print("{}", doc->dump(2) + "\n");
  } else {
    print_ending(
        done, (dir.path() / "results.json").string(), "", [](const std::string& l) { fmt::print("{}\n", l); },
        !a.quiet);
    if (!a.quiet && out.json) fmt::print("record: {}\n", out.json->string());
    if (!a.quiet && out.html) fmt::print("report: {}\n", out.html->string());
  }
  if (rec.stop_reason == "io_error") {
    fmt::print(stderr, "ptsuite: an IO error stopped the replay: {}\n", rec.error);
    return static_cast<int>(ExitCode::io_error);
  }
  if (rec.stop_reason == "interrupted") {
    fmt::print(stderr, "ptsuite: interrupted by {}\n", signals.received() == SIGTERM ? "SIGTERM" : "SIGINT");
    return static_cast<int>(ExitCode::interrupted);
  }
  return 0;
}

// --synthesize: the applied test workload only (no target, no IO, no run directory).
int synthesize_command(const ReplayArgs& a, const replay::ReplaySource& input, const replay::ReplayOptions& o,
                       const ReplayOutputs& out) {
  capture::CharacterizeOptions co;
  co.step_ns = o.step_ns;
  co.device = o.device;
  results::IoCharacterization c = capture::characterize_reader(*input.open(), co);
  c.capture_file = input.name();
  const replay::AppliedWorkload w = replay::synthesize(c);
  if (a.json) {
    fmt::print("{}", replay::to_json(w).dump(2) + "\n");
  } else {
    fmt::print("{}", replay::to_text(w));
  }
  if (out.json) write_file_atomic(*out.json, replay::to_json(w).dump(2) + "\n");
  return 0;
}

// The replay itself (or the ramp) on the opened target, logged to run.log.
results::ReplayRecord replay_on(const ReplayArgs& a, const replay::ReplaySource& input, const engine::Target& target,
                                const replay::ReplayOptions& o, const std::vector<double>& percents,
                                const OutputDir& dir) {
  RunLogFile log(dir.file(k_run_log_file));
  log.info(fmt::format("ptsuite {} replay started: {}", version(), join_command_line(invocation())));
  const std::string started = utc_now_iso8601();
  results::ReplayRecord rec;
  if (percents.empty()) {
    rec = replay::run_replay(*input.open(), input.name(), target, o);
  } else {
    const auto progress = [&a, &log](const results::RampPoint& p) {
      const std::string line = ramp_point_line(p);
      log.info(line.substr(0, line.size() - 1));
      if (!a.quiet) fmt::print("{}", line);
    };
    rec = replay::run_ramp(*input.open(), input.name(), target, o, percents, progress);
  }
  rec.started_utc = started;
  rec.finished_utc = utc_now_iso8601();
  rec.tool_version = fmt::format("{} ({})", version(), git_revision());
  rec.command = join_command_line(invocation());
  if (!rec.error.empty()) log.warning(rec.error);
  return rec;
}  // run.log closed: the ending appends to it

int run_replay_command(const ReplayArgs& a) {
  replay::ReplayOptions o = options_of(a);
  const std::vector<double> percents = a.ramp.empty() ? std::vector<double>{} : replay::parse_ramp(a.ramp, "--ramp");
  device::OutputGate gate("replay");
  for (const std::string& in : a.inputs) gate.add_input(in, "capture");
  gate.add_target(a.target, "--target");
  const ReplayOutputs out = gate_replay_outputs(gate, a);
  const replay::ReplaySource input(a.inputs);
  if (input.imported() && !a.quiet) {
    fmt::print("imported {} IOs from {} ({} other events or lines skipped)\n", input.summary().records,
               input.summary().source, input.summary().skipped);
  }
  for (const std::string& w : input.summary().warnings) fmt::print(stderr, "ptsuite: warning: {}\n", w);
  if (a.synthesize) return synthesize_command(a, input, o, out);
  const std::vector<std::string> formats = report_formats(a.formats, a.paper);
  const OutputDir dir = gate.directory(a.out.empty() ? default_out_dir("ptsuite-replay") : a.out, "--out",
                                       device::OutputGate::Existing::must_be_empty);
  const std::optional<history::HistoryDb> history = gate_run_history(gate, a.no_history, a.db);
  replay::ReplayPlan plan;
  uint64_t captured_capacity = 0;
  {
    const std::unique_ptr<capture::CaptureReader> reader = input.open();
    plan = replay::plan_replay(*reader, o.device, o.step_ns);
    captured_capacity = reader->header().devices.at(o.device).capacity_bytes;
  }
  if (plan.replay_ios == 0) {
    throw UsageError("capture", fmt::format("{} holds no read or write to replay", a.inputs.front()));
  }
  std::optional<engine::ScratchTarget> scratch;
  std::string path = a.target;
  bool consent = a.allow_destructive;
  if (path.empty()) {
    engine::ScratchOptions so;
    so.fill_random = true;  // reads of unwritten blocks would not do the work
    so.fill_seed = o.seed;
    scratch = engine::ScratchTarget::create(
        std::clamp(captured_capacity, k_min_replay_scratch_bytes, k_max_replay_scratch_bytes),
        /*prefer_loop=*/true, so);
    path = scratch->path();
    consent = true;  // our own scratch target holds nothing of the user's
  }
  const auto access = plan.writes ? device::TargetAccess::read_write : device::TargetAccess::read_only;
  const device::TargetGuard guard = device::pass_target_gate({path, access, consent, "replay"});
  const engine::Target target =
      plan.writes ? engine::Target::open(guard.writable()) : engine::Target::open_read_only(path);
  const StopSignals signals;
  o.stop = &signals.flag();
  dir.create();
  results::ReplayRecord rec = replay_on(a, input, target, o, percents, dir);
  rec.target_identity = target_identity(path);
  if (scratch) rec.target_note = "scratch: " + scratch->description();
  return end_replay(rec, a, dir, out, formats, history, signals);
}

}  // namespace

void register_replay_command(CLI::App& app, CommandSlot& slot) {
  CLI::App* cmd = app.add_subcommand(
      "replay", "Replay a captured workload on a target and measure how faithful the replay was (docs/replay.md)");
  auto a = std::make_shared<ReplayArgs>();
  cmd->add_option("capture", a->inputs,
                  "Capture file (.ptcap), fio iolog v2/v3, blktrace binary file(s) (the per-CPU files), or a built-in "
                  "capture: pgbench, sysbench")
      ->check(paths::input())
      ->required();
  add_shared_option(cmd, "--target", a->target, "Block device or file (default: a scratch target in RAM)")
      ->check(paths::target_write());
  cmd->add_option("--mode", a->mode,
                  "open (at the captured times) or closed (as fast as possible, captured order "
                  "and outstanding IOs)")
      ->check(paths::none())
      ->capture_default_str();
  cmd->add_option("--speed", a->speed, "Time scale of the open loop: 2 = twice as fast")
      ->check(paths::none())
      ->capture_default_str();
  add_shared_option(cmd, "--step", a->step, "Step length of the faithfulness figures (the capture's)")
      ->check(paths::none())
      ->capture_default_str();
  add_shared_option(cmd, "--queue-depth", a->queue_depth,
                    "Queue slots (default: 2 x the capture's most in flight, 32..256)")
      ->check(paths::none());
  cmd->add_option("--lag-threshold", a->lag_threshold, "A step could not keep up when its last IO is this late")
      ->check(paths::none())
      ->capture_default_str();
  add_shared_option(cmd, "--device", a->device, "The capture's device index to replay")
      ->check(paths::none())
      ->capture_default_str();
  add_shared_option(cmd, "--engine", a->engine, "IO engine (see `ptsuite engines`)")
      ->check(paths::none())
      ->capture_default_str();
  add_shared_option(cmd, "--seed", a->seed, "Seed of the write data (default: random, recorded)")->check(paths::none());
  cmd->add_option("--ramp", a->ramp,
                  "Rate ramp: replay closed loop for the limit, then open loop at these percentages of it, e.g. "
                  "10:100:10 or 10,50,100 (the load curve)")
      ->check(paths::none());
  add_out_dir(cmd, a->out,
              "Run directory: results.json (ptsuite.replay), reports, run.log, manifest (default: "
              "./ptsuite-replay-<time>)");
  add_json_with_deprecated_file(cmd, a->json, a->json_out, "The replay record (ptsuite.replay) as JSON on stdout");
  add_shared_option(cmd, "--json-out", a->json_out, "Also write the replay record (ptsuite.replay) to this file")
      ->check(paths::output_file());
  add_deprecated(cmd, "--html", a->html, "--out DIR (report.html)", PathRole::output_file);
  add_formats(cmd, a->formats, "Reports to write into the run directory: html,pdf,csv,text,json (or none)")
      ->capture_default_str();
  add_shared_option(cmd, "--paper", a->paper, "Paper of the PDF report: a4, letter or auto")
      ->check(paths::none())
      ->capture_default_str();
  add_history_options(cmd, a->no_history, a->db);
  add_shared_flag(cmd, "--allow-destructive", a->allow_destructive,
                  "Allow writes to a block device (destroys its data)");
  add_shared_flag(cmd, "--quiet", a->quiet, "No progress lines (errors and the final result lines only)");
  cmd->add_flag("--synthesize", a->synthesize,
                "Print the applied test workload (the top streams covering >= 80 % of the IOs; --json prints it as "
                "JSON, --json-out writes it) instead of replaying");
  cmd->callback([&slot, a] {
    slot.fields = FieldFlags{{"speed", "--speed"},   {"step", "--step"},
                             {"engine", "--engine"}, {"queue_depth", "--queue-depth"},
                             {"ramp", "--ramp"},     {"target", "--target"}};
    slot.action = [a] {
      (void)resolve_target_option(a->target);
      return run_replay_command(*a);
    };
  });
}

}  // namespace ptsuite::cli
