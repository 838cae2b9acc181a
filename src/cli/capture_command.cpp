// `ptsuite capture`: record every block IO of one or more devices while anything runs, and
// `ptsuite capture show FILE`: characterize a capture (docs/capture.md).
// A capture is a run: its directory (--out DIR, default ./ptsuite-capture-<time>) holds the
// capture file (capture.ptcap), its characterization as results.json (kind
// "ptsuite.capture_characterization"), run.log, the reports and the manifest, and it is
// recorded in the history (lifecycle/finish_run.hpp). `--out FILE.ptcap` is the old spelling:
// the capture file alone there (and --json-out / --html files), as before.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>

#include <ptsuite/capture/block_capture.hpp>
#include <ptsuite/capture/characterize.hpp>
#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/lifecycle/finish_run.hpp>
#include <ptsuite/report/capture_report.hpp>
#include <ptsuite/report/report_writer.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/command_line.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/out_dir.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/run_log_file.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/util/version.hpp>

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

namespace fs = std::filesystem;

constexpr const char* k_capture_file = "capture.ptcap";

struct CaptureArgs {
  std::vector<std::string> targets;
  std::string duration;
  std::string out;
  std::string step = "5m";
  bool json = false;
  std::string json_out;
  std::string html;  // deprecated
  std::string formats = "html,csv,text";
  std::string paper = "auto";
  bool no_history = false;
  std::string db;
  bool quiet = false;
};

struct ShowArgs {
  std::string file;
  std::string step = "5m";
  bool json = false;
  std::string json_out;
  std::string out;
  std::string formats = "html,csv,text,json";
  std::string html;  // deprecated
  int device = -1;
};

capture::CharacterizeOptions characterize_options(const std::string& step, int device) {
  capture::CharacterizeOptions o;
  o.step_ns = units::parse_duration_ns(step, "--step");
  if (o.step_ns == 0) throw UsageError("--step", "0 is not a step length; give e.g. 1s or 5m");
  o.device = device;
  return o;
}

// The --json-out and --html (deprecated) outputs, let through by the command's output gate.
struct Outputs {
  std::optional<OutputPath> json;
  std::optional<OutputPath> html;
};

Outputs gate_outputs(device::OutputGate& gate, const std::string& json_out, const std::string& html) {
  Outputs o;
  if (!json_out.empty()) o.json = gate.file(json_out, "--json-out");
  if (!html.empty()) o.html = gate.file(html, "--html");
  return o;
}

// The text summary (or the JSON with --json) and the files asked for by name.
void emit(const results::IoCharacterization& c, bool json, const Outputs& out, bool quiet) {
  nlohmann::json doc;
  to_json(doc, c);
  if (json) {
    fmt::print("{}", doc.dump(2) + "\n");
  } else if (!quiet) {
    fmt::print("{}", report::capture_text(c));
  }
  if (out.json) {
    write_file_atomic(*out.json, doc.dump(2) + "\n");
    if (!quiet && !json) fmt::print("characterization: {}\n", out.json->string());
  }
  if (out.html) {
    write_file_atomic(*out.html, report::capture_html(c));
    if (!quiet && !json) fmt::print("report: {}\n", out.html->string());
  }
}

struct Recorded {
  bool interrupted = false;  // Ctrl-C / SIGTERM
  std::string vanished;      // a captured device that went away ("" = none)
  uint64_t records = 0;
};

