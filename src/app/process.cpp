// Child processes: fork/exec as a user, in a cgroup, output to a file (app/process.hpp).
#include <ptsuite/app/process.hpp>

#include <fcntl.h>
#include <fmt/format.h>
#include <grp.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>
#include <utility>

#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/command_line.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::app {

namespace {

struct Account {
  uid_t uid = 0;
  gid_t gid = 0;
  std::vector<gid_t> groups;
  std::string home;
};

Account account_of(const std::string& user) {
  passwd pw{};
  passwd* found = nullptr;
  std::vector<char> buf(16384);
  if (getpwnam_r(user.c_str(), &pw, buf.data(), buf.size(), &found) != 0 || found == nullptr) {
    throw SystemError(
        fmt::format("there is no user account \"{}\" (it comes with the database server's Debian "
                    "package)",
                    user));
  }
  Account a{pw.pw_uid, pw.pw_gid, {}, pw.pw_dir};
  int n = 64;
  a.groups.resize(static_cast<size_t>(n));
  if (getgrouplist(user.c_str(), pw.pw_gid, a.groups.data(), &n) < 0) {
    a.groups.resize(static_cast<size_t>(n));
    getgrouplist(user.c_str(), pw.pw_gid, a.groups.data(), &n);
  }
  a.groups.resize(static_cast<size_t>(n));
  return a;
}

// Async-signal-safe write of a whole buffer.
void write_all(int fd, const char* data, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, data, n);
    if (w <= 0) return;
    data += w;
    n -= static_cast<size_t>(w);
  }
}

[[noreturn]] void child_fail(int report_fd, const char* what) {
  const int err = errno;
  write_all(report_fd, reinterpret_cast<const char*>(&err), sizeof(err));
  write_all(report_fd, what, std::strlen(what));
  _exit(127);
}

// Between fork and exec: only async-signal-safe calls on prepared data.
[[noreturn]] void exec_child(const ProcessSpec& spec, const Account* account, char* const* argv, char* const* envp,
                             int output_fd, int report_fd, pid_t parent) {
  ::setsid();
  if (!spec.cgroup_procs.empty()) {
    const int fd = ::open(spec.cgroup_procs.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0 || ::write(fd, "0", 1) != 1) child_fail(report_fd, "joining the memory cgroup");
    ::close(fd);
  }
  const int out = output_fd >= 0 ? output_fd : ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  const int in = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (out < 0 || in < 0 || ::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(out, 2) < 0) {
    child_fail(report_fd, "redirecting output");
  }
  if (account != nullptr) {
    if (::setgroups(account->groups.size(), account->groups.data()) != 0 || ::setgid(account->gid) != 0 ||
        ::setuid(account->uid) != 0) {
      child_fail(report_fd, "switching user");
    }
  }
  // After the user switch: the kernel clears the parent-death signal when the effective user or
  // group changes (prctl(2)), so set before it, a killed ptsuite would leave the server running.
  // A parent that died before this line is caught by the getppid() check.
  if (::prctl(PR_SET_PDEATHSIG, spec.death_signal) != 0) child_fail(report_fd, "setting the parent-death signal");
  if (::getppid() != parent) _exit(128 + spec.death_signal);
  if (!spec.working_directory.empty() && ::chdir(spec.working_directory.c_str()) != 0) {
    child_fail(report_fd, "changing directory");
  }
  ::execve(argv[0], argv, envp);
  child_fail(report_fd, "exec");
}

}  // namespace

