// The batch step of a fleet job: run, resume or finish, then push once (fleet/job.hpp).
#include <ptsuite/fleet/job.hpp>

#include <fmt/format.h>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/device/drives.hpp>
#include <ptsuite/history/run_record.hpp>
#include <ptsuite/history/store.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/printable.hpp>
#include <ptsuite/util/sha256.hpp>

namespace ptsuite::fleet {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The push state of one run (ROOT/CAMPAIGN/SERIAL/KEY.push.json).
struct PushState {
  std::string run_uid;
  bool pushed = false;
  int64_t history_id = 0;
  uint32_t failures = 0;
  std::string last_error;
};

PushState read_push_state(const fs::path& path) {
  PushState s;
  std::error_code ec;
  if (!fs::exists(path, ec)) return s;
  try {
    const json j = json::parse(read_file(path));
    s.run_uid = j.value("run_uid", "");
    s.pushed = j.value("pushed", false);
    s.history_id = j.value("history_id", int64_t{0});
    s.failures = j.value("failures", 0U);
    s.last_error = j.value("last_error", "");
  } catch (const json::exception&) {
    // A damaged state file is an unpushed run: pushing again is idempotent.
  }
  return s;
}

// The output token of `path`, a file under the run root the gate let through.
OutputPath under_root(const OutputDir& root, const fs::path& path) {
  return root.file(path.lexically_relative(root.path()).generic_string());
}

void to_json(json& j, const PushState& s) {
  j = json{{"run_uid", s.run_uid},
           {"pushed", s.pushed},
           {"history_id", s.history_id},
           {"failures", s.failures},
           {"last_error", s.last_error}};
}

void write_push_state(const OutputPath& path, const PushState& s) { write_file_atomic(path, json(s).dump(1) + "\n"); }

// A run directory whose run completed and wrote its manifest: nothing is left but the push.
bool finished_run(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir / std::string(bundle::k_manifest_file_name), ec) || !fs::exists(dir / "results.json", ec)) {
    return false;
  }
  try {
    const json results = load_json_input(dir / "results.json", (dir / "results.json").string(), k_document_json_limits);
    return results.contains("run") && results.at("run").value("status", "") == "complete";
  } catch (const Error&) {
    return false;
  }
}

std::string run_uid_of(const fs::path& dir) {
  try {
    const json results = load_json_input(dir / "results.json", (dir / "results.json").string(), k_document_json_limits);
    return results.at("run").value("run_uid", "");
  } catch (const std::exception&) {
    return "";
  }
}

void say(const JobHooks& hooks, const std::string& line) {
  if (hooks.say) hooks.say(line);
}

// Records `dir` with its bundle in the history (replacing its own record: the run id is unique
// to this run, so the same run pushed again is the same record). Unavailable propagates.
void push_one(const fs::path& dir, const OutputPath& state_path, const history::HistoryDb& db, const JobHooks& hooks) {
  PushState state = read_push_state(state_path.path());
  state.run_uid = run_uid_of(dir);
  try {
    const history::RunRecord record = history::record_from_run_dir(dir);
    const std::vector<history::BundleFile> files = history::read_bundle_files(dir);
    history::HistoryStore store = history::HistoryStore::open(db);
    const history::AddResult added = store.add(record, /*replace=*/true, &files);
    state.pushed = true;
    state.history_id = added.id;
    state.last_error.clear();
    write_push_state(state_path, state);
    say(hooks, fmt::format("history: {} run {} ({} files of its bundle) in {}", added.updated ? "updated" : "added",
                           added.id, files.size(), store.backend().describe()));
  } catch (const Error& e) {
    if (e.code() == ExitCode::unavailable) {
      ++state.failures;
      state.last_error = e.what();
      write_push_state(state_path, state);
    }
    throw;
  }
}

// A run directory without journal/run.json holds nothing of a run (a start killed before it
// wrote its journal): removed when it holds no file at all, so that the run can start there.
void remove_aborted_start(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec) || fs::exists(dir / "journal" / "run.json", ec)) return;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_directory(ec)) return;  // a file: not ours to remove; `run` refuses the directory
  }
  fs::remove_all(dir, ec);
}

void check_path_word(const std::string& value, const char* what) {
  if (value.empty() || value == "." || value == ".." || device::normalize_serial(value) != value) {
    throw UsageError(what, fmt::format("\"{}\" must be letters, digits, '_', '.' and '-' (it names a directory and "
                                       "a Slurm job)",
                                       printable(value)));
  }
}

}  // namespace

std::string default_run_root() {
  const char* env = std::getenv("PTSUITE_FLEET_ROOT");
  return env != nullptr && *env != '\0' ? env : "/var/lib/ptsuite/fleet";
}

std::string run_key(const pts::RunConfig& c) {
  json overrides = json::array();
  for (const auto& [name, value] : c.overrides) overrides.push_back({name, value});
  const json basis{{"tests", c.tests},       {"revision", c.revision}, {"profile", c.profile}, {"presets", c.presets},
                   {"overrides", overrides}, {"seed", c.seed},         {"engine", c.engine}};
  std::string tests;
  for (const std::string& t : c.tests) tests += (tests.empty() ? "" : "+") + t;
  return tests + "-" + sha256_hex(basis.dump()).substr(0, 8);
}

