// Contract: a PTS run's results document (results.json, kind "ptsuite.results") as pts/run.cpp
// builds it while the run goes on: each part a typed record (results/run_header.hpp; the tests'
// records written by results/test_record.hpp's writer), or a sub-document written by the layer
// that owns its type (the run configuration: pts/run_config.hpp; the device identity, platform
// and throttle summary: device/). A finished test is held as the compact JSON text its record's
// writer made (not as nlohmann::json: a full-length run's records took ~10x their text's size
// in memory, docs/sim.md). dump_run_draft() is the one writer of the document's text, pts writes
// it after every test and at the end: the tests' texts spliced in, never parsed back, byte for
// byte what json(d).dump() gives (to_json() parses the tests' texts: for a caller that needs the
// document as json). read_run_draft() reads a document back for `ptsuite resume`,
// which continues it: every part reads exactly as written (a document read and written again is
// byte for byte the same; tests/unit/results/records_test.cpp, run_cli_test.cpp).
// Presence: "run", "target", "device", "platform", "plan", "preflight", "health", "write_cache",
// "compliance" and "simulation" only when set (a run's parts arrive as it goes); the rest always.
// The signature's "attestation" is no part of a run: `ptsuite sign` adds it to a finished
// document; a resumed document, or a from-runs validation built on a signed run, carries none.
// Plain data; not thread-safe; the writer copies every part.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/compliance.hpp>
#include <ptsuite/results/record_writers.hpp>
#include <ptsuite/results/run_header.hpp>
#include <ptsuite/results/simulation.hpp>

namespace ptsuite::results {

struct RunDraft {
  uint64_t schema_version = 0;
  std::string kind;  // "ptsuite.results"
  ToolRecord tool;
  SpecRecord spec;
  nlohmann::json config;  // pts::RunConfig as its writer wrote it
  std::vector<SettingRecord> settings;
  std::vector<ConventionRecord> conventions;
  std::optional<RunRecord> run;
  // The run's stop record's "partial_segment" (a stop by signal or IO error: the segment cut
  // short, may be null); nullopt when the stop has none. Written only with a stop_reason.
  std::optional<nlohmann::json> stop_partial_segment;
  std::optional<TargetRecord> target;
  nlohmann::json device;    // the device identity as device/ writes it; null until known
  nlohmann::json platform;  // device/platform.hpp's record; null until captured
  std::optional<PlanRecord> plan;
  nlohmann::json plan_assumptions;  // what the estimate assumed (pts/plan.hpp); null: none
  std::optional<std::vector<PreflightSession>> preflight;
  nlohmann::json throttle;  // "health"'s throttle summary (device/health.hpp); null: no health part
  std::optional<WriteCacheRecord> write_cache;
  std::vector<std::string> tests;  // each finished test's record: json(TestRecord).dump()
  std::optional<ComplianceRecord> compliance;
  std::optional<SimulationRecord> simulation;  // a run on a simulated drive (results/simulation.hpp)
};

void to_json(nlohmann::json& j, const RunDraft& d);
// The document's compact text, equal to json(d).dump() (results/run_draft_test.cpp): the header
// parts written as to_json writes them, the tests' texts copied in (each must be a JSON text).
std::string dump_run_draft(const RunDraft& d);
// Tolerant like every results reader: a part the document lacks stays unset.
RunDraft read_run_draft(const nlohmann::json& results);

}  // namespace ptsuite::results
