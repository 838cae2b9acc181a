// Contract: the error tiers of ptsuite and the process exit codes they map to.
//
// Setup and configuration failures throw ptsuite::Error (or a subclass) carrying the exit
// code the process should end with; main() catches it, prints the one-line message and exits
// with that code. Nothing below main() calls exit(). The hot path never throws: engines and
// queues return negative errno values, and IO errors become data in the results.
//
// Exit codes (docs/exit-codes.md is the user-facing copy of this table):
//   0  success (for `steady-state`: attained; for `verify`: bundle intact)
//   1  completed, but the verdict is negative (`steady-state`: not attained; `verify`: the
//      bundle changed; `run --strict`: not compliant)
//   2  bad command line or input: unknown option, bad unit, value out of range, bad file
//   3  refused for safety: mounted / swap / holders / root device, missing consent flag
//   4  an IO error stopped the workload (what was measured is still written)
//   5  system or device failure outside the workload (open, ioctl, purge, resume mismatch)
//   75 a service ptsuite needs is unavailable for now (the history database cannot be reached,
//      or is locked past the wait): retry later (sysexits' EX_TEMPFAIL; `ptsuite fleet` jobs are
//      requeued on it)
//   130 interrupted by SIGINT/SIGTERM (what was measured is still written)
#pragma once

#include <stdexcept>
#include <string>

namespace ptsuite {

enum class ExitCode : int {
  success = 0,
  negative_verdict = 1,
  usage = 2,
  refused = 3,
  io_error = 4,
  system = 5,
  unavailable = 75,
  interrupted = 130,
};

// An error that ends the command. what() is a single line meant for the user: it says what
// is wrong and, where possible, what to do about it.
class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), m_code(code) {}
  [[nodiscard]] ExitCode code() const noexcept { return m_code; }

 private:
  ExitCode m_code;
};

// Bad input (exit 2). `option` names the offending option or field, e.g. "--block-size".
class UsageError : public Error {
 public:
  UsageError(const std::string& option, const std::string& problem)
      : Error(ExitCode::usage, option.empty() ? problem : option + ": " + problem) {}
};

// A destructive operation refused for safety (exit 3).
class SafetyRefusal : public Error {
 public:
  explicit SafetyRefusal(const std::string& reason) : Error(ExitCode::refused, reason) {}
};

// A service that may come back (exit 75): the history database is unreachable or busy. Retrying
// later can succeed, unlike bad input (2) or a refusal (3).
class Unavailable : public Error {
 public:
  explicit Unavailable(const std::string& message) : Error(ExitCode::unavailable, message) {}
};

// A system call or device failure outside the measured workload (exit 5).
class SystemError : public Error {
 public:
  explicit SystemError(const std::string& message) : Error(ExitCode::system, message) {}
  // "<what>: <strerror(errnum)>"
  SystemError(const std::string& what, int errnum);
};

// The refusal (exit 3) when root is denied a device: not file modes but something confining
// this process (a device cgroup, e.g. a Slurm job's ConstrainDevices, or a security module).
// Callers throw it for EPERM / EACCES when geteuid() == 0; below root, "needs root" is right.
SafetyRefusal device_denied_to_root(const std::string& path);

}  // namespace ptsuite
