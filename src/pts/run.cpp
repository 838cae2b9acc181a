#include <ptsuite/pts/run.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <memory>

#include <ptsuite/device/identity.hpp>
#include <ptsuite/device/safety.hpp>
#include <ptsuite/pts/claims.hpp>
#include <ptsuite/pts/journal.hpp>
#include <ptsuite/pts/run_log.hpp>
#include <ptsuite/pts/spec_numbers.hpp>
#include <ptsuite/results/json_read.hpp>
#include <ptsuite/results/run_draft.hpp>
#include <ptsuite/results/run_sessions.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/command_line.hpp>
#include <ptsuite/util/dir_lock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/host_boot.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/out_dir.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/util/version.hpp>
#include <ptsuite/workload/workload_spec.hpp>

#include "pts/run_drive.hpp"
#include "pts/run_identity.hpp"
#include "pts/run_support.hpp"

namespace ptsuite::pts {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr const char* k_run_file = "journal/run.json";

struct RunState {
  UniqueFd dir_lock;  // the run directory's in-use lock (util/dir_lock.hpp), held to the end
  RunConfig config;
  SpecContext spec;
  Settings settings;
  json identity_json;  // the drive's identity as journal/run.json and results.json hold it
  fs::path dir;
  std::optional<OutputDir> out;  // the run directory, let through by the command's output gate
  // The drive the run works on (run_drive.hpp: a target or a simulated drive); refers to the
  // config, settings, spec and run directory above, so it is destroyed before them.
  std::unique_ptr<detail::RunDrive> drive;
  results::RunDraft draft;  // results.json, written after every test (results/run_draft.hpp)
  Plan best;
  Plan worst;
  // run.duration_ns: the earlier sessions' (as last durably recorded: durable_run_duration_ns;
  // unknown when a document of an earlier version has none) plus this session's steady-clock time.
  std::optional<uint64_t> duration_before_ns = 0;
  uint64_t session_started_ns = monotonic_ns();
};

// This session's steady-clock time so far, and the run's (journaled with every executed step).
SessionTime session_time(const RunState& s) {
  SessionTime t;
  t.session_ns = monotonic_ns() - s.session_started_ns;
  if (s.duration_before_ns) t.run_duration_ns = *s.duration_before_ns + t.session_ns;
  return t;
}

// The run's duration on its own clock (results::RunRecord::duration_ns): a simulated drive's
// virtual time (it runs on across sessions), else the sessions' steady-clock times summed.
void update_duration(RunState& s) {
  if (const std::optional<uint64_t> clock = s.drive->run_clock_ns()) {
    s.draft.run->duration_ns = *clock;
  } else if (const SessionTime t = session_time(s); t.run_duration_ns) {
    s.draft.run->duration_ns = *t.run_duration_ns;
  }
}

workload::DataPattern data_pattern_of(const std::string& name) {
  if (name == "refill") {
    return workload::DataPattern::refill;
  }
  if (name == "zeros") {
    return workload::DataPattern::zeros;
  }
  return workload::DataPattern::random;
}

void write_results(RunState& s) {
  s.drive->update(s.draft);
  if (s.draft.run) update_duration(s);
  write_file_atomic(s.out->file("results.json"), results::dump_run_draft(s.draft));
}

// Validation that needs no device: throws UsageError before anything is touched.
Settings build_settings(const RunConfig& config, SpecContext& spec) {
  spec = SpecContext{config.revision, config.profile, config.claims};
  const DefinitionSet& defs = DefinitionSet::embedded();
  defs.check_context(spec);
  if (config.tests.empty()) {
    throw UsageError("tests", "no test given; name tests like iops,throughput or all");
  }
  for (const std::string& id : config.tests) {
    (void)make_test(id);
  }
  (void)tests_for_revision(config.tests, config.revision);  // every test exists in the revision
  const bool validates = std::find(config.tests.begin(), config.tests.end(), "claims") != config.tests.end();
  if (validates && config.claims.is_null()) {
    throw UsageError("tests", "claims validates a spec sheet: run it as `ptsuite validate --claims SHEET.json ...`");
  }
  if (!config.claims.is_null()) {
    (void)parse_claim_sheet(config.claims, config.claims_path.empty() ? "the claims sheet" : config.claims_path);
  }
  Settings settings = Settings::build(defs, spec, config.presets, config.overrides);
  detail::check_drive_config(config, settings);
  if (validates && (settings.size_bytes("active_range.amount") != 0 || settings.count("active_range.segments") != 1)) {
    throw UsageError("--set active_range.amount",
                     "spec-sheet claims are measured over the ActiveRange (a claim may "
                     "state active_range_pct); the AR Amount does not apply to validate");
  }
  return settings;
}

// The run's drive (a target, or the simulated drive of --engine sim), and its identity.
void open_drive(RunState& s, device::OutputGate& outputs, const std::string& started_utc, const std::atomic<bool>* stop,
                bool resuming) {
  s.drive = detail::open_drive({s.config, s.settings, s.spec, *s.out, stop, started_utc, resuming}, outputs);
  s.identity_json = s.drive->identity();
}

// The AR Amount / Segments settings against the target, before anything is written: every
// segment must hold the largest random block a PTS test issues (IOPS's largest,
// pts/tests/iops.json), so that no test stops at its first random segment hours in.

void check_ar_segments(const RunState& s) {
  const uint64_t amount = s.settings.size_bytes("active_range.amount");
  const uint64_t segments = s.settings.count("active_range.segments");
  if (amount == 0 && segments == 1) {
    return;
  }
  workload::WorkloadSpec probe;
  probe.engine = "null";
  probe.limits.ios = 1;
  const uint64_t largest_bytes = largest_random_block_bytes(s.spec);
  probe.block_sizes = {{largest_bytes, 1.0}};
  probe.active_range.pct = s.settings.number("active_range_pct");
  probe.active_range.amount_bytes = amount;
  probe.active_range.segments = static_cast<uint32_t>(std::min<uint64_t>(segments, workload::k_max_ar_segments + 1));
  try {
    (void)workload::resolve(probe, s.drive->geometry());
  } catch (const UsageError& e) {
    throw UsageError(
        "--set active_range.amount/segments",
        fmt::format("{} (for a {} KiB random block, the largest a PTS test issues)", e.what(), largest_bytes / 1024));
  }
}

// The host preflight (device/preflight.hpp), before anything is written: refuses with exit 3
// on an error, or on a warning with --strict-preflight. Returns the session record.
std::optional<results::PreflightSession> preflight(const RunState& s, const std::string& session) {
  return s.drive->preflight(session, s.worst);
}

void record_preflight(RunState& s, RunLog& log, std::optional<results::PreflightSession> found) {
  if (!found) return;
  results::PreflightSession& record = *found;
  for (const std::string& line : detail::preflight_warning_lines(record)) {
    log.message(line);
  }
  if (!s.draft.preflight) {
    s.draft.preflight.emplace();
  }
  s.draft.preflight->push_back(std::move(record));
}

// The recorded command line as one line of text ("ptsuite run --quick"); "(not recorded)".
std::string command_text(const std::vector<std::string>& argv) {
  const std::string line = join_command_line(argv);
  return line.empty() ? "(not recorded)" : line;
}

// The run-wide parameters of every step (no target, session or callbacks: the drive adds them).
DeviceRunParams run_shape(const RunState& s) {
  DeviceRunParams params;
  params.active_range_pct = s.settings.number("active_range_pct");
  params.ar_amount_bytes = s.settings.size_bytes("active_range.amount");
  params.ar_segments = static_cast<uint32_t>(s.settings.count("active_range.segments"));
  params.data = data_pattern_of(s.settings.text("data_pattern"));
  params.align_to_logical_block = s.settings.text("alignment") == "logical";
  params.engine = s.config.engine;
  params.seed = s.config.seed;
  params.allow_destructive = s.config.allow_destructive;
  params.purge_policy.auto_may_sanitize = s.settings.flag("purge.accept_nvme_sanitize");
  params.purge_policy.overwrite_is_purge = s.settings.flag("purge.accept_nvme_sanitize_overwrite");
  return params;
}

// The plans, timed with the drive's assumptions; the worst case (every step a run can take) is
// first resolved step by step against the drive: a step that cannot run is exit 2 before
// anything is written (RunDrive::plan_assumptions).
void make_plans(RunState& s) {
  const engine::TargetGeometry g = s.drive->geometry();
  const TargetFacts facts{g.capacity_bytes, g.logical_block_bytes};
  const PlanAssumptions assumed = s.drive->plan_assumptions(run_shape(s));
  s.worst = make_plan(s.config.tests, DefinitionSet::embedded(), s.spec, s.settings, facts, PlanCase::worst, assumed);
  s.best = make_plan(s.config.tests, DefinitionSet::embedded(), s.spec, s.settings, facts, PlanCase::best, assumed);
}

// The profile's write cache (PTS-E WCD, PTS-C WCE), applied once for the run.
void apply_write_cache(RunState& s, RunLog& observer) {
  const DefinitionSet& defs = DefinitionSet::embedded();
  s.drive->apply_write_cache(defs.profile(s.spec.profile).at("write_cache").at("value") == "enabled", observer);
}

// Runs one test to its record (status, times, write cache; the verdict is the caller's).
results::TestRecord run_one_test(RunState& s, const std::string& test_id, StepExecutor& exec, size_t index,
                                 RunLog& observer) {
  const DefinitionSet& defs = DefinitionSet::embedded();
  const std::unique_ptr<PtsTest> test = make_test(test_id);
  observer.test_started(test->id(), defs.test(test->id()).value("title", test->id()), index, s.config.tests.size());
  const std::string started = s.drive->now_utc();
  const engine::TargetGeometry g = s.drive->geometry();
  TestContext ctx{defs, s.spec, s.settings, exec, TargetFacts{g.capacity_bytes, g.logical_block_bytes}};
  results::TestRecord record = test->run(ctx);
  record.header.write_cache = s.drive->test_write_cache();
  record.header.status = "complete";
  record.header.started_utc = started;
  record.header.finished_utc = s.drive->now_utc();
  return record;
}

// Runs every test not yet complete, then finishes the results. Shared by start and resume, each
// of which hands over the run's journal as it loaded it (a resume's: once, for its record too).
RunOutcome execute(RunState& s, Journal& journal, RunLog& observer) {
  detail::ObservedExecutor observed(s.drive->executor(run_shape(s), observer), observer);
  // Each step timed on the run's clock as the observer times it; replayed steps' times to the ETA;
  // on a real drive, each step's entry records the session's and the run's steady-clock time, from
  // which a resume after kill -9 counts this session (durable_run_duration_ns).
  JournalTiming timing{[&observer] { return observer.now_ns(); },
                       [&observer](const std::string& id, uint64_t ns) { observer.step_replayed(id, ns); },
                       {}};
  if (!s.drive->run_clock_ns()) timing.session = [&s] { return session_time(s); };
  JournalingExecutor exec(observed, journal, std::move(timing));

  RunOutcome outcome;
  outcome.out_dir = s.dir.string();
  outcome.out = s.out;
  outcome.results_path = (s.dir / "results.json").string();
  std::vector<std::pair<std::string, ComplianceVerdict>> verdicts;
  s.draft.tests.clear();
  results::RunRecord& run = *s.draft.run;
  run.status = "running";
  try {
    apply_write_cache(s, observer);
    for (size_t i = 0; i < s.config.tests.size(); ++i) {
      results::TestRecord record = run_one_test(s, s.config.tests[i], exec, i, observer);
      const ComplianceVerdict verdict =
          evaluate_test_compliance(record, {DefinitionSet::embedded(), s.settings, s.config.engine});
      record.compliance = record_of(verdict);
      record.has_compliance = true;
      verdicts.emplace_back(record.header.id, verdict);
      s.draft.tests.push_back(json(std::move(record)).dump());  // held as text (results/run_draft.hpp)
      write_results(s);
    }
    outcome.status = "complete";
    outcome.exit_code = 0;
  } catch (const RunStopped& e) {
    outcome.status = e.exit_code() == static_cast<int>(ExitCode::interrupted) ? "interrupted" : "io_error";
    outcome.exit_code = e.exit_code();
    run.stop_reason = e.what();
    s.draft.stop_partial_segment = e.partial();
    observer.warning(e.what());
  } catch (const Error& e) {
    outcome.status = "failed";
    outcome.exit_code = static_cast<int>(e.code());
    run.stop_reason = e.what();
    observer.warning(e.what());
  }
  s.drive->restore_write_cache(s.draft, observer);
  run.status = outcome.status;
  run.finished_utc = s.drive->now_utc();
  update_duration(s);
  run.journal = results::JournalCounts{journal.entries().size(), exec.replayed_count(), exec.executed_count()};
  s.drive->finish(s.draft, observer);
  outcome.compliance = evaluate_run_compliance(verdicts, outcome.status);
  s.draft.compliance = record_of(outcome.compliance);
  const std::string text = results::dump_run_draft(s.draft);  // the simulation record is current
  write_file_atomic(s.out->file("results.json"), text);
  const auto document = std::make_shared<const json>(json::parse(text));
  if (outcome.status == "complete") outcome.report_formats = s.config.report_formats;
  outcome.final_note = fmt::format("{}run {}: {}; exit code {}", s.drive->outcome_prefix(), outcome.status,
                                   outcome.compliance.summary, outcome.exit_code);
  observer.close();  // finish_run appends the reports and final_note, then writes the manifest
  outcome.document = results::make_document(results::read_run_document(document), document);
  if (outcome.exit_code == 0 && s.config.strict && !outcome.compliance.compliant) {
    outcome.exit_code = static_cast<int>(ExitCode::negative_verdict);
  }
  return outcome;
}

}  // namespace

