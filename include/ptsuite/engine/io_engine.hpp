// Contract: the engine boundary. An engine only translates IoRequests into kernel calls and
// kernel completions back into IoCompletions. It never reads clocks, never touches statistics
// and never allocates per IO: all of that is IoQueue's job (io_queue.hpp), so every engine
// measures the same way.
//
// Lifecycle: create (engine_registry.hpp) -> open(setup) -> [bind_to_current_thread()] ->
// { submit / reap }* -> close(). One engine instance per worker thread; instances are not
// thread-safe. open() may run on another thread than the IO (run_workload() opens every queue
// on the calling thread so that setup errors surface before any IO); the thread that will do
// the IO calls bind_to_current_thread() first, which engines with per-thread kernel state
// (io_uring's single-issuer ring) use to attach to it outside any timed window.
// The caller (IoQueue) guarantees: at most `queue_depth` requests in flight; slots are numbered
// 0 .. queue_depth - 1 (engines may index arrays by slot); every IoRequest* passed to submit()
// stays valid until its completion has been reaped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include <ptsuite/engine/io_types.hpp>

namespace ptsuite::engine {

// reap()'s timeout meaning "no timeout": the kernel arms no timer for the wait, which keeps the
// timer's cost (~0.3 us at QD 1 on a loop device, measured) out of every measured latency. A
// caller that must regain control sends the waiting thread a signal (workload_runner does).
inline constexpr uint64_t k_no_timeout = UINT64_MAX;

struct EngineCapabilities {
  bool asynchronous = false;     // submit() returns before the IO completes
  bool performs_io = true;       // false for `null`: nothing reaches the target
  uint32_t max_queue_depth = 0;  // 0 = no engine limit
};

// What open() is given. The IO buffers belong to the caller (IoQueue's arena): slot i's
// buffer is buffer_base + i * buffer_stride_bytes, buffer_stride_bytes long, and every request
// of slot i points into it. Engines that can register memory with the kernel (io_uring) do so
// once here instead of pinning pages per IO; buffer_base may be null (a test driving an
// engine directly with buffers of its own), and then nothing is registered.
struct EngineSetup {
  int fd = -1;  // opened O_DIRECT by Target
  uint32_t queue_depth = 0;
  std::byte* buffer_base = nullptr;
  uint64_t buffer_stride_bytes = 0;
};

class IoEngine {
 public:
  virtual ~IoEngine() = default;

  [[nodiscard]] virtual std::string_view name() const noexcept = 0;
  [[nodiscard]] virtual EngineCapabilities capabilities() const noexcept = 0;

  // Prepare to keep up to `setup.queue_depth` IOs in flight on `setup.fd`. Throws SystemError
  // naming the failing call and what to do (io_setup's EAGAIN with the aio-max-nr hint), or
  // UsageError("--engine", ...) when the engine cannot drive this target at all.
  virtual void open(const EngineSetup& setup) = 0;

  // Called on the thread that will submit and reap, before its first submit(). Optional: an
  // engine that needs it does the same work lazily in its first submit() when it was not
  // called. Never fails (a later submit() reports any problem as -errno).
  virtual void bind_to_current_thread() noexcept {}

  // Hand `requests` to the kernel, in order. Returns how many, counted from the front, were
  // accepted (a partial count is legal: the caller resubmits the rest), or a negative errno:
  // -EAGAIN = nothing accepted now (reap first, then retry), -EINTR = retry; anything else is
  // a hard failure of the first request. Never blocks on purpose.
  virtual int submit(std::span<IoRequest* const> requests) noexcept = 0;

  // Collect finished IOs into `out`: waits until at least `min_completions` are available or
  // `timeout_ns` has passed (min_completions = 0 polls; k_no_timeout waits without a timer,
  // until the completions arrive or a signal interrupts the wait). Returns the count stored,
  // or a negative errno (-EINTR: nothing lost, call again).
  virtual int reap(uint32_t min_completions, std::span<IoCompletion> out, uint64_t timeout_ns) noexcept = 0;

  // Release kernel resources. The caller drains in-flight IO first. Idempotent. If IO is still
  // in flight (only after a failed reap), close() returns only once the kernel no longer
  // touches those requests' buffers, so the caller may free them afterwards.
  virtual void close() noexcept = 0;
};

}  // namespace ptsuite::engine
