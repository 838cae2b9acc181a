#include "cli/signals.hpp"

#include <cerrno>
#include <csignal>

#include <ptsuite/util/error.hpp>

namespace ptsuite::cli {

namespace {

// Lock-free atomics are async-signal-safe; the handler does nothing else.
std::atomic<bool> g_stop{false};
std::atomic<int> g_signal{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

struct sigaction g_previous_int {};
struct sigaction g_previous_term {};
struct sigaction g_previous_hup {};
struct sigaction g_previous_usr1 {};

extern "C" void on_stop_signal(int signum) {
  g_signal.store(signum, std::memory_order_relaxed);
  g_stop.store(true, std::memory_order_relaxed);
}

}  // namespace

StopSignals::StopSignals() {
  g_stop.store(false);
  g_signal.store(0);
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;  // no SA_RESTART: a blocked wait returns EINTR and re-checks
  // SIGHUP: a closed SSH session or terminal ends a 3-day run the way Ctrl-C does (results
  // written, write cache restored, journal consistent), never by the default termination.
  // SIGUSR1: what Slurm sends before a job's time limit (`fleet submit` asks --signal=B:USR1@N):
  // the run stops as for SIGTERM, and the requeued job resumes it (docs/fleet.md).
  if (sigaction(SIGINT, &action, &g_previous_int) != 0 || sigaction(SIGTERM, &action, &g_previous_term) != 0 ||
      sigaction(SIGHUP, &action, &g_previous_hup) != 0 || sigaction(SIGUSR1, &action, &g_previous_usr1) != 0) {
    throw SystemError("sigaction", errno);
  }
}

StopSignals::~StopSignals() {
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
  sigaction(SIGHUP, &g_previous_hup, nullptr);
  sigaction(SIGUSR1, &g_previous_usr1, nullptr);
}

const std::atomic<bool>& StopSignals::flag() const noexcept { return g_stop; }

int StopSignals::received() const noexcept { return g_signal.load(std::memory_order_relaxed); }

}  // namespace ptsuite::cli