RunOutcome start_run(RunConfig config, RunObserver& observer, const std::atomic<bool>* stop,
                     device::OutputGate& outputs) {
  RunState s;
  s.config = std::move(config);
  s.settings = build_settings(s.config, s.spec);
  if (s.config.out_dir.empty()) s.config.out_dir = default_out_dir("ptsuite-run");
  s.dir = fs::absolute(s.config.out_dir);
  check_run_markers(s.dir, {"--out",
                            {k_run_file},
                            fmt::format("{} already holds a run; continue it with `ptsuite resume {}` or choose "
                                        "another directory",
                                        s.dir.string(), s.dir.string())});
  s.out = outputs.directory(s.config.out_dir, "--out", device::OutputGate::Existing::must_be_empty);
  s.dir = s.out->path();
  const std::string started_utc = utc_now_iso8601();
  open_drive(s, outputs, started_utc, stop, /*resuming=*/false);
  check_ar_segments(s);
  make_plans(s);
  std::optional<results::PreflightSession> preflight_record = preflight(s, "start");
  s.out->subdir("journal").create();
  s.dir_lock = lock_run_directory(s.dir);
  RunLog log(s.out->file(k_run_log_file), observer);
  log.note(fmt::format("ptsuite {} run started: {}", version(), command_text(s.config.command_line)));
  if (const std::string note = s.drive->log_note(); !note.empty()) log.message(note);
  log.plan_ready(s.best, s.worst);
  const std::string fingerprint = detail::plan_fingerprint(
      s.config, s.settings, s.worst, s.drive->geometry().capacity_bytes, s.drive->geometry().logical_block_bytes);
  // The run's id: the medium, the host and a nonce no other run draws (pts/run_identity.hpp).
  const std::string host = host_name();
  const std::string nonce = random_hex(16);
  const std::string run_uid = detail::make_run_uid(s.identity_json, host, nonce);
  write_file_atomic(s.out->file(k_run_file), json{{"config", s.config},
                                                  {"identity", s.identity_json},
                                                  {"plan_fingerprint", fingerprint},
                                                  {"started_utc", started_utc},
                                                  {"run_uid", run_uid},
                                                  {"host", host},
                                                  {"nonce", nonce}}
                                                 .dump(1));
  s.draft = detail::results_skeleton(s.config, DefinitionSet::embedded(), s.spec, s.settings);
  results::RunRecord& run = s.draft.run.emplace();
  run.run_uid = run_uid;
  run.host = host;
  run.sessions.started_utc = started_utc;
  run.sessions.boot_id = host_boot_id();
  run.plan_fingerprint = fingerprint;
  run.status = "running";
  s.drive->record(s.draft);
  s.draft.plan = results::PlanRecord{s.best.total_ns, s.worst.total_ns};
  s.draft.plan_assumptions = s.worst.assumptions;
  record_preflight(s, log, std::move(preflight_record));
  // Written once before the first step, so that a run killed before its first test ends still
  // has its start (and preflight) on record when it is resumed.
  write_results(s);
  log.message(fmt::format("run directory: {}", s.dir.string()));
  Journal journal(*s.out);
  return execute(s, journal, log);
}

