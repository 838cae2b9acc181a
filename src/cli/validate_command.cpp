// `ptsuite validate --claims SHEET.json --target DEV --out DIR --allow-destructive`: measures
// every claim of a spec sheet under its own conditions (the "claims" procedure through the PTS
// runner: safety gate, purge, preflight, journal, resume, reports, manifest, history), and
// `ptsuite validate --claims SHEET.json RUN_DIR... --out DIR`: judges the claims on runs that
// already exist (pts/claims_from_runs.hpp). Exit 0 when every claim passes, 1 when one fails or
// is not covered, else the run's own code (docs/validate.md, docs/exit-codes.md).
#include <fmt/format.h>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/pts/claims.hpp>
#include <ptsuite/pts/claims_from_runs.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/embedded.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/out_dir.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/sha256.hpp>
#include <ptsuite/util/units.hpp>

#include "cli/commands.hpp"
#include "cli/history_support.hpp"
#include "cli/path_roles.hpp"
#include "cli/run_common.hpp"
#include "cli/signals.hpp"
#include "cli/spec_options.hpp"

namespace ptsuite::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string builtin_sheet_names() {
  std::string out;
  for (const EmbeddedFile& f : embedded_files()) {
    if (f.path.rfind("sheets/", 0) == 0) {
      out += (out.empty() ? "" : ", ") + std::string(f.path.substr(7, f.path.size() - 12));
    }
  }
  return out;
}

json read_json_file(const fs::path& path, const std::string& what);

// A sheet file's absolute path, or the built-in sheet's name as given.
std::string claims_path(const std::string& claims) {
  std::error_code ec;
  return fs::exists(claims, ec) ? fs::absolute(claims).string() : "built-in:" + claims;
}

struct ValidateOptions {
  std::string claims;
  std::vector<std::string> run_dirs;
  RunOptions run;
};

// The sheet: a file, or the name of a built-in example (pts/sheets/<name>.json).
json read_sheet(const std::string& claims) {
  std::error_code ec;
  if (!fs::exists(claims, ec)) {
    if (const auto embedded = embedded_file("sheets/" + claims + ".json")) {
      return json::parse(*embedded);
    }
    throw UsageError("--claims",
                     fmt::format("{} does not exist (nor is it a built-in sheet: {})", claims, builtin_sheet_names()));
  }
  return read_json_file(claims, "--claims");
}

json read_json_file(const fs::path& path, const std::string& what) {
  return load_json_input(path, fmt::format("{}: {}", what, path.string()), k_user_json_limits);
}

pts::RunConfig measure_config(const ValidateOptions& o, const json& sheet) {
  pts::RunConfig config = run_config(o.run);
  config.tests = {"claims"};
  config.claims = sheet;
  config.claims_path = claims_path(o.claims);
  if (config.out_dir.empty()) config.out_dir = default_out_dir("ptsuite-validate");
  return config;
}

int validate_on_device(const ValidateOptions& o, const json& sheet) {
  const pts::RunConfig config = measure_config(o, sheet);
  device::OutputGate gate("validate");
  gate.add_input(o.claims, "--claims");
  gate.add_target(o.run.target, "--target");
  const std::optional<history::HistoryDb> history = gate_run_history(gate, o.run.no_history, o.run.db);
  StopSignals signals;
  RunConsole console(o.run.quiet);
  const pts::RunOutcome outcome = pts::start_run(config, console, &signals.flag(), gate);
  const int code = finish(outcome, console, {history, o.run.paper});
  if (code != 0) return code;
  return claims_verdict(outcome.document, console);
}

std::vector<pts::SourceRun> read_sources(const std::vector<std::string>& dirs) {
  std::vector<pts::SourceRun> runs;
  for (const std::string& d : dirs) {
    const fs::path file = fs::path(d) / "results.json";
    if (!fs::is_regular_file(file)) {
      throw UsageError("RUN_DIR",
                       fmt::format("{} holds no results.json; give run directories of ptsuite run or validate", d));
    }
    runs.push_back(
        {fs::absolute(d).lexically_normal().string(), read_json_file(file, "RUN_DIR"), sha256_file_hex(file)});
  }
  return runs;
}

