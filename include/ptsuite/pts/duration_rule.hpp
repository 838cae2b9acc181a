// Contract: the durations rule of the compliance judge (compliance.hpp, clause "durations";
// docs/spec-traceability.md "Durations"), for one CHANGED time-scaling setting ("scaling":
// "time" in pts/: a duration, amount or repetition count that shapes a measurement). Pure.
//
//   value < floor            SHORTENED, whatever the tag ([V]/[I]: the floor is the spec
//                            value, "below the spec value"; [U]: the lowest value any cited
//                            source uses, kept in pts/ as "floor" with its source, else the
//                            default: "below the floor F (source)"). One exception: a cap or
//                            limit ("limit" in pts/: max_rounds, ecw.precondition_rounds,
//                            wsat.time_limit, wsat.capacity_multiple, endurance-write.time_limit)
//                            lowered is shortened only when it stopped the run, i.e. when the
//                            record ended by its stop (limit_stops() below); otherwise the run is
//                            the one the default limit gives and the lowered limit is disclosed,
//                            naming what did stop the run.
//   value > default          a [V]/[I] length or count the spec fixes ("raised": "deviation":
//                            segments, Rounds, pre-writes, HIR's repetitions and baseline) is a
//                            DEVIATION (fail); anything else (max_rounds past 25, a longer WIPC,
//                            capture or limit) is disclosed as longer.
//   floor <= value < default only a [U] value can be here: disclosed with its value and floor.
// What stopped each loop or run is read from the typed record: a Round phase ended at steady
// state, at its cap without it (the cap is the phase's round_cap_setting), or after its fixed
// count; WSAT and endurance-write end by their stop reason.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/pts/settings.hpp>

namespace ptsuite::results {
struct TestRecord;
}  // namespace ptsuite::results

namespace ptsuite::pts {

enum class DurationJudgement { shortened, deviation, longer, unverified_at_floor, cap_unused };

struct DurationFinding {
  DurationJudgement judgement = DurationJudgement::shortened;
  std::string why;  // one line, appended to the setting's disclosure
};

// How one loop or run of a test record ended.
struct RunEnding {
  std::string stop;     // "steady_state", "round_cap", "time_limit", "capacity"
  std::string setting;  // the setting that set the limit it stopped at ("" when the stop names none)
  std::string what;     // "the precondition Round loop stopped at its cap, Round 5, without steady state"
};

// Every ending of the record, in record order: each Round phase's, then WSAT's or
// endurance-write's. A phase whose record lacks its counts reads 0 of 0 Rounds: stopped by its
// cap, so a missing field never turns a lowered cap into a mere disclosure.
std::vector<RunEnding> run_endings(const results::TestRecord& test_record);
std::vector<RunEnding> run_endings(const nlohmann::json& test_record);

// The endings a limit setting produced: stop == setting.limit, and the ending names this
// setting or no setting. Empty for a setting that is no limit.
std::vector<RunEnding> stopped_by(const SettingRecord& setting, const std::vector<RunEnding>& endings);

// Judges one changed time-scaling setting against the record's endings (read only for limits).
DurationFinding judge_time_scaling(const SettingRecord& setting, const std::vector<RunEnding>& endings);

}  // namespace ptsuite::pts
