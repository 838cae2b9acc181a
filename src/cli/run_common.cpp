// The pieces `run`, `resume` and `validate` share (cli/run_common.hpp).
#include "cli/run_common.hpp"

#include <fmt/format.h>
#include <algorithm>

#include <cstdlib>

#include <ptsuite/device/drives.hpp>
#include <ptsuite/history/location.hpp>
#include <ptsuite/lifecycle/finish_run.hpp>
#include <ptsuite/report/pdf.hpp>
#include <ptsuite/report/report_writer.hpp>
#include <ptsuite/results/validation.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/printable.hpp>
#include <ptsuite/util/shell_quote.hpp>
#include <ptsuite/util/units.hpp>

#include "cli/commands.hpp"
#include "cli/ending.hpp"
#include "cli/flags.hpp"
#include "cli/path_roles.hpp"

namespace ptsuite::cli {

// Validated before anything is touched: unknown formats exit 2; a PDF without Chromium exits 5
// (it could only fail at the end of a long run).
std::vector<std::string> report_formats(const std::string& text, const std::string& paper) {
  (void)report::parse_paper(paper, "--paper");  // exit 2 before the run, not after it
  if (text == "none") {
    return {};
  }
  std::vector<std::string> formats = split_list(text);
  report::check_report_formats(formats);
  if (std::find(formats.begin(), formats.end(), "pdf") != formats.end() && report::find_chromium().empty()) {
    throw Error(ExitCode::system,
                "--format pdf: headless Chromium prints the PDF and is not installed; install it "
                "with `apt-get install chromium`, or leave pdf out (render it later with `ptsuite "
                "report DIR/results.json --format pdf`)");
  }
  return formats;
}

// The history options of every command that records a run.
void add_history_options(CLI::App* sub, bool& no_history, std::string& db) {
  add_no_history(sub, no_history);
  add_db(sub, db);
  add_deprecated(sub, "--history-db", db, "--db");
}

void check_history_option(bool no_history, const std::string& db) {
  if (!no_history) (void)history::resolve_history_db(db, "--db");  // a bad URI is exit 2 before the run
}

int finish(const pts::RunOutcome& outcome, RunConsole& console, const EndOptions& end) {
  lifecycle::FinishOptions o;
  o.formats = outcome.report_formats;
  o.paper = end.paper;
  o.history = end.history;
  o.final_note = outcome.final_note;
  if (!outcome.out) throw std::logic_error("finish: a run outcome without its directory's token");
  const lifecycle::FinishedRun done = lifecycle::finish_run(*outcome.out, outcome.document, o);
  const bool resumable = outcome.status == "interrupted" || outcome.status == "io_error";
  print_ending(done, outcome.results_path, resumable ? "ptsuite resume " + shell_quote(outcome.out_dir) : "",
               [&console](const std::string& l) { console.result(l); });
  return outcome.exit_code;
}

void add_run_options(CLI::App* sub, RunOptions& o, const std::string& out_default) {
  add_shared_option(sub, "--target", o.target,
                    "Block device or file under test (default: a scratch loop device in /dev/shm)")
      ->check(paths::target_write());
  add_out_dir(sub, o.out,
              "Run directory for results.json, the journal and reports (default: ./" + out_default + "-<time>)");
  add_spec_options(sub, o.spec);
  add_shared_option(sub, "--seed", o.seed, "Run seed (every segment's IO stream derives from it)")
      ->check(paths::none())
      ->check(whole_number())
      ->capture_default_str();
  add_shared_option(sub, "--engine", o.engine,
                    "IO engine: libaio, io_uring, io_uring_poll, sync, null, or sim (a SIMULATED drive, no device: "
                    "--set sim.model=NAME; docs/sim.md)")
      ->check(paths::none())
      ->capture_default_str();
  add_shared_flag(sub, "--allow-destructive", o.allow_destructive,
                  "Consent to overwrite (and purge) the target block device");
  add_shared_option(sub, "--confirm-serial", o.confirm_serial,
                    "Serial number of the drive, required to purge a real drive")
      ->check(paths::none());
  add_shared_option(sub, "--scratch-size", o.scratch_size, "Size of the scratch target when no --target is given")
      ->check(paths::none())
      ->capture_default_str();
  add_formats(sub, o.formats, "Reports to write into the run directory at the end: html,pdf,csv,text,json (or none)")
      ->capture_default_str();
  add_deprecated(sub, "--reports", o.formats, "--format");
  add_shared_option(sub, "--paper", o.paper, "Paper of the PDF report: a4, letter or auto (Chromium's default, Letter)")
      ->check(paths::none())
      ->capture_default_str();
  add_shared_flag(sub, "--quiet", o.quiet, "No progress output");
  add_shared_option(sub, "--tested-by", o.tested_by, "Test sponsor / lab named in the report header")
      ->check(paths::none());
  add_history_options(sub, o.no_history, o.db);
  add_shared_flag(sub, "--strict-preflight", o.strict_preflight,
                  "Refuse to start (exit 3) when the host preflight finds a warning, not only an error");
  add_shared_option(sub, "--label", o.labels,
                    "key=value stored with the run and in the history (host, slot, rack, campaign; job is "
                    "$SLURM_JOB_ID in a Slurm job); repeatable")
      ->check(paths::none());
  add_shared_option(sub, "--asset-serial", o.asset_serial,
                    "The serial a lab gave a device that reports none (the history files the run under it)")
      ->check(paths::none());
}

Labels run_labels(const std::vector<std::string>& texts) {
  Labels labels = parse_labels(texts, "--label");
  if (const char* job = std::getenv("SLURM_JOB_ID"); job != nullptr && *job != '\0' && labels.count("job") == 0) {
    add_label(labels, parse_label(std::string("job=") + job, "SLURM_JOB_ID"), "SLURM_JOB_ID");
  }
  return labels;
}

uint64_t parse_scratch_size(const std::string& text) {
  const uint64_t bytes = units::parse_size_bytes(text, "--scratch-size");
  if (bytes < k_min_scratch_bytes) {
    throw UsageError("--scratch-size", fmt::format("{} is too small: a scratch target holds at least {}", text,
                                                   units::format_size_binary(k_min_scratch_bytes)));
  }
  return bytes;
}

pts::RunConfig run_config(const RunOptions& o) {
  pts::RunConfig config;
  config.strict_preflight = o.strict_preflight;
  config.tested_by = o.tested_by;
  config.command_line = invocation();
  config.revision = o.spec.revision;
  config.profile = o.spec.profile;
  config.presets = o.spec.presets();
  config.overrides = o.spec.overrides();
  config.target = o.target;
  config.scratch_size_bytes = parse_scratch_size(o.scratch_size);
  config.out_dir = o.out;
  config.seed = o.seed;
  config.engine = o.engine;
  config.allow_destructive = o.allow_destructive;
  if (!o.confirm_serial.empty()) {
    config.confirm_serial = o.confirm_serial;
  }
  config.report_formats = report_formats(o.formats, o.paper);
  check_history_option(o.no_history, o.db);
  config.labels = run_labels(o.labels);
  config.asset_serial = o.asset_serial;
  if (!o.asset_serial.empty() && device::normalize_serial(o.asset_serial) != o.asset_serial) {
    throw UsageError("--asset-serial",
                     "only letters, digits, '_', '.' and '-' (it becomes a name in Slurm and the "
                     "history)");
  }
  return config;
}

namespace {

// 1234567 IOPS -> "1234567 IOPS", 6.8 MB/s -> "6.8 MB/s", 95.488 us -> "95.5 us".
std::string claim_value_text(double v, const std::string& unit) {
  return v >= 100 ? fmt::format("{:.0f} {}", v, unit) : fmt::format("{:.3g} {}", v, unit);
}

}  // namespace

int claims_verdict(const results::Document& document, RunConsole& console) {
  const results::RunDocument* run = document.as<results::RunDocument>();
  const results::TestRecord* claims = run == nullptr ? nullptr : run->find_test("claims");
  const results::ValidationBlock* block = claims == nullptr ? nullptr : claims->block_as<results::ValidationBlock>();
  if (block == nullptr) return 0;
  const results::ValidationBlock& validation = *block;
  for (const results::ClaimOutcome& c : validation.claims) {
    if (c.verdict == "not covered") {
      console.result(fmt::format("  NOT COVERED  {}: {}", printable(c.claim.id), c.why.value_or("")));
      continue;
    }
    const std::string& unit = c.claim.unit;
    console.result(fmt::format("  {:<11}  {}: declared {}, measured {} ({:+.1f} %, tolerance {:g} %) under {}",
                               c.verdict == "pass" ? "PASS" : "FAIL", printable(c.claim.id),
                               claim_value_text(c.claim.declared, unit), claim_value_text(c.measured.value_or(0), unit),
                               c.margin_pct.value_or(0), c.claim.tolerance_pct, c.claim.conditions.text));
  }
  for (const std::string& caveat : validation.caveats) console.result("  caveat: " + caveat);
  const results::ValidationTotals& t = validation.totals;
  console.result(fmt::format("claims: {} pass, {} fail, {} not covered of {}: {}", t.pass, t.fail, t.not_covered,
                             t.claims, validation.verdict));
  return validation.verdict == "pass" ? 0 : static_cast<int>(ExitCode::negative_verdict);
}

}  // namespace ptsuite::cli
