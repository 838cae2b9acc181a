// The `libaio` engine: Linux native asynchronous IO (io_setup / io_submit / io_getevents) on
// the O_DIRECT descriptor. The default engine, and the one fio's numbers are compared with.
//
// One iocb per queue slot, kept in an array indexed by IoRequest::slot: the iocb of a slot is
// rewritten only when that slot is submitted again, and the kernel copies an iocb during
// io_submit(), so no iocb memory is ever shared with IO in flight. The slot number rides in
// iocb::data and comes back in io_event::data, which is all reap() needs to build completions.
// libaio's calls return -errno instead of setting errno.
//
// A closed engine with nothing in flight hands its AIO context to a small process-wide idle
// list instead of destroying it, and the next open() takes it from there. io_destroy() waits
// for an RCU grace period before it returns (kill_ioctx): 26-44 ms measured here per call, on
// every thread at the end of every segment, where the segment itself may be 10 ms (an
// endurance-write sample took 44 ms for 10 ms of IO). An idle context holds no request, so a
// reused one is indistinguishable from a new one.
#include <fmt/format.h>
#include <libaio.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <mutex>
#include <vector>

#include <ptsuite/util/error.hpp>

#include "engine/engines.hpp"

namespace ptsuite::engine {

namespace {

std::string read_proc_value(const char* path) {
  std::ifstream in(path);
  std::string value;
  if (in >> value) {
    return value;
  }
  return "unknown";
}

std::string io_setup_failure(uint32_t queue_depth, int errnum) {
  if (errnum == EAGAIN) {
    // io_setup() charges its depth against the system-wide fs.aio-max-nr; every thread of
    // every process holding an AIO context counts.
    return fmt::format(
        "io_setup({}) failed: the system-wide async IO limit is exhausted (fs.aio-nr {} of "
        "fs.aio-max-nr {}); raise /proc/sys/fs/aio-max-nr (e.g. sysctl -w fs.aio-max-nr=1048576) "
        "or lower --queue-depth or --threads",
        queue_depth, read_proc_value("/proc/sys/fs/aio-nr"), read_proc_value("/proc/sys/fs/aio-max-nr"));
  }
  if (errnum == ENOSYS) {
    return fmt::format(
        "io_setup({}) failed: the kernel has no async IO support (CONFIG_AIO) or it "
        "is blocked here; use --engine sync",
        queue_depth);
  }
  return fmt::format("io_setup({}) failed: {}", queue_depth, std::strerror(errnum));
}

// Idle AIO contexts (see the top of this file). Each holds its share of the system-wide
// fs.aio-max-nr (the kernel charges max(depth, 4 x CPUs) x 2 events a context), which other
// processes on the host share, so the list never makes the process hold more contexts than it
// had in use at once: an open() that finds none deep enough destroys one idle context before
// it makes a new one (paying io_destroy's wait only when a run's depth grows), at most
// k_max_idle are kept, and an io_setup() refused with EAGAIN empties the list and tries once
// more. A forked child inherits the list but not the contexts (they belong to the parent's
// address space): the list is dropped, not destroyed, when the caller's pid is not the one
// that filled it.
class IdleContexts {
 public:
  struct Idle {
    uint32_t depth = 0;  // the events io_setup() was asked for
    io_context_t ctx = nullptr;
  };

  static IdleContexts& instance() {
    static IdleContexts idle;
    return idle;
  }

  // A context made for at least `depth` events ({} when none). The smallest that fits: a grid
  // run high to low (TC x QD 32 down to 1) reuses its deep contexts for the shallow segments.
  Idle take(uint32_t depth) {
    const std::lock_guard lock(m_mutex);
    forget_if_forked();
    auto best = m_idle.end();
    for (auto it = m_idle.begin(); it != m_idle.end(); ++it) {
      if (it->depth >= depth && (best == m_idle.end() || it->depth < best->depth)) best = it;
    }
    if (best == m_idle.end()) return {};
    const Idle found = *best;
    m_idle.erase(best);
    return found;
  }

