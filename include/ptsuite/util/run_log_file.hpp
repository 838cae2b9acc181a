// Contract: DIR/run.log of every kind of run (PTS run / resume / validate, scenario, app run,
// replay, capture): one UTC-timestamped line per event, appended across sessions, each line
// flushed as it is written (a kill -9 loses nothing logged):
//   2026-11-21T21:31:38.412Z info    [1/5] IOPS (iops)
//   2026-11-21T21:31:40.007Z warning no IO has completed for 10 s in ...
// The runners write their events through it (pts::RunLog wraps it as a run observer); the run's
// ending (lifecycle/finish_run.hpp) appends the reports written and the final status, then
// closes it before the bundle manifest is written, so the manifest covers the whole log.
// Lines after close() are dropped. Thread-safe (an app run logs from one thread per instance).
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

#include <ptsuite/util/output_file.hpp>

namespace spdlog {
class logger;
}

namespace ptsuite {

inline constexpr const char* k_run_log_file = "run.log";

class RunLogFile {
 public:
  // Opens (appends to) `file` through the one writer (util/output_file.hpp's AppendFile: a
  // token of the output gate, e.g. the run directory's OutputDir::file("run.log")); throws
  // SystemError naming it when it cannot be opened, SafetyRefusal when it is not a regular file.
  explicit RunLogFile(const OutputPath& file);
  ~RunLogFile();
  RunLogFile(const RunLogFile&) = delete;
  RunLogFile& operator=(const RunLogFile&) = delete;

  void info(const std::string& text);
  void warning(const std::string& text);
  void close();
  [[nodiscard]] bool is_open() const;

 private:
  mutable std::mutex m_mutex;
  std::shared_ptr<spdlog::logger> m_logger;
};

}  // namespace ptsuite
