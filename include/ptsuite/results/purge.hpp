// Contract: a purge as results.json records it (results schema "#/$defs/purge_record", PTS
// 2.0.2 step 1): what was asked for and what ran, whether it is a PTS purge, its outcome,
// progress and messages - the device layer's purge record (device/purge.hpp record_of()) - and,
// when the purge is a step of a PTS test (a test record's "purges"), the step and phase it
// belongs to and the write-cache state set again after it (PTS step 2.1.1; the device layer's
// write-cache reapply record, kept as a sub-document). A purge skipped by purge.method=none is
// the short form: method "none", outcome "skipped", a description, step and phase.
// One writer (to_json: the device layer, the PTS step executor and `ptsuite device purge` all
// write through it) and one tolerant reader (read_purge / read_purges: missing text reads "",
// missing numbers 0, a missing fraction as "none reported").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/results/embedded.hpp>

namespace ptsuite::results {

struct PurgeProgressPoint {
  uint64_t elapsed_ms = 0;         // since the purge started
  std::optional<double> fraction;  // 0..1; nullopt when the device reports none
  std::string note;
};

struct PurgeRecord {
  std::string target;
  std::string device_model;
  std::string device_serial;
  std::string requested_method;  // the purge.method setting ("auto": the device layer chose)
  std::string method;            // the method that ran; "none": skipped (the short form)
  std::string description;       // what was sent, one line
  bool pts_compliant = false;    // false for secure-discard, discard and zero-fill
  std::string started_utc;
  std::string ended_utc;
  uint64_t duration_ns = 0;
  std::string outcome;  // "succeeded", "failed", "timed_out"; "skipped" in the short form
  std::vector<PurgeProgressPoint> progress;
  std::vector<std::string> messages;
  std::map<std::string, std::string> parameters;  // e.g. ses=1, lbaf=1
  // As a step of a PTS test (written when set):
  std::string step;                  // "iops/main/purge"
  std::string phase;                 // "main", a Throughput block size, a claims point id
  Embedded write_cache_after_purge;  // {requested_enabled, found_enabled, read_back}; null: none

  [[nodiscard]] bool skipped() const { return method == "none"; }
  [[nodiscard]] bool succeeded() const { return outcome == "succeeded"; }
};

void to_json(nlohmann::json& j, const PurgeRecord& r);
PurgeRecord read_purge(const nlohmann::json& purge);
// Every entry of a record's "purges" array, in order; empty unless an array.
std::vector<PurgeRecord> read_purges(const nlohmann::json& purges);

}  // namespace ptsuite::results