  // Keeps a context with nothing in flight for a later open(); false when the list is full
  // (the caller destroys it).
  bool give(const Idle& idle) {
    const std::lock_guard lock(m_mutex);
    forget_if_forked();
    if (m_idle.size() >= k_max_idle) return false;
    m_idle.push_back(idle);
    return true;
  }

  size_t size() {
    const std::lock_guard lock(m_mutex);
    forget_if_forked();
    return m_idle.size();
  }

  // Destroys one idle context, the deepest (all are too small for the open() that calls this):
  // so the process never holds more contexts, idle and in use, than it had in use at once.
  void evict_one() {
    Idle evicted;
    {
      const std::lock_guard lock(m_mutex);
      forget_if_forked();
      const auto deepest = std::max_element(m_idle.begin(), m_idle.end(),
                                            [](const Idle& a, const Idle& b) { return a.depth < b.depth; });
      if (deepest == m_idle.end()) return;
      evicted = *deepest;
      m_idle.erase(deepest);
    }
    io_destroy(evicted.ctx);
  }

  // Destroys every idle context (after io_setup's EAGAIN); true when there was one.
  bool release_all() {
    std::vector<Idle> idle;
    {
      const std::lock_guard lock(m_mutex);
      forget_if_forked();
      idle.swap(m_idle);
    }
    for (const Idle& i : idle) io_destroy(i.ctx);
    return !idle.empty();
  }

 private:
  // Called with m_mutex held.
  void forget_if_forked() {
    const pid_t pid = ::getpid();
    if (pid != m_owner) {
      m_idle.clear();
      m_owner = pid;
    }
  }

  static constexpr size_t k_max_idle = 64;
  std::mutex m_mutex;
  std::vector<Idle> m_idle;
  pid_t m_owner = ::getpid();
};

class LibaioEngine final : public IoEngine {
 public:
  ~LibaioEngine() override { close(); }

  [[nodiscard]] std::string_view name() const noexcept override { return "libaio"; }
  [[nodiscard]] EngineCapabilities capabilities() const noexcept override {
    return {.asynchronous = true, .performs_io = true, .max_queue_depth = 0};
  }

  void open(const EngineSetup& setup) override {
    close();
    const uint32_t queue_depth = setup.queue_depth;
    m_ctx = acquire_context(queue_depth);
    // Zeroed once here; submit() then writes only the fields that change per IO.
    iocb blank;
    std::memset(&blank, 0, sizeof(blank));
    blank.aio_fildes = setup.fd;
    m_iocbs.assign(queue_depth, blank);
    m_batch.assign(queue_depth, nullptr);
    m_events.assign(queue_depth, io_event{});
  }

  int submit(std::span<IoRequest* const> requests) noexcept override {
    const size_t count = std::min(requests.size(), m_batch.size());
    for (size_t i = 0; i < count; ++i) {
      const IoRequest& request = *requests[i];
      iocb& cb = m_iocbs[request.slot];
      cb.data = reinterpret_cast<void*>(static_cast<uintptr_t>(request.slot));
      cb.aio_lio_opcode = request.op == IoOp::read ? IO_CMD_PREAD : IO_CMD_PWRITE;
      cb.u.c.buf = request.buffer;
      cb.u.c.nbytes = request.length_bytes;
      cb.u.c.offset = static_cast<long long>(request.offset_bytes);
      m_batch[i] = &cb;
    }
    const int rc = io_submit(m_ctx.ctx, static_cast<long>(count), m_batch.data());
    if (rc > 0) m_in_flight += rc;
    // rc >= 0: the first rc iocbs now belong to the kernel and the rest were not looked at, so
    //   the caller may resubmit the rest as they are (a partial count is not an error).
    // -EAGAIN: nothing was queued (the completion ring is full of unreaped events, or the
    //   kernel is short of request memory); reaping frees ring space, so retrying is safe.
    // -ENOMEM: as fio does, treated like -EAGAIN: nothing was queued, and the caller only
    //   retries after a reap or a pause, so transient memory pressure cannot spin.
    // -EINTR: a signal arrived before anything was queued; repeating the call is exact.
    // Anything else (EBADF, EINVAL, EFAULT) is a hard failure of the first iocb.
    return rc == -ENOMEM ? -EAGAIN : rc;
  }

