#include <ptsuite/results/compliance.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

namespace {

// The strings of the array member `key` (anything else reads as its text, "" for non-scalars).
std::vector<std::string> read_strings(const nlohmann::json& j, std::string_view key) {
  std::vector<std::string> out;
  for (const nlohmann::json& s : array(j, key)) {
    out.push_back(str(s));
  }
  return out;
}

}  // namespace

void to_json(nlohmann::json& j, const ClauseRecord& c) {
  j = {{"clause", c.clause}, {"title", c.title}, {"spec_ref", c.spec_ref}, {"status", c.status}, {"detail", c.detail}};
}

void to_json(nlohmann::json& j, const ComplianceRecord& v) {
  j = {{"compliant", v.compliant}, {"shortened", v.shortened}, {"summary", v.summary},
       {"reasons", v.reasons},     {"notes", v.notes},         {"clauses", v.clauses}};
}

ComplianceRecord read_compliance(const nlohmann::json& compliance) {
  ComplianceRecord v;
  v.compliant = at(compliance, "compliant") == true;
  v.shortened = at(compliance, "shortened") == true;
  v.summary = str(compliance, "summary");
  v.reasons = read_strings(compliance, "reasons");
  v.notes = read_strings(compliance, "notes");
  for (const nlohmann::json& c : array(compliance, "clauses")) {
    v.clauses.push_back({str(c, "clause"), str(c, "title"), str(c, "spec_ref"), str(c, "status"), str(c, "detail")});
  }
  return v;
}

}  // namespace ptsuite::results
