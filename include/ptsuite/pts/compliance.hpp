// Contract: the per-clause compliance verdict of a test record and of a whole run, computed
// from the record and the settings (pure; stored in results.json; reports only render it).
//
// Clauses per test (status pass / fail / disclosed / not_applicable):
//   purge            every purge succeeded with a method the PTS accepts (fallbacks such as
//                    discard or zero-fill fail; NVMe Sanitize per purge.accept_nvme_sanitize)
//   preconditioning  WIPC wrote its full target at >= 2X user capacity (tests with WIPC)
//   durations        no segment duration, WIPC amount, pre-write length, limit or Round cap
//                    was shortened (a shortened run is "not compliant: shortened")
//   steady_state     every tracking variable of every phase attained steady state
//   active_range     the ActiveRange the profile requires
//   write_cache      the write-cache state the profile requires was set and verified
//   toio             TC/QD as used (operator's choice: disclosed, never a failure)
//   data_pattern     random data (zeros fail)
//   settings         every other changed setting: [U] values are disclosed; [V]/[I] values
//                    changed from the spec fail as deviations
//   omitted          block sizes the device cannot do (disclosed)
//   completed        the test ran to its end
// A test is compliant when no clause fails; a run when every test is compliant and the run
// completed.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/pts/settings.hpp>

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
  std::string summary;               // "compliant", "not compliant: shortened", "not compliant"
  std::vector<std::string> reasons;  // the details of every failing clause
  std::vector<ClauseVerdict> clauses;
};

// `test_record` is a test's results.json record including its "write_cache" record and
// "status". Settings are the run's.
ComplianceVerdict evaluate_test_compliance(const nlohmann::json& test_record, const Settings& settings);

// `tests` are the per-test verdicts; `run_status` "complete" or otherwise.
ComplianceVerdict evaluate_run_compliance(const std::vector<std::pair<std::string, ComplianceVerdict>>& tests,
                                          const std::string& run_status);

void to_json(nlohmann::json& j, const ClauseVerdict& v);
void to_json(nlohmann::json& j, const ComplianceVerdict& v);

}  // namespace ptsuite::pts