ChildProcess ChildProcess::spawn(const ProcessSpec& spec) {
  if (spec.argv.empty() || ::access(spec.argv[0].c_str(), X_OK) != 0) {
    throw SystemError(fmt::format("{} is not installed or not executable", spec.argv.empty() ? "?" : spec.argv[0]));
  }
  std::optional<Account> account;
  if (!spec.user.empty()) account = account_of(spec.user);
  const std::optional<AppendFile> output =
      spec.output ? std::optional<AppendFile>(AppendFile::open(*spec.output)) : std::nullopt;
  std::vector<char*> argv;
  for (const std::string& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // A small, fixed environment: the host's (PGHOST, MYSQL_*, LD_PRELOAD ...) must not steer
  // the servers or drivers.
  std::vector<std::string> env = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", "TZ=UTC",
                                  "HOME=" + (account ? account->home : std::string("/root"))};
  env.insert(env.end(), spec.environment.begin(), spec.environment.end());
  std::vector<char*> envp;
  for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) throw SystemError("pipe2", errno);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int err = errno;
    ::close(report[0]);
    ::close(report[1]);
    throw SystemError(fmt::format("starting {}", spec.argv[0]), err);
  }
  if (pid == 0) {
    ::close(report[0]);
    exec_child(spec, account ? &*account : nullptr, argv.data(), envp.data(), output ? output->fd() : -1, report[1],
               parent);
  }
  ::close(report[1]);
  char buf[256] = {};
  const ssize_t n = ::read(report[0], buf, sizeof(buf) - 1);
  ::close(report[0]);
  ChildProcess child;
  child.m_pid = pid;
  if (n > static_cast<ssize_t>(sizeof(int))) {  // the exec failed: the child said why
    int err = 0;
    std::memcpy(&err, buf, sizeof(err));
    child.wait();
    throw SystemError(fmt::format("starting {}: {}", spec.argv[0], std::string(buf + sizeof(int))), err);
  }
  return child;
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : m_pid(std::exchange(other.m_pid, -1)), m_status(other.m_status) {}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this != &other) {
    if (m_pid > 0 && running()) {
      ::kill(m_pid, SIGKILL);
      wait();
    }
    m_pid = std::exchange(other.m_pid, -1);
    m_status = other.m_status;
  }
  return *this;
}

ChildProcess::~ChildProcess() {
  if (m_pid > 0 && running()) {
    ::kill(m_pid, SIGKILL);
    wait();
  }
}

bool ChildProcess::running() {
  if (m_pid <= 0) return false;
  int status = 0;
  const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
  if (r == m_pid) {
    m_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    m_pid = -1;
    return false;
  }
  return r == 0;
}

void ChildProcess::signal(int signum) const {
  if (m_pid > 0) ::kill(m_pid, signum);
}

int ChildProcess::wait(uint64_t timeout_ns, const std::atomic<bool>* stop) {
  const uint64_t start = monotonic_ns();
  while (running()) {
    if (stop != nullptr && stop->load()) return -2;
    if (timeout_ns != 0 && monotonic_ns() - start >= timeout_ns) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return m_status;
}

CommandResult run_command(ProcessSpec spec, uint64_t timeout_ns, const std::atomic<bool>* stop) {
  std::optional<PrivateDir> temp;
  if (!spec.output) {
    const char* base = std::getenv("TMPDIR");
    temp.emplace(PrivateDir::create(base != nullptr && *base != '\0' ? base : "/tmp", "ptsuite-app-out-"));
    spec.output = temp->dir().file("output");
  }
  const std::filesystem::path& path = spec.output->path();
  std::error_code ec;
  const auto start_size = std::filesystem::exists(path, ec) ? std::filesystem::file_size(path, ec) : 0;
  ChildProcess child = ChildProcess::spawn(spec);
  CommandResult r;
  r.exit_code = child.wait(timeout_ns, stop);
  if (r.exit_code < 0) {
    child.signal(SIGKILL);
    child.wait();
  }
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(start_size));
  std::ostringstream text;
  text << in.rdbuf();
  r.output = text.str();
  return r;
}

std::string run_checked(ProcessSpec spec, uint64_t timeout_ns, const std::atomic<bool>* stop) {
  const std::string program = spec.argv.empty() ? "?" : spec.argv[0];
  const std::string line = join_command_line(spec.argv);
  CommandResult r = run_command(std::move(spec), timeout_ns, stop);
  if (r.exit_code == -2) throw Error(ExitCode::interrupted, fmt::format("interrupted while running {}", program));
  if (r.exit_code != 0) {
    throw SystemError(fmt::format("{} failed ({}): {}", line,
                                  r.exit_code == -1 ? std::string("timed out") : fmt::format("exit {}", r.exit_code),
                                  tail_lines(r.output, 3)));
  }
  return r.output;
}

std::string tail_lines(const std::string& text, size_t lines) {
  size_t end = text.size();
  while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == ' ')) --end;
  size_t pos = end;
  for (size_t n = 0; n < lines && pos > 0; ++n) {
    const size_t nl = text.rfind('\n', pos - 1);
    if (nl == std::string::npos) {
      pos = 0;
      break;
    }
    pos = nl;
  }
  std::string out = text.substr(pos == 0 ? 0 : pos + 1, end - (pos == 0 ? 0 : pos + 1));
  for (char& c : out) {
    if (c == '\n') c = ' ';  // one line for an error message
  }
  return out;
}

}  // namespace ptsuite::app
