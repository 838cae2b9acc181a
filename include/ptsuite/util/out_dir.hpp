// Contract: the one check of the directory a command writes its documents into (`--out DIR` of
// run, validate, scenario run, app run, replay, capture, compare), made before anything is
// touched, and its creation:
//   * check_out_dir(): DIR must be new or empty, and creatable and writable by this process (a
//     probe directory is made and removed next to it); a DIR holding one of `rules.run_markers`
//     (a run of the same kind: its journal, results.json) is refused with `rules.holds_run`
//     (which names the command that continues it). Throws UsageError naming `rules.option`
//     (exit 2, nothing written). A non-empty DIR is refused because the run's manifest would
//     list files it did not write.
//   * create_out_dir(): creates DIR and its parents; UsageError naming the option when it cannot.
//   * default_out_dir(): "<prefix>-<UTC time>" ("ptsuite-run-2026-11-26T180000Z"), relative to the
//     working directory, for a command run without --out.
// Paths are taken as given; callers make them absolute once, at the edge. Thread-safe.
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

void check_out_dir(const std::filesystem::path& dir, const OutDirRules& rules = {});
void create_out_dir(const std::filesystem::path& dir, const std::string& option = "--out");
std::string default_out_dir(const std::string& prefix);

}  // namespace ptsuite