// Options that only shape a measurement: given with RUN_DIR... they would be silently ignored.
void refuse_measuring_options(const RunOptions& r) {
  const RunOptions defaults;
  const std::pair<bool, const char*> given[] = {{!r.target.empty(), "--target"},
                                                {r.allow_destructive, "--allow-destructive"},
                                                {!r.confirm_serial.empty(), "--confirm-serial"},
                                                {r.spec.quick, "--quick"},
                                                {!r.spec.sets.empty(), "--set"},
                                                {r.spec.revision != defaults.spec.revision, "--revision"},
                                                {r.spec.profile != defaults.spec.profile, "--profile"},
                                                {r.engine != defaults.engine, "--engine"},
                                                {r.seed != defaults.seed, "--seed"},
                                                {r.scratch_size != defaults.scratch_size, "--scratch-size"},
                                                {r.strict_preflight, "--strict-preflight"}};
  for (const auto& [is_given, option] : given) {
    if (is_given) {
      throw UsageError(option,
                       "judging existing runs measures nothing: leave it out, or measure with --claims "
                       "SHEET --target DEV (no RUN_DIR)");
    }
  }
}

int validate_from_runs(const ValidateOptions& o, const json& sheet_json) {
  refuse_measuring_options(o.run);
  const pts::ClaimSheet sheet = pts::parse_claim_sheet(sheet_json, o.claims);
  const std::vector<pts::SourceRun> runs = read_sources(o.run_dirs);
  const std::vector<std::string> formats = report_formats(o.run.formats, o.run.paper);
  device::OutputGate gate("validate");
  gate.add_input(o.claims, "--claims");
  for (const std::string& d : o.run_dirs) gate.add_input((fs::path(d) / "results.json").string(), "RUN_DIR");
  const OutputDir out = gate.directory(o.run.out.empty() ? default_out_dir("ptsuite-validate") : o.run.out, "--out",
                                       device::OutputGate::Existing::must_be_empty);
  const std::optional<history::HistoryDb> history = gate_run_history(gate, o.run.no_history, o.run.db);
  const fs::path& dir = out.path();
  const pts::FromRunsInputs inputs{sheet_json, claims_path(o.claims), invocation(), o.run.tested_by, dir.string(),
                                   formats,    utc_now_iso8601()};
  auto doc = std::make_shared<const json>(pts::results_from_runs(sheet, runs, inputs));  // bad sources: exit 2
  out.create();
  write_file_atomic(out.file("results.json"), doc->dump(2));
  RunConsole console(o.run.quiet);
  pts::RunOutcome outcome;
  outcome.out_dir = dir.string();
  outcome.results_path = (dir / "results.json").string();
  outcome.status = "complete";
  outcome.out = out;
  outcome.document = results::make_document(results::read_run_document(doc), doc);
  outcome.report_formats = formats;
  (void)finish(outcome, console, {history, o.run.paper});
  return claims_verdict(outcome.document, console);
}

}  // namespace

void register_validate_command(CLI::App& app, CommandSlot& slot) {
  auto o = std::make_shared<ValidateOptions>();
  CLI::App* sub = app.add_subcommand(
      "validate", "Check a spec sheet's claims: measure each under its own conditions, or judge existing runs");
  sub->add_option(
         "--claims", o->claims,
         fmt::format("Spec sheet: a ptsuite-claims/1 JSON file, or a built-in example ({})", builtin_sheet_names()))
      ->check(paths::input())
      ->required();
  sub->add_option("RUN_DIR", o->run_dirs, "Judge these existing run directories instead of measuring")
      ->check(paths::input());
  add_run_options(sub, o->run, "ptsuite-validate");
  sub->callback([o, &slot] {
    slot.fields = FieldFlags{{"engine", "--engine"}, {"target", "--target"}};
    slot.action = [o] {
      const json sheet = read_sheet(o->claims);
      (void)pts::parse_claim_sheet(sheet, o->claims);  // a bad sheet is exit 2 before anything else
      return o->run_dirs.empty() ? validate_on_device(*o, sheet) : validate_from_runs(*o, sheet);
    };
  });
}

}  // namespace ptsuite::cli
