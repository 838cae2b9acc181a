// Private: interrupting a worker thread's untimed wait. Workers wait for completions without a
// timeout (engine::k_no_timeout: no kernel timer in the measured path). When a run must end
// while a worker may be waiting (its deadline passed, a stop was requested, another worker
// failed) and the device is not completing IO, run_workload() sends every running worker the
// wake signal, whose handler does nothing: the wait returns -EINTR and the worker re-checks its
// limits and flags.
// The signal is SIGRTMAX - 3, installed process-wide without SA_RESTART by the first call of
// install_wake_handler() (idempotent, thread-safe); nothing else in ptsuite uses it.
#pragma once

#include <pthread.h>
#include <cstdint>
#include <limits>
#include <thread>
#include <vector>

#include "workload/worker.hpp"

namespace ptsuite::workload::detail {

// Installs the no-op handler (once) and returns the signal number. Throws SystemError when
// sigaction fails.
int install_wake_handler();

// Interrupts `thread`'s current or next blocking system call (a no-op for a thread that is not
// blocked; the caller repeats the call until the thread has stopped, which covers a signal that
// arrives just before the thread starts to wait).
void wake_thread(pthread_t thread) noexcept;

// Workers wait for completions without a timer, so a worker whose device has gone silent would
// not notice the end of the run by itself. run_workload()'s sampling loop calls check() at
// next_check_ns(): at the run's deadline and every k_check_interval_ns. When the run must end
// (deadline passed, stop requested, a worker failed) it signals every thread, at every check
// until all are done, which also covers a signal that arrived just before a thread's wait.
// The threads must not have been joined.
class WaitInterrupter {
 public:
  // A stall or a stop request is acted on within this time (as the former 50 ms reap timeout).
  static constexpr uint64_t k_check_interval_ns = 50'000'000;

  // duration_ns 0: no deadline (IO- or byte-limited runs).
  WaitInterrupter(uint64_t start_ns, uint64_t duration_ns, const StopFlags& flags, std::vector<std::thread>& threads);

  [[nodiscard]] uint64_t next_check_ns() const noexcept { return m_next_check_ns; }
  // Returns whether it signalled the threads.
  bool check(uint64_t now_ns) noexcept;

 private:
  uint64_t m_deadline_ns;
  uint64_t m_next_check_ns;
  const StopFlags& m_flags;
  std::vector<std::thread>& m_threads;
};

}  // namespace ptsuite::workload::detail
