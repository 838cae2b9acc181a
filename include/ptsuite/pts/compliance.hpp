// Contract: the per-clause compliance verdict of a test record and of a whole run, computed
// from the record, the settings and the engine that ran (pure; stored in results.json; reports
// only render it). Clause titles and spec references come from pts/common.json
// ("compliance_clauses").
//
// Clauses per test (status pass / fail / disclosed / not_applicable):
//   purge            every purge succeeded with a method the PTS accepts (fallbacks such as
//                    discard or zero-fill fail; NVMe Sanitize per purge.accept_nvme_sanitize)
//   preconditioning  every WIPC pass wrote its full target (tests with WIPC); the PTS-C random
//                    pass is a client option
//   durations        every phase that conditions the drive (WIPC, WDPC, test-specific
//                    preconditioning, pre-writes, XSR's access groups) did at least the floor
//                    of its kind, whatever stopped it (conditioning_rule.hpp: one line per
//                    phase, what it did against the floor and its source); no duration,
//                    amount or repetition count ("scaling": "time" in pts/) was lowered below
//                    its floor, a cap or limit only when it stopped the run (duration_rule.hpp);
//                    a shortened run is "not compliant: shortened"; no [V]/[I] length or count
//                    the spec fixes was raised (a deviation)
//   steady_state     every tracking variable of every steady-state phase attained steady state;
//                    a phase that ran to the Round cap without it is DISCLOSED ("SS NOT
//                    ACHIEVED", window x-4..x), as the spec allows, and named in `notes`; a
//                    fixed count of Rounds (ECW's preconditioning) is not judged (not_applicable)
//   active_range     the ActiveRange the profile requires
//   write_cache      the write-cache state the profile requires was set and verified
//   toio             TC/QD as used: the operator's choice where the spec leaves it so (IOPS,
//                    WSAT: disclosed); a TOIO the spec fixes (Throughput TC 1 / QD 32) changed
//                    is a deviation
//   engine           the IO engine: null does no IO (fail); sync runs one IO at a time per
//                    thread, so a test with QD > 1 did not run at its QD (fail)
//   data_pattern     random data (zeros fail)
//   settings         every other changed setting: the operator's choice and [U] values are
//                    disclosed with their value; [V]/[I] values changed from the spec fail as
//                    deviations
//   omitted          block sizes the device cannot do (disclosed)
//   completed        the test ran to its end
// A test is compliant when no clause fails; a run when every test is compliant and the run
// completed. summary: "compliant", "compliant: SS NOT ACHIEVED (disclosed)",
// "not compliant: shortened" or "not compliant".
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/pts/definitions.hpp>
#include <ptsuite/pts/settings.hpp>
#include <ptsuite/results/compliance.hpp>
#include <ptsuite/results/test_record.hpp>

namespace ptsuite::pts {

enum class ClauseStatus { pass, fail, disclosed, not_applicable };
const char* to_string(ClauseStatus status) noexcept;

struct ClauseVerdict {
  std::string clause;    // "purge", "steady_state", ...
  std::string title;     // "Purge method acceptable to the PTS"
  std::string spec_ref;  // "§2 Purge; §7 step 1"
  ClauseStatus status = ClauseStatus::pass;
  std::string detail;  // one line: what was found
};

struct ComplianceVerdict {
  bool compliant = false;
  bool shortened = false;
  std::string summary;               // see the contract above
  std::vector<std::string> reasons;  // the details of every failing clause
  std::vector<std::string> notes;    // prominent disclosures: every "SS NOT ACHIEVED"
  std::vector<ClauseVerdict> clauses;
};

// What a verdict is judged against besides the record.
struct ComplianceContext {
  const DefinitionSet& defs;
  const Settings& settings;
  std::string engine;  // RunConfig::engine
};

// `test_record` is a test's results.json record including its "write_cache" record and
// "status".
// Judged on the typed record (results/test_record.hpp); the JSON form reads it first.
ComplianceVerdict evaluate_test_compliance(const results::TestRecord& test_record, const ComplianceContext& ctx);
ComplianceVerdict evaluate_test_compliance(const nlohmann::json& test_record, const ComplianceContext& ctx);

// `tests` are the per-test verdicts; `run_status` "complete" or otherwise.
ComplianceVerdict evaluate_run_compliance(const std::vector<std::pair<std::string, ComplianceVerdict>>& tests,
                                          const std::string& run_status);

// JSON: results/compliance.hpp is the one writer (to_json writes record_of()).
results::ClauseRecord record_of(const ClauseVerdict& v);
results::ComplianceRecord record_of(const ComplianceVerdict& v);
void to_json(nlohmann::json& j, const ClauseVerdict& v);
void to_json(nlohmann::json& j, const ComplianceVerdict& v);

}  // namespace ptsuite::pts
