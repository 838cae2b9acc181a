// The `null` engine: nothing reaches the target; every IO completes inside submit() with its
// full length. It measures ptsuite's own per-IO cost (IoQueue, workload generation, stats)
// and lets tests and CI run whole workloads without a device.
#include <cerrno>

#include "engine/completion_ring.hpp"
#include "engine/engines.hpp"

namespace ptsuite::engine {

namespace {

class NullEngine final : public IoEngine {
 public:
  [[nodiscard]] std::string_view name() const noexcept override { return "null"; }
  [[nodiscard]] EngineCapabilities capabilities() const noexcept override {
    return {.asynchronous = false, .performs_io = false, .max_queue_depth = 0};
  }

  void open(const EngineSetup& setup) override { m_done.reset(setup.queue_depth); }

  int submit(std::span<IoRequest* const> requests) noexcept override {
    // The ring holds queue_depth entries; accepting only what fits keeps a caller that broke
    // the queue-depth contract from overwriting unreaped completions.
    const uint32_t count = std::min<uint32_t>(m_done.room(), static_cast<uint32_t>(requests.size()));
    if (count == 0) {
      return -EAGAIN;
    }
    for (uint32_t i = 0; i < count; ++i) {
      m_done.push({requests[i]->slot, static_cast<int64_t>(requests[i]->length_bytes)});
    }
    return static_cast<int>(count);
  }

  // Everything submitted is already complete, so there is never anything to wait for.
  int reap(uint32_t /*min_completions*/, std::span<IoCompletion> out, uint64_t /*timeout_ns*/) noexcept override {
    return static_cast<int>(m_done.pop_into(out));
  }

  void close() noexcept override {}

 private:
  CompletionRing m_done;
};

}  // namespace

std::unique_ptr<IoEngine> make_null_engine() { return std::make_unique<NullEngine>(); }

}  // namespace ptsuite::engine
