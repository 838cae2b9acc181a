// The `sync` engine: pread/pwrite, one IO at a time, each finished before submit() returns.
// It is the reference the asynchronous engines are checked against: no kernel queue, no
// batching, nothing that could reorder or lose a request. Its latencies are meaningful at
// queue depth 1 only: at depth N one submit() call runs N IOs back to back and IoQueue stamps
// them all with the same submission time (io_queue.hpp, "Timing").
#include <unistd.h>
#include <cerrno>

#include "engine/completion_ring.hpp"
#include "engine/engines.hpp"

namespace ptsuite::engine {

namespace {

class SyncEngine final : public IoEngine {
 public:
  [[nodiscard]] std::string_view name() const noexcept override { return "sync"; }
  [[nodiscard]] EngineCapabilities capabilities() const noexcept override {
    return {.asynchronous = false, .performs_io = true, .max_queue_depth = 0};
  }

  void open(const EngineSetup& setup) override {
    m_fd = setup.fd;
    m_done.reset(setup.queue_depth);
  }

  int submit(std::span<IoRequest* const> requests) noexcept override {
    const uint32_t count = std::min<uint32_t>(m_done.room(), static_cast<uint32_t>(requests.size()));
    if (count == 0) {
      return -EAGAIN;
    }
    for (uint32_t i = 0; i < count; ++i) {
      const IoRequest& request = *requests[i];
      m_done.push({request.slot, transfer(request)});
    }
    return static_cast<int>(count);
  }

  int reap(uint32_t /*min_completions*/, std::span<IoCompletion> out, uint64_t /*timeout_ns*/) noexcept override {
    return static_cast<int>(m_done.pop_into(out));
  }

  void close() noexcept override { m_fd = -1; }

 private:
  // Bytes transferred or -errno. A short transfer is reported as it is, not completed by a
  // second call: the reference engine must show exactly what the kernel did.
  int64_t transfer(const IoRequest& request) const noexcept {
    const auto offset = static_cast<off_t>(request.offset_bytes);
    for (;;) {
      const ssize_t done = request.op == IoOp::read ? ::pread(m_fd, request.buffer, request.length_bytes, offset)
                                                    : ::pwrite(m_fd, request.buffer, request.length_bytes, offset);
      if (done >= 0) {
        return done;
      }
      // EINTR means a signal arrived before any byte moved, so repeating the call is exact.
      if (errno != EINTR) {
        return -errno;
      }
    }
  }

  int m_fd = -1;
  CompletionRing m_done;
};

}  // namespace

std::unique_ptr<IoEngine> make_sync_engine() { return std::make_unique<SyncEngine>(); }

}  // namespace ptsuite::engine
