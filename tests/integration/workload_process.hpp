// Test helper: runs the built ptsuite binary (PTSUITE_BINARY) as a child process with its
// stdout and stderr captured in files, optionally under a file-size limit (RLIMIT_FSIZE, to
// provoke EFBIG write errors without any special device), and lets a test signal it once its
// SIGINT handler is installed (read from /proc/<pid>/status, so no sleeping or timing).
#pragma once

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/temp_dir.hpp"

namespace ptsuite::workload::test {

struct ProcessResult {
  int exit_code = -1;  // -1 when killed by a signal
  int term_signal = 0;
  long max_rss_kib = 0;  // the child's peak RSS (wait4's ru_maxrss)
  uint64_t wall_ns = 0;  // fork to reap on the monotonic clock (immune to a wall-clock step)
  std::string out;
  std::string err;
};

struct ProcessOptions {
  uint64_t file_size_limit_bytes = 0;  // RLIMIT_FSIZE for the child; 0 = unchanged
  std::string working_directory{};     // empty = the test's
  std::string cgroup_procs{};          // a cgroup's cgroup.procs the child joins before exec; empty = none
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class Child {
 public:
  Child(const std::vector<std::string>& args, const ProcessOptions& options = {})
      : m_out(m_dir.file("stdout")), m_err(m_dir.file("stderr")) {
    std::vector<std::string> argv_storage{PTSUITE_BINARY};
    argv_storage.insert(argv_storage.end(), args.begin(), args.end());
    m_started = std::chrono::steady_clock::now();
    m_pid = ::fork();
    if (m_pid == 0) {
      const int out = ::open(m_out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err = ::open(m_err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(out, STDOUT_FILENO);
      ::dup2(err, STDERR_FILENO);
      if (!options.working_directory.empty() && ::chdir(options.working_directory.c_str()) != 0) {
        ::_exit(126);
      }
      if (!options.cgroup_procs.empty()) {  // e.g. an IO throttle (support/io_throttle.hpp)
        const int procs = ::open(options.cgroup_procs.c_str(), O_WRONLY);
        const std::string pid = std::to_string(::getpid());
        if (procs < 0 || ::write(procs, pid.data(), pid.size()) != static_cast<ssize_t>(pid.size())) ::_exit(125);
        ::close(procs);
      }
      if (options.file_size_limit_bytes != 0) {
        const rlimit limit{options.file_size_limit_bytes, options.file_size_limit_bytes};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        ::signal(SIGXFSZ, SIG_IGN);  // writes past the limit fail with EFBIG instead of killing
      }
      std::vector<char*> argv;
      for (std::string& a : argv_storage) {
        argv.push_back(a.data());
      }
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
  }
  ~Child() {
    if (m_pid > 0 && !m_reaped) {
      ::kill(m_pid, SIGKILL);
      ::waitpid(m_pid, nullptr, 0);
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  [[nodiscard]] pid_t pid() const noexcept { return m_pid; }
  // Where the child's stderr goes (a test may read it while the child runs).
  [[nodiscard]] const std::string& err_path() const noexcept { return m_err; }

  // Whether the child has installed a handler for `signum` (SigCgt in /proc/<pid>/status).
  [[nodiscard]] bool catches(int signum) const {
    std::ifstream status("/proc/" + std::to_string(m_pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
      if (line.rfind("SigCgt:", 0) == 0) {
        const unsigned long long mask = std::stoull(line.substr(7), nullptr, 16);
        return ((mask >> (signum - 1)) & 1ULL) != 0;
      }
    }
    return false;
  }

  // Whether the child has exited (without reaping it).
  [[nodiscard]] bool exited() const {
    siginfo_t info{};
    return ::waitid(P_PID, static_cast<id_t>(m_pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == m_pid;
  }

  ProcessResult wait() {
    int status = 0;
    rusage usage{};
    ::wait4(m_pid, &status, 0, &usage);
    m_reaped = true;
    ProcessResult r;
    r.max_rss_kib = usage.ru_maxrss;
    r.wall_ns = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - m_started).count());
    if (WIFEXITED(status)) {
      r.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
      r.term_signal = WTERMSIG(status);
    }
    r.out = slurp(m_out);
    r.err = slurp(m_err);
    return r;
  }

 private:
  test_support::ShmTempDir m_dir{"ptsuite-child"};
  std::string m_out;
  std::string m_err;
  pid_t m_pid = -1;
  bool m_reaped = false;
  std::chrono::steady_clock::time_point m_started{};
};

inline ProcessResult run_ptsuite(const std::vector<std::string>& args, const ProcessOptions& options = {}) {
  Child child(args, options);
  return child.wait();
}

// For tests that only look for text anywhere in what the command printed: the exit code and
// stdout followed by stderr.
struct CommandResult {
  int exit_code = -1;
  std::string output;
};

inline CommandResult run_ptsuite_merged(const std::vector<std::string>& args) {
  ProcessResult r = run_ptsuite(args);
  return {r.exit_code, std::move(r.out) + r.err};
}

}  // namespace ptsuite::workload::test
