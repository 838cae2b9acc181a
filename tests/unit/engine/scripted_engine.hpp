// A fake IoEngine driven by a script, for IoQueue tests: each submit()/reap() call takes its
// return value from the script (partial counts, -EAGAIN, -EINTR, hard errors), completions
// carry scripted results (short transfers, -errno), and everything the queue did is recorded
// for the test to inspect after IoQueue took ownership of the engine.
#pragma once

#include <algorithm>
#include <climits>
#include <deque>
#include <map>
#include <memory>
#include <vector>

#include <ptsuite/engine/io_engine.hpp>

namespace ptsuite::engine::testing {

inline constexpr int k_accept_all = INT_MAX;

struct EngineScript {
  // --- what the engine will do ---
  std::deque<int> submit_returns;  // per submit() call, front first; k_accept_all when empty
  int submit_default = k_accept_all;
  std::deque<int> reap_errors;  // per reap() call: a negative errno to return, 0 = normal
  int reap_default_error = 0;
  std::map<uint64_t, int64_t> result_by_offset;  // completion result; default: full length
  uint32_t max_queue_depth = 0;                  // reported in capabilities()

  // --- what the queue did ---
  uint32_t opened_queue_depth = 0;
  int opened_fd = -1;
  std::byte* opened_buffer_base = nullptr;
  uint64_t opened_buffer_stride_bytes = 0;
  int bind_calls = 0;
  int close_calls = 0;
  int submit_calls = 0;
  int reap_calls = 0;
  std::vector<uint32_t> reap_min_args;
  std::vector<size_t> submit_sizes;  // requests offered per submit() call
  std::vector<IoRequest> accepted;   // every accepted request, in acceptance order
  std::deque<IoRequest> in_flight;   // accepted, not yet reaped (FIFO)
  size_t max_in_flight = 0;
};

class ScriptedEngine final : public IoEngine {
 public:
  explicit ScriptedEngine(std::shared_ptr<EngineScript> script) : m_script(std::move(script)) {}

  [[nodiscard]] std::string_view name() const noexcept override { return "scripted"; }
  [[nodiscard]] EngineCapabilities capabilities() const noexcept override {
    return {.asynchronous = true, .performs_io = false, .max_queue_depth = m_script->max_queue_depth};
  }
  void open(const EngineSetup& setup) override {
    m_script->opened_fd = setup.fd;
    m_script->opened_queue_depth = setup.queue_depth;
    m_script->opened_buffer_base = setup.buffer_base;
    m_script->opened_buffer_stride_bytes = setup.buffer_stride_bytes;
  }

  void bind_to_current_thread() noexcept override { ++m_script->bind_calls; }

  int submit(std::span<IoRequest* const> requests) noexcept override {
    EngineScript& s = *m_script;
    ++s.submit_calls;
    s.submit_sizes.push_back(requests.size());
    int ret = s.submit_default;
    if (!s.submit_returns.empty()) {
      ret = s.submit_returns.front();
      s.submit_returns.pop_front();
    }
    if (ret <= 0) {
      return ret;
    }
    const size_t count = std::min(static_cast<size_t>(ret), requests.size());
    for (size_t i = 0; i < count; ++i) {
      s.accepted.push_back(*requests[i]);
      s.in_flight.push_back(*requests[i]);
    }
    s.max_in_flight = std::max(s.max_in_flight, s.in_flight.size());
    return static_cast<int>(count);
  }

  // Returns every completion that fits (at least min_completions whenever that many are in
  // flight, like a device that has finished everything).
  int reap(uint32_t min_completions, std::span<IoCompletion> out, uint64_t /*timeout_ns*/) noexcept override {
    EngineScript& s = *m_script;
    ++s.reap_calls;
    s.reap_min_args.push_back(min_completions);
    int error = s.reap_default_error;
    if (!s.reap_errors.empty()) {
      error = s.reap_errors.front();
      s.reap_errors.pop_front();
    }
    if (error < 0) {
      return error;
    }
    const size_t count = std::min(out.size(), s.in_flight.size());
    for (size_t i = 0; i < count; ++i) {
      const IoRequest& request = s.in_flight.front();
      const auto scripted = s.result_by_offset.find(request.offset_bytes);
      out[i] = {request.slot,
                scripted != s.result_by_offset.end() ? scripted->second : static_cast<int64_t>(request.length_bytes)};
      s.in_flight.pop_front();
    }
    return static_cast<int>(count);
  }

  // Like io_destroy(): whatever was in flight is finished when close() returns.
  void close() noexcept override {
    ++m_script->close_calls;
    m_script->in_flight.clear();
  }

 private:
  std::shared_ptr<EngineScript> m_script;
};

}  // namespace ptsuite::engine::testing