// Records until the duration, Ctrl-C or a captured device vanishing.
Recorded record(const CaptureArgs& a, const OutputPath& out, uint64_t duration_ns, RunLogFile* log) {
  const std::string file = out.string();
  capture::CaptureOptions co;
  co.devices = a.targets;
  co.output = out;
  co.command = join_command_line(invocation());
  const StopSignals signals;
  auto session = capture::BlockCapture::start(co);
  const std::string what = fmt::format(
      "capturing {} into {}{}", fmt::join(a.targets, ", "), file,
      duration_ns == 0 ? " until Ctrl-C" : fmt::format(" for {:.0f} s", static_cast<double>(duration_ns) / 1e9));
  if (!a.quiet) fmt::print(stderr, "{}\n", what);
  if (log != nullptr) log->info(what);
  const uint64_t start = monotonic_ns();
  while (!signals.flag().load() && (duration_ns == 0 || monotonic_ns() - start < duration_ns) &&
         session->vanished().empty()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const bool interrupted = signals.flag().load();
  const capture::CaptureTrailer t = session->stop(interrupted ? "interrupted" : "duration");
  const std::string done = fmt::format(
      "captured {} IOs in {:.1f} s; lost events {}, unmatched issues {}, unmatched completions {}", t.records,
      static_cast<double>(t.duration_ns) / 1e9, t.lost_events, t.unmatched_issues, t.unmatched_completions);
  if (!a.quiet) fmt::print(stderr, "{}\n", done);
  if (log != nullptr) log->info(done);
  return {interrupted, session->vanished(), t.records};
}

// A device that vanished ends the capture: what it had is written (the file's trailer says
// "device_vanished"), and the capture failed (exit 5).
void throw_if_vanished(const Recorded& r, const std::string& file) {
  if (!r.vanished.empty()) {
    throw SystemError(fmt::format("{}; the {} IOs before it are in {}", r.vanished, r.records, file));
  }
}

// The old spelling `--out FILE.ptcap`: the capture file alone, as before.
int capture_to_file(const CaptureArgs& a, device::OutputGate& gate, const capture::CharacterizeOptions& options,
                    uint64_t duration_ns) {
  warn_deprecated("--out FILE.ptcap", "--out DIR (DIR/capture.ptcap)");
  const OutputPath file = gate.file(a.out, "--out");
  const Outputs outputs = gate_outputs(gate, a.json_out, a.html);
  const Recorded r = record(a, file, duration_ns, nullptr);
  const bool interrupted = r.interrupted;
  emit(capture::characterize_file(file.path(), options), a.json, outputs, a.quiet);
  if (!a.quiet && !a.json) fmt::print("capture: {}\n", file.string());
  throw_if_vanished(r, file.string());
  // Ctrl-C is how an open-ended capture ends: a success when no duration was given.
  return interrupted && duration_ns != 0 ? static_cast<int>(ExitCode::interrupted) : 0;
}

int run_capture(const CaptureArgs& a) {
  if (a.targets.empty()) throw UsageError("--target", "give the block device(s) to capture");
  const capture::CharacterizeOptions options = characterize_options(a.step, -1);
  const uint64_t duration_ns = a.duration.empty() ? 0 : units::parse_duration_ns(a.duration, "--duration");
  device::OutputGate gate("capture");
  for (const std::string& t : a.targets) gate.add_target(t, "--target");  // read, never written: still no output
  if (a.out.ends_with(".ptcap")) return capture_to_file(a, gate, options, duration_ns);
  const std::vector<std::string> formats = report_formats(a.formats, a.paper);
  const OutputDir dir = gate.directory(a.out.empty() ? default_out_dir("ptsuite-capture") : a.out, "--out",
                                       device::OutputGate::Existing::must_be_empty);
  const Outputs outputs = gate_outputs(gate, a.json_out, a.html);
  const std::optional<history::HistoryDb> history = gate_run_history(gate, a.no_history, a.db);
  dir.create();
  const OutputPath capture_file = dir.file(k_capture_file);
  Recorded recorded;
  {
    RunLogFile log(dir.file(k_run_log_file));
    log.info(fmt::format("ptsuite {} capture started: {}", version(), join_command_line(invocation())));
    recorded = record(a, capture_file, duration_ns, &log);
  }  // run.log closed: the ending appends to it
  results::IoCharacterization c = capture::characterize_file(capture_file.path(), options);
  c.capture_file = k_capture_file;
  c.tool_version = fmt::format("{} ({})", version(), git_revision());
  c.capture_command = join_command_line(invocation());
  nlohmann::json doc;
  to_json(doc, c);
  write_file_atomic(dir.file("results.json"), doc.dump(2) + "\n");
  if (outputs.json) write_file_atomic(*outputs.json, doc.dump(2) + "\n");
  if (outputs.html) write_file_atomic(*outputs.html, report::capture_html(c));
  // Ctrl-C is how an open-ended capture ends: a success when no duration was given.
  const bool interrupted = recorded.interrupted;
  const int code = !recorded.vanished.empty()        ? static_cast<int>(ExitCode::system)
                   : interrupted && duration_ns != 0 ? static_cast<int>(ExitCode::interrupted)
                                                     : 0;
  lifecycle::FinishOptions fo;
  fo.formats = formats;
  fo.paper = a.paper;
  fo.history = history;
  fo.final_note = fmt::format("capture {}: {} IOs; exit code {}",
                              !recorded.vanished.empty() ? "device vanished"
                              : interrupted              ? "interrupted"
                                                         : "complete",
                              c.ios, code);
  const lifecycle::FinishedRun done =
      lifecycle::finish_run(dir, results::make_document(c, std::make_shared<const nlohmann::json>(doc)), fo);
  if (a.json) {
    fmt::print("{}", doc.dump(2) + "\n");
  } else {
    print_ending(
        done, (dir.path() / "results.json").string(), "", [](const std::string& l) { fmt::print("{}\n", l); },
        !a.quiet);
    if (!a.quiet) fmt::print("capture: {}\n", capture_file.string());
  }
  throw_if_vanished(recorded, capture_file.string());
  return code;
}

int run_show(const ShowArgs& a) {
  device::OutputGate gate("capture show");
  gate.add_input(a.file, "FILE");
  const Outputs outputs = gate_outputs(gate, a.json_out, a.html);
  std::vector<std::string> formats;
  std::optional<OutputDir> out;
  if (!a.out.empty()) {
    formats = report_formats(a.formats);
    out = gate.directory(a.out, "--out", device::OutputGate::Existing::may_hold_files);
  }
  const results::IoCharacterization c = capture::characterize_file(a.file, characterize_options(a.step, a.device));
  emit(c, a.json, outputs, false);
  if (out) {
    nlohmann::json doc;
    to_json(doc, c);
    const results::Document document = results::make_document(c, std::make_shared<const nlohmann::json>(doc));
    for (const std::string& path : report::write_reports(*out, document, formats)) {
      if (!a.json) fmt::print("report: {}\n", path);
    }
  }
  return 0;
}

void register_show(CLI::App* cmd, CommandSlot& slot) {
  CLI::App* show = cmd->add_subcommand("show", "Characterize a capture file: streams, steps, QD, latency, heat map");
  auto a = std::make_shared<ShowArgs>();
  show->add_option("file", a->file, "Capture file (.ptcap)")->check(paths::input())->required();
  add_shared_option(show, "--step", a->step, "Step length (SNIA's reference captures: 5 min)")
      ->check(paths::none())
      ->capture_default_str();
  add_json_with_deprecated_file(show, a->json, a->json_out, "The characterization as JSON on stdout");
  add_shared_option(show, "--json-out", a->json_out, "Write the characterization to this JSON file")
      ->check(paths::output_file());
  add_out_dir(show, a->out, "Write the characterization's reports into this directory (--format)");
  add_formats(show, a->formats, "Reports written with --out: html,pdf,csv,text,json")->capture_default_str();
  add_deprecated(show, "--html", a->html, "--out DIR --format html", PathRole::output_file);
  add_shared_option(show, "--device", a->device, "Only this device index of a multi-device capture")
      ->check(paths::none());
  show->callback([&slot, a] { slot.action = [a] { return run_show(*a); }; });
}

}  // namespace

