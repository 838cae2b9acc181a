#include "workload/wake_signal.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <mutex>

#include <ptsuite/util/error.hpp>

namespace ptsuite::workload::detail {

namespace {

extern "C" void on_wake_signal(int /*signum*/) {}

int wake_signal_number() noexcept { return SIGRTMAX - 3; }

}  // namespace

int install_wake_handler() {
  static std::once_flag once;
  static int failure = 0;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_handler = on_wake_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: the interrupted wait must return EINTR
    if (sigaction(wake_signal_number(), &action, nullptr) != 0) {
      failure = errno;
    }
  });
  if (failure != 0) {
    throw SystemError("sigaction for the worker wake-up signal", failure);
  }
  return wake_signal_number();
}

void wake_thread(pthread_t thread) noexcept { pthread_kill(thread, wake_signal_number()); }

WaitInterrupter::WaitInterrupter(uint64_t start_ns, uint64_t duration_ns, const StopFlags& flags,
                                 std::vector<std::thread>& threads)
    : m_deadline_ns(duration_ns != 0 ? start_ns + duration_ns : std::numeric_limits<uint64_t>::max()),
      m_next_check_ns(std::min(start_ns + k_check_interval_ns, m_deadline_ns)),
      m_flags(flags),
      m_threads(threads) {}

bool WaitInterrupter::check(uint64_t now_ns) noexcept {
  if (now_ns < m_next_check_ns) {
    return false;
  }
  const bool stop = m_flags.abort.load(std::memory_order_relaxed) ||
                    (m_flags.requested != nullptr && m_flags.requested->load(std::memory_order_relaxed));
  const bool interrupt = stop || now_ns >= m_deadline_ns;
  if (interrupt) {
    for (std::thread& thread : m_threads) {
      wake_thread(thread.native_handle());
    }
  }
  m_next_check_ns = now_ns + k_check_interval_ns;
  if (m_deadline_ns > now_ns) {
    m_next_check_ns = std::min(m_next_check_ns, m_deadline_ns);
  }
  return interrupt;
}

}  // namespace ptsuite::workload::detail
