// Contract: `ptsuite validate --claims SHEET RUN_DIR...`: a sheet's claims judged on runs that
// already exist, without touching a device. Pure (the cli reads the files).
//   * Source points: every point of a "claims" record (an earlier `ptsuite validate`), and
//     every template segment of every steady-state phase of a PTS test record (IOPS,
//     Throughput, Latency, ...) that has one block size and no LBA zones: its conditions are
//     the segment's pattern, block size, R/W mix, TC, QD, state steady_state and the record's
//     ActiveRange; its values are the phase's measurement-window aggregate (the PTS reported
//     value). PTS phases are never FOB: a FOB claim is covered only by a FOB claims point.
//   * A claim is covered by the first source point (runs in the order given) with exactly its
//     conditions; otherwise it is "not covered", and the reason names the nearest point that
//     differs only in TC/QD or ActiveRange, if any.
//   * results_from_runs() builds the whole results document (kind ptsuite.results) of such a
//     validation: the first source's device, platform and spec, one "claims" test record whose
//     validation block has mode "from-runs", each point's source (run directory, test, phase,
//     SHA-256 of that results.json), and a compliance verdict with one clause per source run
//     (its own verdict: claims judged on a non-compliant run inherit that).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/pts/claims.hpp>

namespace ptsuite::pts {

struct SourceRun {
  std::string dir;
  nlohmann::json results;      // its results.json
  std::string results_sha256;  // of that file, as read
};

// The "validation" block (claims.hpp validation_block) judged on `runs`.
results::ValidationBlock validation_from_runs(const ClaimSheet& sheet, const std::vector<SourceRun>& runs);

// What the command line adds to the document's config (the first source's config, with tests
// ["claims"], mode "from-runs" and these).
struct FromRunsInputs {
  nlohmann::json sheet;  // as given
  std::string claims_path;
  std::vector<std::string> command_line;
  std::string tested_by;
  std::string out_dir;
  std::vector<std::string> report_formats;
  std::string created_utc;
};

// The results document of a from-runs validation. Throws UsageError when `runs` is empty or a
// document is not a ptsuite results document.
nlohmann::json results_from_runs(const ClaimSheet& sheet, const std::vector<SourceRun>& runs,
                                 const FromRunsInputs& inputs);

}  // namespace ptsuite::pts
