// Private: the run-one-workload path shared by `ptsuite workload` and `ptsuite demo`. It
// enforces the order that keeps bad input and refused targets from writing anything:
//   1. the JSON output path passes the output gate (device/output_gate.hpp: exit 2 naming the
//      option, exit 3 for a device node or a file that shares bytes with the target)
//   2. the target passes device::pass_target_gate() (exit 3; its lock is held to the end)
//   3. the target is opened (read-only when the workload only reads) and resolve() checks the
//      workload against its geometry (exit 2)
//   4. the run, under SIGINT/SIGTERM handlers and a progress line; then the summary, then the
//      JSON (atomically). Exit 0, 4 (an IO error stopped the run) or 130 (interrupted); the
//      results are written in every case.
#pragma once

#include <cstdint>
#include <string>

#include <ptsuite/workload/workload_spec.hpp>

namespace ptsuite::cli {

struct RunRequest {
  std::string target_path;
  workload::WorkloadSpec spec;
  std::string json_path;  // empty: no JSON file
  std::string json_option = "--json-out";
  bool json_stdout = false;  // --json: the JSON on stdout instead of the summary
  bool allow_destructive = false;
  bool quiet = false;
  std::string command = "workload";
  std::string target_note;  // e.g. the scratch target's description, recorded in the JSON
};

int execute_workload(const RunRequest& request);

// A fresh seed when the user gave none (recorded in the results, so the run can be repeated).
uint64_t random_seed();
// --seed: a decimal 64-bit number; UsageError naming --seed otherwise.
uint64_t parse_seed(const std::string& text);

}  // namespace ptsuite::cli
