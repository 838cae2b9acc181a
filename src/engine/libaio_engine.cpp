// The `libaio` engine: Linux native asynchronous IO (io_setup / io_submit / io_getevents) on
// the O_DIRECT descriptor. The default engine, and the one fio's numbers are compared with.
//
// One iocb per queue slot, kept in an array indexed by IoRequest::slot: the iocb of a slot is
// rewritten only when that slot is submitted again, and the kernel copies an iocb during
// io_submit(), so no iocb memory is ever shared with IO in flight. The slot number rides in
// iocb::data and comes back in io_event::data, which is all reap() needs to build completions.
// libaio's calls return -errno instead of setting errno.
#include <fmt/format.h>
#include <libaio.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
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
    io_context_t ctx = nullptr;
    const int rc = io_setup(static_cast<int>(queue_depth), &ctx);
    if (rc != 0) {
      throw SystemError(io_setup_failure(queue_depth, -rc));
    }
    m_ctx = ctx;
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
    const int rc = io_submit(m_ctx, static_cast<long>(count), m_batch.data());
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
        io_getevents(m_ctx, wanted, capacity, m_events.data(), timeout_ns == k_no_timeout ? nullptr : &timeout);
    for (int i = 0; i < rc; ++i) {
      out[i].slot = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(m_events[i].data));
      // io_event::res is unsigned long; a failed IO carries -errno in it.
      out[i].result = static_cast<long>(m_events[i].res);
    }
    return rc;
  }

  // io_destroy() waits for every request still in flight to finish before it returns, which
  // is what IoEngine::close() promises.
  void close() noexcept override {
    if (m_ctx != nullptr) {
      io_destroy(m_ctx);
      m_ctx = nullptr;
    }
  }

 private:
  io_context_t m_ctx = nullptr;
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
  io_destroy(ctx);
  return {};
}

}  // namespace ptsuite::engine
