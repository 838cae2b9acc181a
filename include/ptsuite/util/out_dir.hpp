// Contract: what the one check of a run's output directory adds to the output gate
// (device/output_gate.hpp's directory(DIR, option, must_be_empty), which refuses a non-empty,
// uncreatable or unwritable DIR, a device node and a target's storage before anything is touched;
// OutputDir::create() makes it). Every command that writes a run directory (`--out DIR` of run,
// validate, scenario run, app run, replay, capture, compare, demo) asks, in this order:
//   * check_run_markers(): a DIR holding one of `rules.run_markers` (a run of the same kind: its
//     journal, results.json) is refused with `rules.holds_run` (which names the command that
//     continues it) rather than with the gate's "not empty". UsageError naming `rules.option`
//     (exit 2, nothing written).
//   * default_out_dir(): "<prefix>-<UTC time>" ("ptsuite-run-2026-11-26T180000Z"), relative to the
//     working directory, for a command run without --out.
// Reads only; creates nothing. Thread-safe.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ptsuite {

struct OutDirRules {
  std::string option = "--out";
  std::vector<std::string> run_markers;  // relative to DIR: "journal/run.json"
  std::string holds_run;                 // the message when a marker is there
};

void check_run_markers(const std::filesystem::path& dir, const OutDirRules& rules);
std::string default_out_dir(const std::string& prefix);

}  // namespace ptsuite
