// Contract: a compliance verdict as results.json records it, for one test ("compliance" in its
// record) and for the run (the document's "compliance"; results schema "#/$defs/
// test_compliance" and "run_compliance", docs/report.md): compliant or not, whether a spec
// duration was shortened, the one-line summary, the details of every failing clause
// (`reasons`), the prominent disclosures (`notes`: every "SS NOT ACHIEVED") and every clause
// with its title, spec reference, status ("pass", "fail", "disclosed", "not_applicable") and
// finding. pts judges (pts/compliance.hpp) and writes through to_json() here (record_of());
// reporters, history and cli read it with read_compliance(), tolerant like every results
// reader: a missing verdict reads as not compliant with an empty summary.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ptsuite::results {

struct ClauseRecord {
  std::string clause;    // "purge", "steady_state", ...
  std::string title;     // "Purge method acceptable to the PTS"
  std::string spec_ref;  // "§2 Purge; §7 step 1"
  std::string status;    // "pass", "fail", "disclosed", "not_applicable"
  std::string detail;    // one line: what was found
};

struct ComplianceRecord {
  bool compliant = false;
  bool shortened = false;
  std::string summary;
  std::vector<std::string> reasons;
  std::vector<std::string> notes;
  std::vector<ClauseRecord> clauses;
};

void to_json(nlohmann::json& j, const ClauseRecord& c);
void to_json(nlohmann::json& j, const ComplianceRecord& v);
ComplianceRecord read_compliance(const nlohmann::json& compliance);

}  // namespace ptsuite::results
