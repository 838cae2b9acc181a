// Contract: the capture a replay reads, from what a user names (docs/replay.md, "Imports"):
//   * a built-in reference capture: "pgbench" or "sysbench" (pts/captures/<name>.ptcap, embedded;
//     "captures/pgbench.ptcap" names the same) - a file of such a name is given as ./pgbench;
//   * a ptsuite capture file (.ptcap);
//   * an fio iolog (v2/v3) or blktrace binary file(s) (the per-CPU files of one blktrace),
//     imported once into a temporary capture file in a private directory this process makes
//     under $TMPDIR (or /tmp: util/output_file.hpp's PrivateDir), removed by the destructor
//     (capture/trace_import.hpp).
// open() gives a new reader each call (one per concurrent replay: a reader is one thread's).
// The constructor throws UsageError("capture", ...) naming the input and what to give when it
// is none of these; importers' errors pass through. Used by `ptsuite replay` and by scenario
// replay phases (scenario/scenario_runner.hpp).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/capture/capture_file.hpp>
#include <ptsuite/capture/trace_import.hpp>

namespace ptsuite::replay {

// The built-in captures' short names ("pgbench", "sysbench"), from the embedded pts/captures/.
std::vector<std::string> builtin_captures();
// The embedded path ("captures/pgbench.ptcap") of a built-in name or path; "" when it is not one.
std::string builtin_capture_path(const std::string& name);

class ReplaySource {
 public:
  explicit ReplaySource(const std::vector<std::string>& inputs);
  ~ReplaySource();
  ReplaySource(const ReplaySource&) = delete;
  ReplaySource& operator=(const ReplaySource&) = delete;

  [[nodiscard]] std::unique_ptr<capture::CaptureReader> open() const;
  // What a record names as its capture file: the built-in's embedded path, the file as given
  // ("+N files" for several blktrace files).
  [[nodiscard]] const std::string& name() const { return m_name; }
  [[nodiscard]] bool imported() const { return m_temporary; }
  [[nodiscard]] const capture::ImportSummary& summary() const { return m_summary; }

 private:
  std::string m_name;
  std::string m_path;      // the capture file read (the import's temporary file); "" for a built-in
  std::string m_embedded;  // the built-in's embedded path
  bool m_temporary = false;
  std::optional<PrivateDir> m_import_dir;  // holds the import's capture file
  capture::ImportSummary m_summary;
};

}  // namespace ptsuite::replay
