// Private: what `ptsuite workload` and `ptsuite demo` print for people. ProgressLine rewrites
// one status line on stderr while a run is going (only when stderr is a terminal);
// print_summary() writes the end-of-run table to `out`. Machine-readable results go to the
// JSON file, never here.
#pragma once

#include <cstdio>
#include <string>

#include <ptsuite/engine/target.hpp>
#include <ptsuite/workload/stall_detector.hpp>
#include <ptsuite/workload/workload_runner.hpp>
#include <ptsuite/workload/workload_spec.hpp>

namespace ptsuite::cli {

class ProgressLine {
 public:
  // Draws only when `enabled` and stderr is a TTY.
  explicit ProgressLine(bool enabled);
  ~ProgressLine() { clear(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // "  12.0s / 30.0s  remaining 18.0s  245.3k IOPS  1004.7 MB/s"; and, terminal or not,
  // a stall warning line (stall_warning()) at most every k_stall_warning_ns while stalled.
  void update(const workload::Progress& progress);
  void clear();  // erases the line, if one was drawn

 private:
  bool m_enabled = false;
  bool m_warn = false;
  bool m_drawn = false;
  uint64_t m_warned_at_ns = 0;  // elapsed_ns of the last stall warning
};

// The warning printed while no IO completes, e.g. "ptsuite: no IO has completed for 12.0s
// (the device may be hung; IO in flight cannot be abandoned, waiting)". Empty below the
// threshold of workload/stall_detector.hpp.
std::string stall_warning(uint64_t stalled_ns);

// Whether a new stall warning is due: stalled past the threshold, and none printed within the
// last threshold's worth of time.
bool stall_warning_due(uint64_t stalled_ns, uint64_t elapsed_ns, uint64_t last_warning_elapsed_ns);

// "  12.0s / 30.0s  remaining 18.0s  245.3k IOPS  1004.7 MB/s" (pure; used by ProgressLine).
std::string format_progress(const workload::Progress& progress);

void print_summary(std::FILE* out, const workload::ResolvedWorkload& workload, const engine::Target& target,
                   const workload::WorkloadResult& result);

// One line describing the first IO error, e.g. "write of 4KiB at offset 4194304 failed:
// File too large (1 error)".
std::string describe_io_error(const workload::WorkloadResult& result);

}  // namespace ptsuite::cli