JobPaths job_paths(const JobRequest& r) {
  const fs::path base = r.run_root / r.campaign / r.serial;
  const std::string key = run_key(r.config);
  return {base / key, base / (key + ".push.json")};
}

size_t push_pending(const OutputDir& root, const history::HistoryDb& history_db, const JobHooks& hooks,
                    const fs::path& skip) {
  size_t left = 0;
  bool reachable = true;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root.path(), ec), end; !ec && it != end; it.increment(ec)) {
    if (it.depth() != 2 || !it->is_directory(ec)) continue;  // ROOT/CAMPAIGN/SERIAL/KEY
    it.disable_recursion_pending();
    const fs::path dir = it->path();
    if (!skip.empty() && dir == skip) continue;
    const fs::path state_path = dir.parent_path() / (dir.filename().string() + ".push.json");
    if (!finished_run(dir)) continue;
    const PushState state = read_push_state(state_path);
    if (state.pushed && state.run_uid == run_uid_of(dir)) continue;
    if (!reachable) {
      ++left;
      continue;
    }
    try {
      say(hooks, fmt::format("pushing the finished run {} left unpushed before", dir.string()));
      push_one(dir, under_root(root, state_path), history_db, hooks);
    } catch (const Error& e) {
      ++left;
      reachable = e.code() != ExitCode::unavailable;  // one unreachable database is enough to know
      say(hooks, fmt::format("ptsuite: warning: {} is still not in the history: {}", dir.string(), e.what()));
    }
  }
  return left;
}

int run_fleet_job(const JobRequest& r, pts::RunObserver& observer, const std::atomic<bool>* stop,
                  device::OutputGate& outputs, const JobHooks& hooks) {
  check_path_word(r.serial, "--serial");
  check_path_word(r.campaign, "--campaign");
  if (!r.run_root_dir) throw std::logic_error("run_fleet_job: the run root's output token is missing");
  const JobPaths paths = job_paths(r);
  (void)push_pending(*r.run_root_dir, r.history_db, hooks, paths.run_dir);
  remove_aborted_start(paths.run_dir);
  if (!finished_run(paths.run_dir)) {
    pts::RunOutcome outcome;
    std::error_code ec;
    if (fs::exists(paths.run_dir / "journal" / "run.json", ec)) {
      say(hooks, fmt::format("resuming {} (a journal for this drive and campaign is here)", paths.run_dir.string()));
      if (hooks.state) hooks.state("resuming");
      outcome =
          pts::resume_run(paths.run_dir.string(), r.config.allow_destructive, std::nullopt, observer, stop, outputs);
    } else {
      pts::RunConfig config = r.config;
      config.target = device::k_serial_target_prefix + r.serial;
      config.out_dir = paths.run_dir.string();
      fs::create_directories(paths.run_dir.parent_path(), ec);
      say(hooks, fmt::format("starting campaign {} on serial {} in {}", r.campaign, r.serial, paths.run_dir.string()));
      if (hooks.state) hooks.state("starting");
      outcome = pts::start_run(config, observer, stop, outputs);
    }
    if (!hooks.finish) throw std::logic_error("run_fleet_job: no finish hook");
    hooks.finish(outcome);
    if (hooks.run) hooks.run(run_uid_of(paths.run_dir));
    if (outcome.exit_code == static_cast<int>(ExitCode::interrupted)) return static_cast<int>(JobExit::interrupted);
    if (outcome.exit_code == static_cast<int>(ExitCode::io_error)) return static_cast<int>(JobExit::io_error);
    if (outcome.status != "complete") return static_cast<int>(JobExit::failed);
  } else {
    say(hooks, fmt::format("{} is complete already: only its push is left", paths.run_dir.string()));
    if (hooks.run) hooks.run(run_uid_of(paths.run_dir));
  }
  const PushState state = read_push_state(paths.push_state);
  if (state.pushed && state.run_uid == run_uid_of(paths.run_dir)) {
    say(hooks, fmt::format("the run is in the history already (run {})", state.history_id));
    return static_cast<int>(JobExit::done);
  }
  if (hooks.state) hooks.state("pushing");
  try {
    push_one(paths.run_dir, under_root(*r.run_root_dir, paths.push_state), r.history_db, hooks);
  } catch (const Error& e) {
    if (e.code() != ExitCode::unavailable) throw;
    const uint32_t failures = read_push_state(paths.push_state).failures;
    if (failures >= r.max_push_failures) {
      say(hooks, fmt::format("ptsuite: the history was unreachable at {} attempts ({}); the run is complete in {}: "
                             "holding the job (release it once the database is back, or push with `ptsuite fleet "
                             "push`)",
                             failures, e.what(), paths.run_dir.string()));
      return static_cast<int>(JobExit::failed);
    }
    say(hooks, fmt::format("ptsuite: {} (attempt {} of {}); the job is requeued to push again", e.what(), failures,
                           r.max_push_failures));
    return static_cast<int>(JobExit::history_retry);
  }
  if (hooks.state) hooks.state("complete");
  return static_cast<int>(JobExit::done);
}

}  // namespace ptsuite::fleet
