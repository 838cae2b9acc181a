// Running a helper program with pipes (util/subprocess.hpp).
#include <ptsuite/util/subprocess.hpp>

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>

#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/fd.hpp>

extern char** environ;

namespace ptsuite {

namespace {

struct Pipe {
  UniqueFd read_end, write_end;
};

Pipe make_pipe() {
  std::array<int, 2> fds{};
  if (::pipe2(fds.data(), O_CLOEXEC) != 0) throw SystemError("pipe2", errno);
  return {UniqueFd(fds[0]), UniqueFd(fds[1])};
}

pid_t spawn(const std::vector<std::string>& argv, const std::vector<std::string>& environment, Pipe& in, Pipe& out,
            Pipe& err) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.read_end.get(), STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out.write_end.get(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err.write_end.get(), STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> env_storage;
  for (char** e = environ; *e != nullptr; ++e) env_storage.emplace_back(*e);
  for (const std::string& e : environment) env_storage.push_back(e);
  std::vector<char*> env;
  for (std::string& e : env_storage) env.push_back(e.data());
  env.push_back(nullptr);
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, argv[0].c_str(), &actions, nullptr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    throw SystemError(fmt::format("cannot run {}{}", argv[0], rc == ENOENT ? " (not installed, or not in PATH)" : ""),
                      rc);
  }
  return pid;
}

// Moves data until both output pipes close or the deadline passes; returns false on timeout.
bool pump(const std::string& input, UniqueFd& to_child, UniqueFd& out_fd, UniqueFd& err_fd, ProgramResult& r,
          uint64_t deadline_ns) {
  size_t written = 0;
  if (input.empty()) to_child.reset();
  std::array<char, 65536> buffer{};
  while (out_fd.valid() || err_fd.valid()) {
    std::array<pollfd, 3> fds{};
    nfds_t n = 0;
    for (UniqueFd* fd : {&out_fd, &err_fd}) {
      if (fd->valid()) fds[n++] = {fd->get(), POLLIN, 0};
    }
    if (to_child.valid()) fds[n++] = {to_child.get(), POLLOUT, 0};
    const uint64_t now = monotonic_ns();
    if (now >= deadline_ns) return false;
    const int ready =
        ::poll(fds.data(), n, static_cast<int>(std::min<uint64_t>((deadline_ns - now) / 1000000 + 1, 1000)));
    if (ready < 0 && errno != EINTR) throw SystemError("poll", errno);
    for (nfds_t i = 0; i < n && ready > 0; ++i) {
      if (fds[i].revents == 0) continue;
      if (to_child.valid() && fds[i].fd == to_child.get()) {
        const ssize_t w = ::write(to_child.get(), input.data() + written, input.size() - written);
        if (w > 0) written += static_cast<size_t>(w);
        if (w < 0 || written == input.size()) to_child.reset();  // EPIPE: it does not read stdin
        continue;
      }
      UniqueFd& fd = out_fd.valid() && fds[i].fd == out_fd.get() ? out_fd : err_fd;
      std::string& sink = &fd == &out_fd ? r.out : r.err;
      const ssize_t got = ::read(fd.get(), buffer.data(), buffer.size());
      if (got <= 0) {
        if (got < 0 && errno == EINTR) continue;
        fd.reset();
      } else if (sink.size() < k_max_program_output_bytes) {
        sink.append(buffer.data(), static_cast<size_t>(got));
      }
    }
  }
  return true;
}

}  // namespace

ProgramResult run_program(const std::vector<std::string>& argv, const std::string& input, uint64_t timeout_ns,
                          const std::vector<std::string>& environment) {
  if (argv.empty()) throw UsageError("", "run_program: no program given");
  Pipe in = make_pipe(), out = make_pipe(), err = make_pipe();
  // A child that exits without reading its stdin must not kill us with SIGPIPE: MSG-less
  // write() on a pipe raises it, so it is blocked around the pump (and EPIPE handled).
  sigset_t pipe_set, old_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
  const pid_t pid = spawn(argv, environment, in, out, err);
  in.read_end.reset();
  out.write_end.reset();
  err.write_end.reset();
  ProgramResult r;
  const bool finished = pump(input, in.write_end, out.read_end, err.read_end, r, monotonic_ns() + timeout_ns);
  if (!finished) {
    ::kill(pid, SIGKILL);
    r.timed_out = true;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // A SIGPIPE raised while blocked stays pending; take it before unblocking.
  const timespec zero{0, 0};
  while (sigtimedwait(&pipe_set, nullptr, &zero) > 0) {
  }
  pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
  if (r.timed_out) {
    r.exit_code = -1;
  } else if (WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.exit_code = 128 + WTERMSIG(status);
  }
  return r;
}

}  // namespace ptsuite
