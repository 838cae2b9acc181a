// Contract: what the results history stores about one run (docs/history.md), and how it is
// read from a run directory. record_from_run_dir(dir) reads dir/results.json (the run's one
// source of truth), the bundle manifest and the signature file when present; it never writes.
//
// Stored per run: a stable run id (run_uid: the same run added again, e.g. after `resume` or
// `sign`, updates its record instead of adding another), the directory, dates and status, the
// device (vendor, model, serial, firmware, transport, capacity), spec revision and profile, the
// tests in run order, run compliance, tested-by, tool version and revision, the manifest's
// self-checksum, the signing key's fingerprint and signing time (when signed), and the number
// of host-preflight warnings. Per test: its compliance, a steady-state verdict per phase, and
// headline metrics (headline_metrics() below) with units in their names.
//
// Errors: UsageError (exit 2) when dir holds no readable ptsuite results document.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <ptsuite/util/labels.hpp>
#include <ptsuite/util/output_file.hpp>

// Declared only: the typed records are large; only the .cpp files need their definitions.
namespace ptsuite::results {
struct RunDocument;
struct TestRecord;
struct ScenarioDocument;  // results/scenario_document.hpp
struct Document;          // results/document.hpp
struct AppRun;
struct ReplayRecord;
struct IoCharacterization;
}  // namespace ptsuite::results

namespace ptsuite::history {

struct Metric {
  std::string test_id;
  std::string name;  // e.g. "rnd_4KiB_read_iops", "seq_1MiB_write_mb_per_s", "rnd_4KiB_read_p99_999_ns"
  double value = 0;
  std::string unit;  // "IOPS", "MB/s", "ns", "drive fills"
};

struct TestSummary {
  std::string test_id;
  bool compliant = false;
  std::string compliance_summary;
  std::string steady_state;  // "main: attained at Round 6", "1MiB: NOT attained (25 Rounds)"; "n/a"
};

struct RunRecord {
  int64_t id = 0;  // assigned by the store; 0 before it is added
  // results.run.run_uid (drawn when the run started: the medium, the host and a random nonce);
  // for documents of earlier versions, SHA-256 of start time, plan fingerprint and serial.
  std::string run_uid;
  std::string run_dir;  // absolute
  std::string added_utc, updated_utc;
  std::string started_utc, finished_utc;
  std::string status;  // results.run.status
  // device_serial: the serial the device reports, else its asset serial (--asset-serial).
  std::string device_vendor, device_model, device_serial, device_firmware, device_transport;
  std::optional<uint64_t> capacity_bytes;
  std::string spec_revision, spec_profile;
  std::vector<std::string> tests;  // ids in run order
  bool compliant = false;
  std::string compliance_summary;
  std::string tested_by;
  std::string tool_version, tool_git_revision;
  std::string manifest_sha256;        // empty when the run has no manifest
  std::string signature_fingerprint;  // empty when not signed
  std::string signed_utc;
  std::optional<int64_t> preflight_warnings;  // null for runs without a preflight record
  std::string host;                           // results.run.host; "" for earlier documents
  Labels labels;                              // results.config.labels
  bool bundle_stored = false;                 // the history holds the run's bundle (store.hpp)
  bool simulated = false;                     // results.json has "simulation": a simulated drive's run
  std::vector<TestSummary> test_summaries;
  std::vector<Metric> metrics;
};

// One file of a run's bundle as the history keeps it (history add --bundle): every file its
// manifest lists, the manifest itself and the signature when there is one.
struct BundleFile {
  std::string path;  // relative, '/'-separated
  uint64_t size_bytes = 0;
  std::string sha256;
  std::string content;  // the bytes
};

// The bundle of `dir`: UsageError when it has no manifest (a run that never finished writing
// one) or no longer matches it (`ptsuite verify DIR` names the change).
std::vector<BundleFile> read_bundle_files(const std::filesystem::path& dir);
// Writes `files` into `dir` (created; the output gate refused an existing non-empty one),
// each path checked to stay inside it and each content against its SHA-256 (a mismatch is a
// SystemError: the stored bundle is damaged). `ptsuite verify dir` then checks the manifest.
void write_bundle_files(const std::vector<BundleFile>& files, const OutputDir& dir);

// `check` (optional) sees the parsed results document first and throws to refuse it (the cli
// passes the report's own document check, so history accepts exactly what `report` does).
RunRecord record_from_run_dir(const std::filesystem::path& dir,
                              const std::function<void(const nlohmann::json&, const std::string&)>& check = {});
// The same from a parsed document of any kind the history keeps (`dir` is recorded as the run
// directory), read once into its typed document.
RunRecord record_from_results(nlohmann::json results, const std::filesystem::path& dir);
// The record of a typed document of a kind the history keeps (results/document_kinds.def,
// history = true), with the manifest's checksum and the signer read from `dir` (the document
// is not read again). UsageError naming `dir` for a kind that is not a run (a comparison).
// One record_from_<kind>() per kind:
RunRecord record_of(const results::Document& doc, const std::filesystem::path& dir);
RunRecord record_from_document(const results::RunDocument& doc, const std::filesystem::path& dir);
// A scenario run ("ptsuite.scenario"): device = target 0, spec revision "scenario NAME", profile
// its form, the measured phases as tests with their last step's aggregate IOPS, MB/s and
// response times (mean, stddev, 99 / 99.9 %, max) as metrics; never compliant (no verdict).
RunRecord record_from_scenario(const results::ScenarioDocument& doc, const std::filesystem::path& dir);
// An application run ("ptsuite.app_run"): device = instance 0's drive, spec revision "app NAME",
// profile its form, the application as the test with TPS / QPS and transaction latency (mean,
// 99 / 99.9 %, max) in aggregate and the device's IOPS / MB/s from the capture as metrics.
RunRecord record_from_app_run(const results::AppRun& run, const std::filesystem::path& dir);
// A replay ("ptsuite.replay"): device = the target's drive, spec revision "replay CAPTURE",
// profile its mode and speed, the replay as the test with the replayed IOPS, MB/s, the issue-time
// error (p50 / p99 / max) and the steps that could not keep up as metrics.
RunRecord record_from_replay(const results::ReplayRecord& replay, const std::filesystem::path& dir);
// A capture's characterization ("ptsuite.capture_characterization"): device = the captured
// device, spec revision "capture", the capture as the test with its IOPS, MB/s, queue depth and
// latency (mean, 50 / 99 / 99.9 %, max) as metrics.
RunRecord record_from_capture(const results::IoCharacterization& c, const std::filesystem::path& dir);

// The headline numbers of one test record (results.json tests[]): IOPS / Latency at 4 KiB for
// 100/0, 65/35 and 0/100 (IOPS; mean, 99.999 % and max response time), Throughput per block
// size (read and write MB/s), WSAT's final sample (IOPS, mean response time, drive fills), CBW's
// max/mid/min operating points (IOPS, mean response time). Missing cells are left out.
std::vector<Metric> headline_metrics(const results::TestRecord& test);

// The JSON form `history list/show --json` and `history export --format json` print: every
// stored field under its RunRecord name (absent optionals as null); tests with their
// compliance, steady state and, when `with_metrics`, their metrics (name, value, unit).
nlohmann::json run_record_json(const RunRecord& r, bool with_metrics);

}  // namespace ptsuite::history
