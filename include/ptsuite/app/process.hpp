// Contract: the child processes of an application run: database servers and benchmark
// drivers, started with fork/exec (no shell), optionally as another user (the server's
// account: postgres refuses to run as root), in a cgroup (the memory budget: cgroup.hpp), in
// their own session (a Ctrl-C at the terminal reaches ptsuite only, which then stops them in
// order), with stdout and stderr in a file (opened by ptsuite's writer before fork(), so the
// child is handed a descriptor, never a path to open), and with a parent-death signal so that a killed
// ptsuite does not leave them running (servers get a clean-shutdown signal, drivers SIGKILL).
// Everything the child does between fork and exec is async-signal-safe (the capture thread may
// be running), so all strings and the group list are prepared before fork().
// Errors: SystemError naming the program; a missing program is a SystemError naming the
// Debian package from the spec. Not thread-safe.
#pragma once

#include <sys/types.h>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/util/output_file.hpp>

namespace ptsuite::app {

struct ProcessSpec {
  std::vector<std::string> argv;         // argv[0]: absolute path
  std::string user;                      // run as this account ("" = as ptsuite)
  std::string cgroup_procs;              // write the child's pid here before exec ("" = none)
  std::optional<OutputPath> output;      // stdout + stderr (appended; nullopt = /dev/null)
  std::string working_directory;         // "" = unchanged
  int death_signal = 9;                  // SIGKILL; servers: their clean-shutdown signal
  std::vector<std::string> environment;  // extra "NAME=value" entries
};

class ChildProcess {
 public:
  static ChildProcess spawn(const ProcessSpec& spec);
  ChildProcess() = default;
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  // Kills (SIGKILL) and reaps a child still running: the backstop of every error path.
  ~ChildProcess();

  [[nodiscard]] pid_t pid() const noexcept { return m_pid; }
  [[nodiscard]] bool running();
  void signal(int signum) const;
  // Waits for the exit; returns the exit status (128 + signal when killed). With timeout_ns
  // (0 = none) and on expiry: -1, the child still running. `stop` set: returns -2 at once.
  int wait(uint64_t timeout_ns = 0, const std::atomic<bool>* stop = nullptr);

 private:
  pid_t m_pid = -1;
  int m_status = -1;
};

struct CommandResult {
  int exit_code = 0;
  std::string output;  // stdout + stderr
};

// Runs to completion (or `timeout_ns`, or `stop`: then the child is killed) and returns its
// output, read back from `spec.output` (a file in a private temporary directory when none).
CommandResult run_command(ProcessSpec spec, uint64_t timeout_ns, const std::atomic<bool>* stop = nullptr);
// The same; throws SystemError with the command and the output's last lines unless it exits 0.
std::string run_checked(ProcessSpec spec, uint64_t timeout_ns, const std::atomic<bool>* stop = nullptr);

// The last `lines` lines of `text` (error messages quote the tail of a tool's output).
std::string tail_lines(const std::string& text, size_t lines);

}  // namespace ptsuite::app
