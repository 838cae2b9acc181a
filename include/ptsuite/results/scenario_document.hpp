// Contract: a whole scenario results document (kind "ptsuite.scenario",
// pts/schema/scenario-results.schema.json; docs/scenarios.md) as typed records, read once:
// the header (tool, scenario, config, targets, status, times, attestation, report options) and
// the phases (results/scenario.hpp: steps, instances, summaries). The scenario report, its CSV
// and text, `compare` and the history take a ScenarioDocument, never the JSON tree.
// Tolerant like every results reader (results/json_read.hpp): a missing or mistyped member
// reads as "" / nullopt / empty. Text fields hold the member as str() spells it (a number seed
// is "42"). The document owns the parsed tree its phases' Embedded members borrow from, so it is
// self-contained and cheap to move.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <ptsuite/results/drive_identity.hpp>
#include <ptsuite/results/scenario.hpp>

namespace ptsuite::results {

// One target as the run identified it: its path and the drive behind it (identity members are
// nullopt when the run did not know them: JSON null or absent).
struct ScenarioTarget {
  std::string path;
  DriveIdentity identity;
};

// The "scenario" member: which scenario ran and in which form.
struct ScenarioInfo {
  std::string name;
  std::string title;
  std::string description;
  std::string reconstructs;
  std::string source_sha256;
  bool quick = false;  // true only when the document says true
  std::vector<std::string> ptsuite_choices;
};

struct ScenarioConfig {
  std::string engine;
  std::string seed;  // as text ("42")
  std::string tested_by;
};

struct ScenarioAttestation {
  std::string key_fingerprint;
  std::string signed_utc;
};

// The "report" member: the series the report draws (scenario_report.hpp), as written.
struct ScenarioReportRecord {
  std::string series;  // "" when absent
  std::vector<uint32_t> plot_targets;
  bool compact = false;  // aggregate-only tables (absent: false)
};

struct ScenarioDocument {
  std::shared_ptr<const nlohmann::json> source;  // the parsed tree (owned; phases borrow from it)
  std::string tool_version;
  std::string tool_git_revision;
  ScenarioInfo scenario;
  ScenarioConfig config;
  std::vector<ScenarioTarget> targets;
  std::string status;
  std::string started_utc;
  std::string finished_utc;
  std::optional<ScenarioAttestation> attestation;  // present when "attestation" is an object
  ScenarioReportRecord report;
  std::vector<PhaseRecord> phases;
  bool has_scenario = false;  // "scenario" is an object and "phases" an array (a complete document)
};

ScenarioDocument read_scenario_document(nlohmann::json doc);
ScenarioDocument read_scenario_document(std::shared_ptr<const nlohmann::json> doc);
// The same without copying or owning `doc`, which must outlive the result (`source` is non-owning).
ScenarioDocument borrow_scenario_document(const nlohmann::json& doc);

}  // namespace ptsuite::results
