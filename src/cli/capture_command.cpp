// `ptsuite capture`: record every block IO of one or more devices while anything runs, and
// `ptsuite capture show FILE`: characterize a capture (docs/capture.md).
#include <fmt/format.h>
#include <chrono>
#include <csignal>
#include <thread>

#include <ptsuite/capture/block_capture.hpp>
#include <ptsuite/capture/characterize.hpp>
#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/report/capture_report.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/units.hpp>

#include "cli/commands.hpp"
#include "cli/path_roles.hpp"
#include "cli/signals.hpp"
#include "cli/target_option.hpp"
#include "cli/workload_command.hpp"

namespace ptsuite::cli {

namespace {

struct CaptureArgs {
  std::vector<std::string> targets;
  std::string duration;
  std::string out;
  std::string step = "5m";
  std::string json;
  std::string html;
  bool quiet = false;
};

struct ShowArgs {
  std::string file;
  std::string step = "5m";
  std::string json;
  std::string html;
  int device = -1;
};

capture::CharacterizeOptions characterize_options(const std::string& step, int device) {
  capture::CharacterizeOptions o;
  o.step_ns = units::parse_duration_ns(step, "--step");
  if (o.step_ns == 0) throw UsageError("--step", "0 is not a step length; give e.g. 1s or 5m");
  o.device = device;
  return o;
}

// The --json and --html outputs, let through by the command's output gate.
struct Outputs {
  std::optional<OutputPath> json;
  std::optional<OutputPath> html;
};

Outputs gate_outputs(device::OutputGate& gate, const std::string& json, const std::string& html) {
  Outputs o;
  if (!json.empty()) o.json = gate.file(json, "--json");
  if (!html.empty()) o.html = gate.file(html, "--html");
  return o;
}

// Prints the text summary and writes the JSON / HTML forms asked for.
void emit(const results::IoCharacterization& c, const Outputs& out, bool quiet) {
  if (!quiet) fmt::print("{}", report::capture_text(c));
  if (out.json) {
    nlohmann::json doc;
    to_json(doc, c);
    write_file_atomic(*out.json, doc.dump(2) + "\n");
    if (!quiet) fmt::print("characterization: {}\n", out.json->string());
  }
  if (out.html) {
    write_file_atomic(*out.html, report::capture_html(c));
    if (!quiet) fmt::print("report: {}\n", out.html->string());
  }
}

int run_capture(const CaptureArgs& a) {
  if (a.targets.empty()) throw UsageError("--target", "give the block device(s) to capture");
  const capture::CharacterizeOptions options = characterize_options(a.step, -1);
  const uint64_t duration_ns = a.duration.empty() ? 0 : units::parse_duration_ns(a.duration, "--duration");
  const std::string out = a.out.empty() ? fmt::format("capture-{}.ptcap", monotonic_ns() / 1'000'000) : a.out;
  device::OutputGate gate("capture");
  for (const std::string& t : a.targets) gate.add_target(t, "--target");  // read, never written: still no output
  capture::CaptureOptions co;
  co.output = gate.file(out, "--out");
  const Outputs outputs = gate_outputs(gate, a.json, a.html);
  co.devices = a.targets;
  std::string command;
  for (const std::string& arg : invocation()) command += (command.empty() ? "" : " ") + arg;
  co.command = command;
  const StopSignals signals;
  auto session = capture::BlockCapture::start(co);
  if (!a.quiet) {
    fmt::print(
        stderr, "capturing {} into {}{}\n", fmt::join(a.targets, ", "), out,
        duration_ns == 0 ? " until Ctrl-C" : fmt::format(" for {:.0f} s", static_cast<double>(duration_ns) / 1e9));
  }
  const uint64_t start = monotonic_ns();
  while (!signals.flag().load() && (duration_ns == 0 || monotonic_ns() - start < duration_ns) &&
         session->vanished().empty()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const bool interrupted = signals.flag().load();
  const capture::CaptureTrailer t = session->stop(interrupted ? "interrupted" : "duration");
  const std::string vanished = session->vanished();
  if (!a.quiet) {
    fmt::print(stderr, "captured {} IOs in {:.1f} s; lost events {}, unmatched issues {}, unmatched completions {}\n",
               t.records, static_cast<double>(t.duration_ns) / 1e9, t.lost_events, t.unmatched_issues,
               t.unmatched_completions);
  }
  const std::string out_path = co.output->string();
  emit(capture::characterize_file(out_path, options), outputs, a.quiet);
  if (!a.quiet) fmt::print("capture: {}\n", out_path);
  if (!vanished.empty()) {
    // What it had is written (the file's trailer says "device_vanished"); the capture failed.
    throw SystemError(fmt::format("{}; the {} IOs before it are in {}", vanished, t.records, out_path));
  }
  // Ctrl-C is how an open-ended capture ends: a success when no duration was given.
  return interrupted && duration_ns != 0 ? static_cast<int>(ExitCode::interrupted) : 0;
}

int run_show(const ShowArgs& a) {
  device::OutputGate gate("capture show");
  gate.add_input(a.file, "FILE");
  const Outputs outputs = gate_outputs(gate, a.json, a.html);
  emit(capture::characterize_file(a.file, characterize_options(a.step, a.device)), outputs, false);
  return 0;
}

}  // namespace

void register_capture_command(CLI::App& app, CommandSlot& slot) {
  CLI::App* cmd = app.add_subcommand(
      "capture", "Record every block IO of a device while anything runs (docs/capture.md); `capture show FILE`");
  auto args = std::make_shared<CaptureArgs>();
  cmd->add_option("--target", args->targets, "Block device to capture (repeat for several)")
      ->check(paths::target_read());
  cmd->add_option("--duration", args->duration, "How long, e.g. 30s, 5m (default: until Ctrl-C)")->check(paths::none());
  cmd->add_option("--out", args->out, "Capture file (default: capture-<n>.ptcap here)")->check(paths::output_file());
  cmd->add_option("--step", args->step, "Characterization step length")->check(paths::none())->capture_default_str();
  cmd->add_option("--json", args->json, "Write the characterization to this JSON file")->check(paths::output_file());
  cmd->add_option("--html", args->html, "Write the characterization report (HTML) to this file")
      ->check(paths::output_file());
  cmd->add_flag("--quiet", args->quiet, "Print nothing but errors");
  CLI::App* show = cmd->add_subcommand("show", "Characterize a capture file: streams, steps, QD, latency, heat map");
  auto show_args = std::make_shared<ShowArgs>();
  show->add_option("file", show_args->file, "Capture file (.ptcap)")->check(paths::input())->required();
  show->add_option("--step", show_args->step, "Step length (SNIA's reference captures: 5 min)")
      ->check(paths::none())
      ->capture_default_str();
  show->add_option("--json", show_args->json, "Write the characterization to this JSON file")
      ->check(paths::output_file());
  show->add_option("--html", show_args->html, "Write the characterization report (HTML) to this file")
      ->check(paths::output_file());
  show->add_option("--device", show_args->device, "Only this device index of a multi-device capture")
      ->check(paths::none());
  cmd->require_subcommand(0, 1);
  show->callback([&slot, show_args] { slot.action = [show_args] { return run_show(*show_args); }; });
  cmd->callback([&slot, cmd, show, args] {
    if (show->parsed()) return;
    slot.fields = {{"step_ns", "--step"}};
    slot.action = [args] {
      resolve_target_options(args->targets);
      return run_capture(*args);
    };
  });
}

}  // namespace ptsuite::cli
