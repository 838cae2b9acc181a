// Contract: everything that defines a `ptsuite run`, as plain data with a JSON form. The run
// directory's journal/run.json stores it, and `ptsuite resume DIR` rebuilds the run from it
// (so a resume cannot silently change what is being measured).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/run_header.hpp>
#include <ptsuite/util/labels.hpp>

namespace ptsuite::pts {

struct RunConfig {
  std::vector<std::string> tests;  // canonical ids, in run order
  std::string revision = "2.0.2";
  std::string profile = "enterprise";
  std::vector<std::string> presets;                            // e.g. {"quick"}
  std::vector<std::pair<std::string, std::string>> overrides;  // --set NAME=VALUE
  // Empty: a scratch target. "serial:SERIAL": the drive with that serial, found again at every
  // start and resume (device/target_spec.hpp).
  std::string target;
  uint64_t scratch_size_bytes = uint64_t{1} << 30;
  std::string out_dir;
  uint64_t seed = 1;
  std::string engine = "libaio";
  bool allow_destructive = false;
  std::optional<std::string> confirm_serial;
  bool strict = false;                      // exit 1 when the run is not compliant
  bool strict_preflight = false;            // refuse to start on a preflight warning (exit 3)
  std::vector<std::string> report_formats;  // written at the end of the run
  std::vector<std::string> command_line;
  std::string tested_by;     // the test sponsor / lab, for the report header
  nlohmann::json claims;     // `ptsuite validate`: the spec sheet (SpecContext::claims); null otherwise
  std::string claims_path;   // where the sheet was read from (disclosure only)
  Labels labels;             // --label key=value (util/labels.hpp)
  std::string asset_serial;  // --asset-serial: the serial of a device that reports none
};

// "iops,throughput" / "all" -> canonical ids in the order given ("all" = the five core tests);
// aliases tp/lat accepted; duplicates and unknown names are UsageErrors.
std::vector<std::string> parse_test_list(const std::string& text);

// Whether `revision` has test `id` (pts/tests/<id>.json "revisions"; absent = every revision).
bool test_in_revision(const std::string& id, const std::string& revision);

// The tests as `revision` runs them: a test the revision replaces (its file's "replaced_by":
// PTS-E 1.1 runs ECW in place of CBW) becomes its replacement (once); a test `revision` does
// not have is a UsageError naming the one it has instead.
std::vector<std::string> tests_for_revision(const std::vector<std::string>& tests, const std::string& revision);

// The configuration as results.json records it (results::RunConfigRecord, written by its writer
// in src/results); to_json() writes that record.
results::RunConfigRecord config_record(const RunConfig& config);
void to_json(nlohmann::json& j, const RunConfig& config);
void from_json(const nlohmann::json& j, RunConfig& config);

}  // namespace ptsuite::pts
