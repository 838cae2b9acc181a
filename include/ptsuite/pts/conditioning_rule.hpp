// Contract: the one rule for every phase that conditions the drive (compliance.hpp, clause
// "durations"; docs/spec-traceability.md "Conditioning"). The rules are data: common.json
// "conditioning_rules", one row per conditioning kind, each with the floor the sources set
// (value, clause, confidence tag, source; per test or per phase where they differ). The judge
// walks the rules, not the tests: for each rule it finds every item of its kind in the typed
// test record and compares what the item did to the floor, so a new phase that names a known
// kind inherits the rule.
//
//   kind                      found in the record as                    measured as
//   wipc, wipc-random         preconditioning[].pass / .random_pass     user capacities written
//   wdpc, precondition        a Round phase naming the kind             Rounds run x the Round's
//                             (round_loop.hpp RoundLoopSpec::conditioning) segment lengths
//   inter-round-prewrite      a Round's before_round of that kind       its length (the shortest)
//   operating-point-prewrite  a demand sweep's pre-writes               its length (the shortest)
//   access-group              XSR's access groups                       the group's length
//
// An item below its floor is SHORTENED whatever stopped it: steady state at Round 5 of
// 1-minute Rounds is 5 minutes of preconditioning, however steady. A floor is a capacity
// multiple (2), a duration ("25min"), or Rounds of the phase's own template at a segment length
// ({"rounds": 5, "segment": "1min"}: 5 x 56 x 1 min for IOPS). Each finding names the changed
// settings that shaped the item (the rule's "settings" patterns: "{test}" is the test id,
// "{phase}" the phase with '-' as '_', a trailing '*' any rest), so the per-setting durations
// rule does not repeat what the finding already says. Pure; reads DefinitionSet::embedded()
// data through the DefinitionSet given; throws Error on a malformed table (a defect of pts/).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/pts/definitions.hpp>
#include <ptsuite/pts/settings.hpp>
#include <ptsuite/results/test_record.hpp>

namespace ptsuite::pts {

struct ConditioningFloor {
  nlohmann::json value;  // 2, "25min" or {"rounds": 5, "segment": "1min"}
  Provenance provenance;
};

struct ConditioningRule {
  std::string id;                     // the kind: "wipc", "precondition", ...
  std::string what;                   // "test-specific preconditioning"
  std::string measure;                // "capacity" or "time"
  std::vector<std::string> settings;  // patterns of the settings that shape an item of the kind
  ConditioningFloor floor;
  std::vector<std::pair<std::string, ConditioningFloor>> by_test;
  std::vector<std::pair<std::string, ConditioningFloor>> by_phase;

  // The floor for an item of test `test_id`, phase `phase`: by_phase, else by_test, else floor.
  [[nodiscard]] const ConditioningFloor& floor_for(const std::string& test_id, const std::string& phase) const;
};

// The table of common.json "conditioning_rules", checked (every rule has an id, a known measure,
// a floor with clause, tag and source).
std::vector<ConditioningRule> conditioning_rules(const DefinitionSet& defs);

// One item of a test record that conditioned the drive: what it did, in the rule's measure.
struct ConditioningItem {
  std::string kind;
  std::string phase;             // "main", "precondition", "demand-variation", "access-1", ...
  double capacity_multiple = 0;  // measure "capacity": user capacities written
  uint64_t time_ns = 0;          // measure "time": how long it wrote
  uint32_t rounds = 0;           // a Round phase: Rounds run
  size_t round_segments = 0;     // a Round phase: segments per Round
  std::string amount_text;       // "5 Rounds x 1.0s = 5.0s", "0.25X user capacity", ...
};

// Every conditioning item of the record, in record order.
std::vector<ConditioningItem> conditioning_items(const results::TestRecord& record);

struct ConditioningFinding {
  std::string kind;
  std::string phase;
  bool shortened = false;
  std::string detail;                 // one line: what it did, the floor, its source, the settings that set it
  std::string spec_ref;               // the floor's clause
  std::vector<std::string> settings;  // the changed settings (read by the test) that shaped it
};

// One finding per item of every rule, in rule order.
std::vector<ConditioningFinding> judge_conditioning(const results::TestRecord& record, const DefinitionSet& defs,
                                                    const Settings& settings);

// Whether setting `name` matches a rule's pattern for the test and phase.
bool conditioning_setting_matches(const std::string& pattern, const std::string& name, const std::string& test_id,
                                  const std::string& phase);

}  // namespace ptsuite::pts
