// `ptsuite replay CAPTURE`: replay a captured workload on a target and measure how faithful
// the replay was (docs/replay.md). The same order as `workload` (cli/workload_command.hpp):
// option syntax and output paths (2), the capture readable (2), the target gate (3; writes to
// a block device or a file holding data need --allow-destructive), then the replay. Without
// --target a scratch target in RAM as large as the captured device (at most 1 GiB; LBAs are
// remapped into it). Exit 0, 4 (an IO error stopped the replay) or 130; the record is written
// in every case.
#include <fmt/format.h>
#include <csignal>
#include <optional>

#include <ptsuite/capture/capture_file.hpp>
#include <ptsuite/capture/characterize.hpp>
#include <ptsuite/capture/trace_import.hpp>
#include <ptsuite/device/identity.hpp>
#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/device/target_gate.hpp>
#include <ptsuite/engine/scratch_target.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/replay/replay_plan.hpp>
#include <ptsuite/replay/replay_ramp.hpp>
#include <ptsuite/replay/replay_runner.hpp>
#include <ptsuite/replay/replay_source.hpp>
#include <ptsuite/replay/synthesis.hpp>
#include <ptsuite/report/replay_report.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/spec_parse.hpp>

#include "cli/commands.hpp"
#include "cli/path_roles.hpp"
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
  std::string json;
  std::string html;
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

// The --json and --html outputs, let through by the command's output gate.
struct ReplayOutputs {
  std::optional<OutputPath> json;
  std::optional<OutputPath> html;
};

int finish(results::ReplayRecord& rec, const ReplayArgs& a, const ReplayOutputs& out, const StopSignals& signals) {
  if (!a.quiet) fmt::print("{}", report::replay_text(rec));
  if (out.json) {
    nlohmann::json doc;
    to_json(doc, rec);
    write_file_atomic(*out.json, doc.dump(2) + "\n");
    if (!a.quiet) fmt::print("record: {}\n", out.json->string());
  }
  if (out.html) {
    write_file_atomic(*out.html, report::replay_html(rec));
    if (!a.quiet) fmt::print("report: {}\n", out.html->string());
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

int run_replay_command(const ReplayArgs& a) {
  replay::ReplayOptions o = options_of(a);
  const std::vector<double> percents = a.ramp.empty() ? std::vector<double>{} : replay::parse_ramp(a.ramp, "--ramp");
  device::OutputGate gate("replay");
  for (const std::string& in : a.inputs) gate.add_input(in, "capture");
  gate.add_target(a.target, "--target");
  ReplayOutputs out;
  if (!a.json.empty()) out.json = gate.file(a.json, "--json");
  if (!a.html.empty()) out.html = gate.file(a.html, "--html");
  const replay::ReplaySource input(a.inputs);
  if (input.imported() && !a.quiet) {
    fmt::print("imported {} IOs from {} ({} other events or lines skipped)\n", input.summary().records,
               input.summary().source, input.summary().skipped);
  }
  for (const std::string& w : input.summary().warnings) fmt::print(stderr, "ptsuite: warning: {}\n", w);
  if (a.synthesize) {  // the applied test workload only: no target, no IO
    capture::CharacterizeOptions co;
    co.step_ns = o.step_ns;
    co.device = o.device;
    results::IoCharacterization c = capture::characterize_reader(*input.open(), co);
    c.capture_file = input.name();
    const replay::AppliedWorkload w = replay::synthesize(c);
    fmt::print("{}", replay::to_text(w));
    if (out.json) write_file_atomic(*out.json, replay::to_json(w).dump(2) + "\n");
    return 0;
  }
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
  const std::string started = utc_now_iso8601();
  results::ReplayRecord rec;
  if (a.ramp.empty()) {
    rec = replay::run_replay(*input.open(), input.name(), target, o);
  } else {
    const auto progress = [&a](const results::RampPoint& p) {
      if (!a.quiet) fmt::print("{}", ramp_point_line(p));
    };
    rec = replay::run_ramp(*input.open(), input.name(), target, o, percents, progress);
  }
  rec.started_utc = started;
  rec.target_identity = target_identity(path);
  for (const std::string& arg : invocation()) rec.command += (rec.command.empty() ? "" : " ") + arg;
  if (scratch) rec.target_note = "scratch: " + scratch->description();
  return finish(rec, a, out, signals);
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
  cmd->add_option("--target", a->target, "Block device or file (default: a scratch target in RAM)")
      ->check(paths::target_write());
  cmd->add_option("--mode", a->mode,
                  "open (at the captured times) or closed (as fast as possible, captured order "
                  "and outstanding IOs)")
      ->check(paths::none())
      ->capture_default_str();
  cmd->add_option("--speed", a->speed, "Time scale of the open loop: 2 = twice as fast")
      ->check(paths::none())
      ->capture_default_str();
  cmd->add_option("--step", a->step, "Step length of the faithfulness figures (the capture's)")
      ->check(paths::none())
      ->capture_default_str();
  cmd->add_option("--queue-depth", a->queue_depth, "Queue slots (default: 2 x the capture's most in flight, 32..256)")
      ->check(paths::none());
  cmd->add_option("--lag-threshold", a->lag_threshold, "A step could not keep up when its last IO is this late")
      ->check(paths::none())
      ->capture_default_str();
  cmd->add_option("--device", a->device, "The capture's device index to replay")
      ->check(paths::none())
      ->capture_default_str();
  cmd->add_option("--engine", a->engine, "IO engine (see `ptsuite engines`)")
      ->check(paths::none())
      ->capture_default_str();
  cmd->add_option("--seed", a->seed, "Seed of the write data (default: random, recorded)")->check(paths::none());
  cmd->add_option("--ramp", a->ramp,
                  "Rate ramp: replay closed loop for the limit, then open loop at these percentages of it, e.g. "
                  "10:100:10 or 10,50,100 (the load curve)")
      ->check(paths::none());
  cmd->add_option("--json", a->json, "Write the replay record (ptsuite.replay) to this JSON file")
      ->check(paths::output_file());
  cmd->add_option("--html", a->html, "Write the replay report (HTML) to this file")->check(paths::output_file());
  cmd->add_flag("--allow-destructive", a->allow_destructive, "Allow writes to a block device (destroys its data)");
  cmd->add_flag("--quiet", a->quiet, "Print nothing but errors");
  cmd->add_flag("--synthesize", a->synthesize,
                "Print the applied test workload (the top streams covering >= 80 % of the IOs; --json writes it) "
                "instead of replaying");
  cmd->callback([&slot, a] {
    slot.fields = {{"speed", "--speed"},   {"step", "--step"},
                   {"engine", "--engine"}, {"queue_depth", "--queue-depth"},
                   {"ramp", "--ramp"},     {"target", "--target"}};
    slot.action = [a] {
      (void)resolve_target_option(a->target);
      return run_replay_command(*a);
    };
  });
}

}  // namespace ptsuite::cli
