// Contract: a characterization scenario as typed data (format "ptsuite-scenario/1",
// pts/schema/scenario.schema.json, built-ins in pts/scenarios/). A scenario is an ordered list
// of phases over one or more targets; a phase runs one or more streams concurrently, or is a
// generator that expands into several measured steps (expand() in scenario_plan.hpp):
//   run        the streams once, for `duration` and/or `bytes` (first reached)
//   purge      each target purged (device::DeviceSession::purge; the method `purge_method`)
//   fill       each target written `capacity_multiple` x its capacity, SEQ `block_size`
//   txq        one stream template swept over (threads, queue_depth) points
//   rate_ramp  one stream template at percentages of the IOPS a previous phase measured
//   rate_steps one stream's rate (MB/s or IOPS) stepped while the other streams hold
//   steady_state  one stream in Rounds of `duration` until the PTS steady-state rule holds on
//              `variable` (iops | mb_per_s | mean_latency), at most `max_rounds`
//   app        a built-in application on every target at once (docs/app.md), or on the targets
//              of `app_targets` (roles) while `streams` run on the other targets over the app's
//              measured period (a mixed phase: application and synthetic load at once)
//   replay     a captured workload replayed on each target at once, each its own replay
//              (replay/replay_runner.hpp: `capture`, `mode` open | closed, `speed`, `step`)
// parse_scenario() checks every field and throws UsageError naming the file, the field path
// and its line/column for the first problem (exit 2), before any device is touched.
// Units: sizes in bytes, durations in ns, rates IOPS and decimal MB/s (10^6 bytes/s).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <ptsuite/pts/steady_state_rule.hpp>
#include <ptsuite/workload/workload_spec.hpp>

namespace ptsuite::scenario {

inline constexpr const char* k_scenario_format = "ptsuite-scenario/1";

// Which targets a stream runs on: every target ("each", one job per device as the seeds do),
// or the target of one role (noisy neighbour: role k = the k-th --target).
struct StreamTargets {
  bool each = true;
  uint32_t role = 0;
};

struct StreamSpec {
  std::string name;
  StreamTargets targets;
  workload::AccessPattern pattern = workload::AccessPattern::random;
  double read_pct = 100;
  std::vector<workload::BlockSizeWeight> block_sizes = std::vector<workload::BlockSizeWeight>(1);
  workload::ActiveRangeSpec range;  // percent of capacity or offset:length
  uint32_t threads = 1;
  uint32_t queue_depth = 1;
  workload::RateLimit rate;
  std::string profile;  // the named mix it came from ("" = written inline)
};

enum class PhaseKind { run, purge, fill, txq, rate_ramp, rate_steps, steady_state, app, replay };
const char* to_string(PhaseKind kind) noexcept;

struct TxqPoint {
  uint32_t threads = 1;
  uint32_t queue_depth = 1;
};

struct PhaseSpec {
  std::string name;
  PhaseKind kind = PhaseKind::run;
  uint64_t duration_ns = 0;  // run, txq, rate_ramp, rate_steps: per step; steady_state: per Round
  // run: also (or instead) stop each stream instance after this many bytes, or this multiple
  // of its active range ("bytes": "10GiB" / "2x"); 0 = none.
  uint64_t bytes = 0;
  double bytes_range_multiple = 0;
  uint64_t interval_ns = 0;  // every measured kind: per-stream interval series period; 0 = off
  // every timed kind ("segment_warmup"): the step's streams run this long before each measured
  // step, not counted (the measured duration is unchanged); 0 = none
  uint64_t warmup_ns = 0;
  std::vector<StreamSpec> streams;         // run, rate_steps: all; txq, rate_ramp, steady_state: one
  std::vector<TxqPoint> txq;               // txq
  std::string percent_of;                  // rate_ramp: the phase whose IOPS is 100 %
  std::vector<double> percents;            // rate_ramp
  std::string step_stream;                 // rate_steps: the stream whose rate steps
  bool step_mb_per_s = true;               // rate_steps: MB/s (else IOPS)
  std::vector<double> step_rates;          // rate_steps
  uint64_t fill_block_bytes = 128 * 1024;  // fill
  double fill_capacity_multiple = 1;       // fill
  std::string purge_method = "auto";       // purge
  std::string variable = "iops";           // steady_state
  // steady_state: the Round cap, pts/common.json's unless the phase names one
  uint32_t max_rounds = pts::common_steady_state_rule().max_rounds;
  bool charts = true;                     // report charts for this phase
  std::string app;                        // app: the application (pts/apps/, docs/app.md)
  std::vector<std::string> app_settings;  // app: its settings as "name=value"
  // app: the targets (role indices) the application runs on; empty = every target. With
  // `streams` (a mixed phase) the streams run on the others ("each" = each target the app
  // does not use) from the start of the app's measured period for its length.
  std::vector<uint32_t> app_targets;
  // replay (docs/replay.md): the capture (a built-in name or a file: .ptcap, fio iolog,
  // blktrace), open loop (at the captured times / speed) or closed (as fast as possible), the
  // time scale and the step length of the faithfulness figures.
  std::string capture;
  bool closed_loop = false;
  double speed = 1;
  uint64_t step_ns = 300'000'000'000;  // as `ptsuite replay --step` (5 min)
};

struct TargetRoles {
  uint32_t count = 1;              // targets the scenario needs (1 = any number, each runs all)
  bool exact = false;              // roles: exactly `count` targets
  std::vector<std::string> names;  // role names when exact
};

// What --quick changes: every step duration, the fill amount, the Round cap.
struct QuickForm {
  uint64_t duration_ns = 1'000'000'000;
  double fill_capacity_multiple = 0.25;
  uint32_t max_rounds = 3;
  uint32_t rate_steps_stride = 1;  // keep every n-th rate step
};

struct Scenario {
  std::string name;
  std::string title;
  std::string description;
  std::string reconstructs;                  // the published test it reconstructs
  std::vector<std::string> ptsuite_choices;  // invented details, disclosed
  TargetRoles targets;
  std::vector<PhaseSpec> phases;
  QuickForm quick;
};

// `where` names the source in errors (a file path or "built-in write-pressure"); `text` is the
// JSON text (for line/column in errors).
Scenario parse_scenario(const std::string& text, const std::string& where);

// Built-in scenarios: names, and the text of one (nullopt when unknown).
std::vector<std::string> builtin_scenarios();
std::optional<std::string> builtin_scenario_text(const std::string& name);

// A scenario by built-in name or file path; UsageError naming both choices when neither.
Scenario load_scenario(const std::string& name_or_path, std::string* text_out = nullptr);

// The scenario in its --quick form (durations, fill, Rounds and rate steps shortened).
Scenario quick_form(const Scenario& s);

}  // namespace ptsuite::scenario