// This session's resume record. A boot ID other than the previous session's means the host
// restarted since the run last ran (a reboot, or a power loss): the journal is complete, but the
// drive's state (its cache, its mapping) is not the state the journal saw. Disclosed, not refused.
results::ResumeRecord resume_record(const RunState& s, RunLog& log, const Journal& journal) {
  results::ResumeRecord r;
  r.utc = utc_now_iso8601();
  r.journaled_steps = journal.entries().size();
  r.boot_id = host_boot_id();
  const std::string previous = s.draft.run->sessions.last_boot_id();
  r.after_host_restart = !previous.empty() && !r.boot_id.empty() && previous != r.boot_id;
  if (r.after_host_restart) {
    log.warning(
        "the host restarted since this run last ran (its boot ID changed: a reboot or a power loss); the "
        "journaled steps stand, but after a power cut the drive is not in the state the journal saw; the report "
        "discloses it");
  }
  return r;
}

RunOutcome resume_run(const std::string& dir, bool allow_destructive, const std::optional<std::string>& confirm_serial,
                      RunObserver& observer, const std::atomic<bool>* stop, device::OutputGate& outputs) {
  RunState s;
  s.out = outputs.directory(dir, "DIR", device::OutputGate::Existing::may_hold_files);
  s.dir = s.out->path();
  if (!fs::exists(s.dir / k_run_file)) {
    throw UsageError("DIR", fmt::format("{} holds no ptsuite run (no {})", s.dir.string(), k_run_file));
  }
  s.dir_lock = lock_run_directory(s.dir);
  detail::check_journal_unchanged(s.dir);
  const json run = load_json_input(s.dir / k_run_file, (s.dir / k_run_file).string(), k_document_json_limits);
  try {
    s.config = run.at("config").get<RunConfig>();
    (void)run.at("identity");
    (void)run.at("plan_fingerprint").get<std::string>();
  } catch (const json::exception& e) {
    throw UsageError((s.dir / k_run_file).string(),
                     fmt::format("damaged, the run cannot be resumed from it ({})", e.what()));
  }
  s.config.allow_destructive = allow_destructive;
  if (confirm_serial) {
    s.config.confirm_serial = confirm_serial;
  }
  s.settings = build_settings(s.config, s.spec);
  open_drive(s, outputs, run.value("started_utc", ""), stop, /*resuming=*/true);
  const json before = device::identity_fingerprint(run.at("identity"));
  const json now = device::identity_fingerprint(s.identity_json);
  if (before != now) {
    throw SafetyRefusal(fmt::format("refusing to resume: {} is not the medium the run started on ({})", s.config.target,
                                    device::fingerprint_difference(before, now)));
  }
  const device::DeviceIdentity& identity = s.drive->identity();
  if (identity.is_real_drive() && identity.serial.empty() && identity.identifier.empty()) {
    throw SafetyRefusal(fmt::format(
        "refusing to resume: {} reports no serial number and no WWN/EUI-64/NGUID, so ptsuite cannot tell that it "
        "is the drive the run started on; start a new run",
        s.config.target));
  }
  make_plans(s);
  std::optional<results::PreflightSession> preflight_record = preflight(s, "resume");
  RunLog log(s.out->file(k_run_log_file), observer);
  log.note(fmt::format("ptsuite {} resume started", version()));
  if (const std::string note = s.drive->log_note(); !note.empty()) log.message(note);
  log.plan_ready(s.best, s.worst);
  const std::string fingerprint = detail::plan_fingerprint(
      s.config, s.settings, s.worst, s.drive->geometry().capacity_bytes, s.drive->geometry().logical_block_bytes);
  if (fingerprint != run.at("plan_fingerprint").get<std::string>()) {
    throw Error(ExitCode::system,
                "refusing to resume: the run's plan differs from what this ptsuite would do now "
                "(another ptsuite version, or changed test definitions); start a new run");
  }
  s.draft = fs::exists(s.dir / "results.json")
                ? results::read_run_draft(load_json_input(s.dir / "results.json", (s.dir / "results.json").string(),
                                                          k_document_json_limits))
                : detail::results_skeleton(s.config, DefinitionSet::embedded(), s.spec, s.settings);
  s.draft.config = s.config;
  const std::optional<uint64_t> document_ns = s.draft.run ? s.draft.run->duration_ns : 0;
  if (!s.draft.run) {  // killed before results.json was first written: the start is in journal/run.json
    s.draft.run.emplace();
    s.draft.run->sessions.started_utc = run.value("started_utc", "");
    s.draft.run->plan_fingerprint = fingerprint;
  }
  // The id drawn when the run started (journal/run.json; runs of earlier versions have none).
  if (s.draft.run->run_uid.empty() && run.contains("run_uid")) {
    s.draft.run->run_uid = run.at("run_uid").get<std::string>();
    s.draft.run->host = run.value("host", "");
  }
  Journal journal(*s.out);  // loaded once: the resume's record, its duration, then the run's steps
  const results::ResumeRecord resume = resume_record(s, log, journal);
  // A session killed after its last results.json write counts to its last journaled step.
  s.duration_before_ns = durable_run_duration_ns(document_ns, journal.entries());
  s.draft.run->sessions.resumes.push_back(resume);
  s.draft.run->stop_reason.reset();
  s.draft.stop_partial_segment.reset();
  s.drive->record(s.draft);
  record_preflight(s, log, std::move(preflight_record));
  log.message(fmt::format("resuming {} after {} journaled steps", s.dir.string(), resume.journaled_steps));
  // On record before the first step, in the form of a run in progress (as start_run writes it):
  // the resume (and a host restart before it) stays known even if this session is cut too.
  s.draft.run->status = "running";
  s.draft.tests.clear();
  s.draft.compliance.reset();
  s.draft.throttle = nullptr;
  write_results(s);
  return execute(s, journal, log);
}

}  // namespace ptsuite::pts