void register_capture_command(CLI::App& app, CommandSlot& slot) {
  CLI::App* cmd = app.add_subcommand(
      "capture", "Record every block IO of a device while anything runs (docs/capture.md); `capture show FILE`");
  auto args = std::make_shared<CaptureArgs>();
  add_shared_option(cmd, "--target", args->targets, "Block device to capture (repeat for several)")
      ->check(paths::target_read());
  add_shared_option(cmd, "--duration", args->duration, "How long, e.g. 30s, 5m (default: until Ctrl-C)")
      ->check(paths::none());
  add_out_dir(cmd, args->out,
              "Run directory: capture.ptcap, its characterization (results.json), reports, run.log, manifest "
              "(default: ./ptsuite-capture-<time>)");
  add_shared_option(cmd, "--step", args->step, "Characterization step length")
      ->check(paths::none())
      ->capture_default_str();
  add_json_with_deprecated_file(cmd, args->json, args->json_out, "The characterization as JSON on stdout");
  add_shared_option(cmd, "--json-out", args->json_out, "Also write the characterization to this JSON file")
      ->check(paths::output_file());
  add_deprecated(cmd, "--html", args->html, "--out DIR (report.html)", PathRole::output_file);
  add_formats(cmd, args->formats, "Reports to write into the run directory: html,pdf,csv,text,json (or none)")
      ->capture_default_str();
  add_shared_option(cmd, "--paper", args->paper, "Paper of the PDF report: a4, letter or auto")
      ->check(paths::none())
      ->capture_default_str();
  add_history_options(cmd, args->no_history, args->db);
  add_shared_flag(cmd, "--quiet", args->quiet, "No progress lines (errors and the final result lines only)");
  register_show(cmd, slot);
  cmd->require_subcommand(0, 1);
  CLI::App* show = cmd->get_subcommand("show");
  cmd->callback([&slot, show, args] {
    if (show->parsed()) return;
    slot.fields = FieldFlags{{"step_ns", "--step"}};
    slot.action = [args] {
      resolve_target_options(args->targets);
      return run_capture(*args);
    };
  });
}

}  // namespace ptsuite::cli
