// Contract: the durations rule of the compliance judge (compliance.hpp, clause "durations";
// docs/spec-traceability.md "Durations"), for one CHANGED time-scaling setting ("scaling":
// "time" in pts/: a duration, amount or repetition count that shapes a measurement). Pure.
//
//   value < floor            SHORTENED, whatever the tag ([V]/[I]: the floor is the spec
//                            value; [U]: the lowest value any cited source uses, kept in pts/
//                            as "floor" with its source, else the default). One exception:
//                            max_rounds lowered is shortened only when the lowered cap stopped
//                            a Round loop (a phase at the cap without steady state); a loop
//                            that attained steady state at or before it ran exactly as a
//                            default run would, so the lowered cap is only disclosed.
//   value > default          a [V]/[I] segment or Round duration ("raised": "deviation") is a
//                            DEVIATION (fail): the spec fixes it; anything else (max_rounds
//                            past 25, a longer WIPC or capture) is disclosed as longer.
//   floor <= value < default only a [U] value can be here: disclosed with its value and floor.
#pragma once

#include <string>

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

// `round_cap_stopped`: whether a Round loop of the test ended at its cap without attaining
// steady state (round_cap_stopped() below); only read for max_rounds.
DurationFinding judge_time_scaling(const SettingRecord& setting, bool round_cap_stopped);

// True when some phase of the test record (or WSAT's steady-state stop) ran to its Round cap
// without attaining steady state.
bool round_cap_stopped(const nlohmann::json& test_record);
bool round_cap_stopped(const results::TestRecord& test_record);

}  // namespace ptsuite::pts