  int reap(uint32_t min_completions, std::span<IoCompletion> out, uint64_t timeout_ns) noexcept override {
    const auto capacity = static_cast<long>(std::min(out.size(), m_events.size()));
    const long wanted = std::min<long>(min_completions, capacity);  // the kernel refuses min > nr
    timespec timeout{};
    timeout.tv_sec = static_cast<time_t>(timeout_ns / 1'000'000'000ULL);
    timeout.tv_nsec = static_cast<long>(timeout_ns % 1'000'000'000ULL);
    // -EINTR (a signal while waiting) loses nothing: events stay in the ring for the next call.
    const int rc =
        io_getevents(m_ctx.ctx, wanted, capacity, m_events.data(), timeout_ns == k_no_timeout ? nullptr : &timeout);
    if (rc > 0) m_in_flight -= rc;
    for (int i = 0; i < rc; ++i) {
      out[i].slot = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(m_events[i].data));
      // io_event::res is unsigned long; a failed IO carries -errno in it.
      out[i].result = static_cast<long>(m_events[i].res);
    }
    return rc;
  }

  // With nothing in flight the context goes to the idle list; otherwise (only after a failed
  // reap) io_destroy() waits for every request still in flight to finish before it returns,
  // which is what IoEngine::close() promises.
  void close() noexcept override {
    if (m_ctx.ctx == nullptr) return;
    bool kept = false;
    if (m_in_flight == 0) {
      try {
        kept = IdleContexts::instance().give(m_ctx);
      } catch (...) {  // std::mutex or the list's allocation: destroy instead
        kept = false;
      }
    }
    if (!kept) io_destroy(m_ctx.ctx);
    m_ctx = {};
    m_in_flight = 0;
  }

 private:
  // An idle context that fits, else a new one; io_setup's EAGAIN (fs.aio-max-nr, which idle
  // contexts count against) destroys the idle ones and tries once more.
  static IdleContexts::Idle acquire_context(uint32_t queue_depth) {
    IdleContexts& idle = IdleContexts::instance();
    if (IdleContexts::Idle reused = idle.take(queue_depth); reused.ctx != nullptr) return reused;
    idle.evict_one();
    io_context_t ctx = nullptr;
    int rc = io_setup(static_cast<int>(queue_depth), &ctx);
    if (rc == -EAGAIN && idle.release_all()) rc = io_setup(static_cast<int>(queue_depth), &ctx);
    if (rc != 0) throw SystemError(io_setup_failure(queue_depth, -rc));
    return {queue_depth, ctx};
  }

  IdleContexts::Idle m_ctx;
  int64_t m_in_flight = 0;     // submitted and not yet reaped
  std::vector<iocb> m_iocbs;   // indexed by IoRequest::slot
  std::vector<iocb*> m_batch;  // the pointer array one io_submit() call takes
  std::vector<io_event> m_events;
};

}  // namespace

std::unique_ptr<IoEngine> make_libaio_engine() { return std::make_unique<LibaioEngine>(); }

std::string libaio_unavailable_reason() {
  io_context_t ctx = nullptr;
  const int rc = io_setup(1, &ctx);
  if (rc != 0) {
    return io_setup_failure(1, -rc);
  }
  // Kept for the first depth-1 open() rather than destroyed (an RCU grace period per process).
  if (!IdleContexts::instance().give({1, ctx})) io_destroy(ctx);
  return {};
}

size_t libaio_idle_contexts() { return IdleContexts::instance().size(); }

void release_libaio_idle_contexts() { IdleContexts::instance().release_all(); }

}  // namespace ptsuite::engine
