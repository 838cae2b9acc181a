// Contract: the engine boundary. An engine only translates IoRequests into kernel calls and
// kernel completions back into IoCompletions. It never reads clocks, never touches statistics
// and never allocates per IO: all of that is IoQueue's job (io_queue.hpp), so every engine
// measures the same way.
//
// Lifecycle: create (engine_registry.hpp) -> open(fd, queue_depth) -> { submit / reap }* ->
// close(). One engine instance per worker thread; instances are not thread-safe.
// The caller (IoQueue) guarantees: at most `queue_depth` requests in flight; slots are numbered
// 0 .. queue_depth - 1 (engines may index arrays by slot); every IoRequest* passed to submit()
// stays valid until its completion has been reaped.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include <ptsuite/engine/io_types.hpp>

namespace ptsuite::engine {

struct EngineCapabilities {
  bool asynchronous = false;     // submit() returns before the IO completes
  bool performs_io = true;       // false for `null`: nothing reaches the target
  uint32_t max_queue_depth = 0;  // 0 = no engine limit
};

class IoEngine {
 public:
  virtual ~IoEngine() = default;

  [[nodiscard]] virtual std::string_view name() const noexcept = 0;
  [[nodiscard]] virtual EngineCapabilities capabilities() const noexcept = 0;

  // Prepare to keep up to `queue_depth` IOs in flight on `fd` (opened O_DIRECT by Target).
  // Throws SystemError naming the failing call, e.g. io_setup's EAGAIN with the aio-max-nr
  // hint.
  virtual void open(int fd, uint32_t queue_depth) = 0;

  // Hand `requests` to the kernel, in order. Returns how many, counted from the front, were
  // accepted (a partial count is legal: the caller resubmits the rest), or a negative errno:
  // -EAGAIN = nothing accepted now (reap first, then retry), -EINTR = retry; anything else is
  // a hard failure of the first request. Never blocks on purpose.
  virtual int submit(std::span<IoRequest* const> requests) noexcept = 0;

  // Collect finished IOs into `out`: waits until at least `min_completions` are available or
  // `timeout_ns` has passed (min_completions = 0 polls). Returns the count stored, or a
  // negative errno (-EINTR: nothing lost, call again).
  virtual int reap(uint32_t min_completions, std::span<IoCompletion> out, uint64_t timeout_ns) noexcept = 0;

  // Release kernel resources. The caller drains in-flight IO first. Idempotent. If IO is still
  // in flight (only after a failed reap), close() returns only once the kernel no longer
  // touches those requests' buffers, so the caller may free them afterwards.
  virtual void close() noexcept = 0;
};

}  // namespace ptsuite::engine
