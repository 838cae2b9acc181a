// Contract: the one non-virtual layer between workload generation and an engine (fio's
// td_io_* equivalent). It owns the request pool, one aligned buffer per slot, the submission
// timestamps, the per-direction statistics and the error record, and it enforces the
// queue-depth invariant (in_flight() <= queue_depth()). Engines never see statistics.
//
// Per worker thread:   IoQueue q(create_engine("libaio"), target, qd, max_block_bytes);
//   loop:  while (q.free_slots() > 0) { auto buf = q.stage(op, off, len); fill(buf); }
//          q.flush();                       // submits all staged IOs
//          q.reap(1, timeout);              // records latency of every completion
//   end:   q.drain();                       // waits for all in-flight IO (no new submits)
//
// Timing: one CLOCK_MONOTONIC stamp is taken just before each engine submit call and applies
// to the requests it accepts; one stamp is taken as each reap call returns and applies to
// every completion it returned. latency = completion stamp - submission stamp, i.e. host-side
// issue-to-notice time (fio's `lat`, not `clat`; PTS 2.0 response time).
// Errors: a negative completion result or a short transfer (result != length) is recorded as
// an IoErrorRecord (first one kept, total counted) and is NOT counted in the statistics; the
// caller stops the run when has_error() becomes true.
// Per-IO attribution (optional): a CompletionObserver set with set_completion_observer() is
// told of every completion reap() records in stats() - also those reaped inside flush() - with
// its slot and the latency recorded, so a caller that remembers what it staged in each slot
// (last_staged_slot()) can attribute latencies itself (the replay's per-step response times).
// Construction throws UsageError for a queue depth of 0 or above the engine's limit, or a
// max_block_bytes that is 0 or not a multiple of the target's logical block; SystemError when
// the buffer arena cannot be mapped or the engine cannot open. Nothing after construction
// allocates, throws or logs. The destructor drains in-flight IO and closes the engine.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <ptsuite/engine/io_engine.hpp>
#include <ptsuite/engine/io_types.hpp>
#include <ptsuite/stats/latency_stats.hpp>
#include <ptsuite/stats/live_counters.hpp>

namespace ptsuite::engine {

class Target;

struct IoErrorRecord {
  int errnum = 0;  // positive errno; EIO for a short transfer
  IoOp op = IoOp::read;
  uint64_t offset_bytes = 0;
  uint32_t length_bytes = 0;
  int64_t result = 0;  // raw completion result (bytes done, or -errno)
  bool short_transfer = false;
};

// Told of each successful completion, on the reaping thread, after stats() recorded it; must
// not throw, block or call back into the queue.
class CompletionObserver {
 public:
  virtual void completed(uint32_t slot, IoOp op, uint32_t length_bytes, uint64_t latency_ns) noexcept = 0;

 protected:
  CompletionObserver() = default;
  ~CompletionObserver() = default;
  CompletionObserver(const CompletionObserver&) = default;
  CompletionObserver& operator=(const CompletionObserver&) = default;
};

class IoQueue {
 public:
  IoQueue(std::unique_ptr<IoEngine> engine, const Target& target, uint32_t queue_depth, uint32_t max_block_bytes);
  ~IoQueue();
  IoQueue(const IoQueue&) = delete;
  IoQueue& operator=(const IoQueue&) = delete;

  // The thread that will submit and reap calls this once before its first IO when it is not
  // the thread that constructed the queue (see IoEngine::bind_to_current_thread()).
  void bind_to_current_thread() noexcept;

  [[nodiscard]] uint32_t queue_depth() const noexcept { return m_queue_depth; }
  [[nodiscard]] uint32_t in_flight() const noexcept { return m_in_flight; }
  [[nodiscard]] uint32_t staged() const noexcept;
  [[nodiscard]] uint32_t free_slots() const noexcept;

  // Claims a free slot for one IO and returns its buffer (length_bytes long) so the caller can
  // fill write data before flush(). Precondition: free_slots() > 0, length_bytes <=
  // max_block_bytes, offset/length aligned (the workload layer guarantees both).
  std::span<std::byte> stage(IoOp op, uint64_t offset_bytes, uint32_t length_bytes) noexcept;

  // The slot of the IO staged last (0 .. queue_depth - 1): its buffer keeps whatever the caller
  // or a read left in it until the slot is staged again, so a caller can track buffer content
  // per slot (the data filler does). Precondition: staged() > 0.
  [[nodiscard]] uint32_t last_staged_slot() const noexcept;

  // Submits every staged IO. Partial submissions are resubmitted; -EAGAIN reaps one
  // completion before retrying (or, with nothing in flight, retries after a short sleep);
  // -EINTR retries. Returns 0, or a negative errno after a hard failure (also recorded).
  int flush() noexcept;

  // Reaps at least min(min_completions, in_flight()) completions, waiting up to timeout_ns
  // (k_no_timeout: until they arrive or a signal interrupts the wait, -EINTR), and records each
  // one. Returns the number reaped or a negative errno.
  int reap(uint32_t min_completions, uint64_t timeout_ns) noexcept;

  // Reaps until nothing is in flight (staged but unsubmitted IOs are discarded).
  void drain() noexcept;

  // Timestamp (CLOCK_MONOTONIC ns) taken by the last reap(): lets the caller check deadlines
  // without another clock call.
  [[nodiscard]] uint64_t last_reap_ns() const noexcept { return m_last_reap_ns; }

  [[nodiscard]] const stats::IoStats& stats() const noexcept { return m_stats; }
  [[nodiscard]] bool has_error() const noexcept { return m_error_count > 0; }
  [[nodiscard]] const std::optional<IoErrorRecord>& first_error() const noexcept { return m_first_error; }
  [[nodiscard]] uint64_t error_count() const noexcept { return m_error_count; }
  // Engine submit() calls made by flush() so far (IOs per call = how batched submission was).
  [[nodiscard]] uint64_t submit_calls() const noexcept { return m_submit_calls; }
  // Counts, bytes and latency sums per direction, cheap to publish as stats::LiveTotals.
  [[nodiscard]] stats::LiveTotals live_totals() const noexcept {
    stats::LiveTotals totals;
    const stats::DirectionStats* directions[2] = {&m_stats.read, &m_stats.write};
    for (int d = 0; d < 2; ++d) {
      totals.ios[d] = directions[d]->ios;
      totals.bytes[d] = directions[d]->bytes;
      totals.latency_sum_ns[d] = static_cast<uint64_t>(directions[d]->latency.sum_ns);
    }
    return totals;
  }
  [[nodiscard]] const IoEngine& engine() const noexcept { return *m_engine; }
  // nullptr (the default) tells no one; the observer must outlive the queue's last reap.
  void set_completion_observer(CompletionObserver* observer) noexcept { m_observer = observer; }

 private:
  struct Slot;
  std::unique_ptr<IoEngine> m_engine;
  uint32_t m_queue_depth = 0;
  uint32_t m_in_flight = 0;
  uint64_t m_submit_calls = 0;
  uint64_t m_last_reap_ns = 0;
  stats::IoStats m_stats;
  std::optional<IoErrorRecord> m_first_error;
  uint64_t m_error_count = 0;
  CompletionObserver* m_observer = nullptr;
  // Implementation state (slots, free list, staged list, completion array, buffer arena) is
  // the implementer's choice; keep it allocation-free after construction.
  struct State;
  std::unique_ptr<State> m_state;

  void record_error(const IoRequest& request, int64_t result) noexcept;
  void abandon_in_flight(int reap_error) noexcept;
};

}  // namespace ptsuite::engine
