// Contract: the writers of a scenario results document (kind "ptsuite.scenario",
// pts/schema/scenario-results.schema.json; docs/scenarios.md) and of its run file
// (DIR/scenario-run.json): the scenario runner and the run's lifecycle (scenario/) build these
// records typed and never spell a member name; results/scenario.hpp reads them back. The
// measured parts the lower layers serialize (an IoSummary, a histogram, an interval series, a
// purge record, an application's or a replay's document) come in as the JSON their own writers
// made. Presence follows what the runner writes:
//   instance    "interval_ns" and "intervals" only with an interval series
//   step x      each coordinate only when set; "rate_iops" is a ramp's per-instance list or a
//               rate step's one rate
//   phase       "warmup_ns", "app_targets", "streams_start_ns", "app", "purges", "replays" and
//               "steady_state" only when set (the runner fills them as the phase runs)
//   config      "tested_by" only when non-empty
// Objects are written with their members sorted (nlohmann::json's std::map), so a record written
// from what it was read from is byte for byte the same.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ptsuite::results {

// One stream on one target in one step ("phases[].steps[].streams[]").
struct ScenarioInstanceOut {
  std::string stream;
  uint32_t target = 0;
  uint32_t threads = 0;
  uint32_t queue_depth = 0;
  double rate_iops = 0;  // requested; 0 = none
  double rate_mb_per_s = 0;
  uint64_t seed = 0;
  uint64_t elapsed_ns = 0;
  std::string stop_reason;
  nlohmann::json summary;  // its IoSummary (stats/stats_json.hpp)
  nlohmann::json histogram_read;
  nlohmann::json histogram_write;
  nlohmann::json histogram_combined;
  std::optional<uint64_t> interval_ns;  // with an interval series
  nlohmann::json intervals;             // workload/workload_json.hpp intervals_json()
};

// A step's generator coordinate ("x"): the TxQ point, the fill amount, the ramp's percentage and
// per-instance rates, the stepped rate, the Round, the mixed phase's application.
struct ScenarioStepX {
  std::optional<uint32_t> threads;
  std::optional<uint32_t> queue_depth;
  std::optional<double> capacity_multiple;
  std::optional<double> percent;
  std::optional<std::vector<double>> instance_rates_iops;  // a ramp step: each instance's rate
  std::optional<double> rate_iops;                         // a rate step in IOPS
  std::optional<double> rate_mbps;                         // a rate step in MB/s
  std::optional<uint32_t> round;
  std::optional<std::string> app;
};

struct ScenarioStepOut {
  std::string label;
  ScenarioStepX x;
  std::vector<ScenarioInstanceOut> streams;
  std::vector<nlohmann::json> target_summaries;  // index = target; null = no stream there
  nlohmann::json aggregate;
};

struct ScenarioSteadyStateOut {
  bool attained = false;
  std::string variable;
  uint64_t rounds_run = 0;
  uint32_t max_rounds = 0;
  nlohmann::json verdicts;  // each target's pts::SteadyStateVerdict
};

// One target's purge record (device::PurgeRecord as it writes itself) with its target index.
nlohmann::json scenario_purge_entry(nlohmann::json purge_record, uint32_t target);
// One target's replay ("replays[]").
nlohmann::json scenario_replay_entry(uint32_t target, nlohmann::json replay);

struct ScenarioPhaseOut {
  std::string name;
  std::string kind;
  uint64_t duration_ns = 0;
  std::optional<uint64_t> warmup_ns;
  std::vector<nlohmann::json> steps;  // each written from a ScenarioStepOut (or journaled)
  std::optional<std::vector<uint32_t>> app_targets;
  std::optional<uint64_t> streams_start_ns;
  std::optional<nlohmann::json> app;      // the "ptsuite.app_run" document
  std::optional<nlohmann::json> purges;   // [scenario_purge_entry()]
  std::optional<nlohmann::json> replays;  // [scenario_replay_entry()]
  std::optional<ScenarioSteadyStateOut> steady_state;
};

// A mixed phase's journal entry (`<phase>/app`): the app's document, the streams' step and
// when they started; read back with read_mixed_entry().
struct ScenarioMixedEntry {
  nlohmann::json app;
  nlohmann::json step;
  uint64_t streams_start_ns = 0;
};
ScenarioMixedEntry read_mixed_entry(const nlohmann::json& j);

struct ScenarioHeaderOut {  // "scenario"
  std::string name;
  std::string title;
  std::string description;
  std::string reconstructs;
  std::vector<std::string> ptsuite_choices;
  std::vector<std::string> roles;
  bool quick = false;
  std::string source_sha256;
};

struct ScenarioDocumentOut {
  std::string tool_version;
  std::string git_revision;
  ScenarioHeaderOut scenario;
  std::string engine;
  uint64_t seed = 0;
  bool quick = false;
  std::string tested_by;
  nlohmann::json report;   // the report options (report/scenario_report.hpp)
  nlohmann::json targets;  // the targets' identities as the run file holds them
  std::string started_utc;
  std::optional<std::string> status;
  std::optional<std::string> finished_utc;
  std::vector<ScenarioPhaseOut> phases;
};

// DIR/scenario-run.json: what `scenario resume` needs to continue the run.
struct ScenarioRunFileOut {
  std::string scenario_text;
  std::vector<std::string> targets;
  bool quick = false;
  std::string engine;
  uint64_t seed = 0;
  nlohmann::json identities;  // each target's identity with "path" and "scratch"
  bool scratch = false;
  std::string tested_by;
  std::string reports;
  std::string series;
  std::string plot_targets;
  bool compact = false;
  std::string started_utc;
};

// A target's identity as the run records it: the session's identity with its path and whether
// it is a scratch target of the run.
nlohmann::json scenario_target_identity(nlohmann::json identity, const std::string& path, bool scratch);

// `scenario list --json`: each built-in scenario and each named mix profile.
struct ScenarioListEntryOut {
  std::string name;
  std::string title;
  std::string reconstructs;
  uint32_t target_count = 1;
  bool exact_targets = false;
  std::vector<std::string> roles;
  std::vector<std::string> phases;
};
struct MixProfileOut {
  std::string name;
  std::string title;
  std::string basis;
};
nlohmann::json scenario_listing(const std::vector<ScenarioListEntryOut>& scenarios,
                                const std::vector<MixProfileOut>& profiles);

void to_json(nlohmann::json& j, const ScenarioInstanceOut& i);
void to_json(nlohmann::json& j, const ScenarioStepX& x);
void to_json(nlohmann::json& j, const ScenarioStepOut& s);
void to_json(nlohmann::json& j, const ScenarioSteadyStateOut& s);
void to_json(nlohmann::json& j, const ScenarioPhaseOut& p);
void to_json(nlohmann::json& j, const ScenarioMixedEntry& e);
void to_json(nlohmann::json& j, const ScenarioHeaderOut& h);
void to_json(nlohmann::json& j, const ScenarioDocumentOut& d);
void to_json(nlohmann::json& j, const ScenarioRunFileOut& r);

}  // namespace ptsuite::results
