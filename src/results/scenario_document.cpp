#include <ptsuite/results/scenario_document.hpp>

#include <utility>

#include <nlohmann/json.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

using nlohmann::json;

namespace {

ScenarioTarget read_target(const json& t) { return {str(at(t, "path")), read_drive_identity(t)}; }

ScenarioInfo read_info(const json& s) {
  ScenarioInfo i{str(at(s, "name")),
                 str(at(s, "title")),
                 str(at(s, "description")),
                 str(at(s, "reconstructs")),
                 str(at(s, "source_sha256")),
                 at(s, "quick") == true,
                 {}};
  for (const json& c : array(s, "ptsuite_choices")) {
    i.ptsuite_choices.push_back(str(c));
  }
  return i;
}

}  // namespace

ScenarioDocument read_scenario_document(nlohmann::json doc) {
  return read_scenario_document(std::make_shared<const json>(std::move(doc)));
}

ScenarioDocument read_scenario_document(std::shared_ptr<const nlohmann::json> doc) {
  ScenarioDocument d;
  d.source = std::move(doc);
  const json& j = *d.source;
  d.tool_version = str(at(j, {"tool", "version"}));
  d.tool_git_revision = str(at(j, {"tool", "git_revision"}));
  d.scenario = read_info(at(j, "scenario"));
  d.config = {str(at(j, {"config", "engine"})), str(at(j, {"config", "seed"})), str(at(j, {"config", "tested_by"}))};
  d.targets = read_each(at(j, "targets"), read_target);
  d.status = str(at(j, "status"));
  d.started_utc = str(at(j, "started_utc"));
  d.finished_utc = str(at(j, "finished_utc"));
  const json& signed_by = at(j, "attestation");
  if (signed_by.is_object()) {
    d.attestation = ScenarioAttestation{str(at(signed_by, "key_fingerprint")), str(at(signed_by, "signed_utc"))};
  }
  const nlohmann::json& compact = at(j, {"report", "compact"});
  d.report = {str(at(j, {"report", "series"})), counts32(at(j, {"report", "plot_targets"})),
              compact.is_boolean() && compact.get<bool>()};
  d.phases = read_phase_records(at(j, "phases"));
  d.has_scenario = at(j, "scenario").is_object() && at(j, "phases").is_array();
  return d;
}

ScenarioDocument borrow_scenario_document(const nlohmann::json& doc) {
  // The aliasing constructor with an empty owner: a pointer that never deletes.
  return read_scenario_document(std::shared_ptr<const json>(std::shared_ptr<const json>(), &doc));
}

}  // namespace ptsuite::results
