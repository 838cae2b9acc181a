#include <ptsuite/engine/io_queue.hpp>

#include <fmt/format.h>
#include <sys/mman.h>
#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include <ptsuite/engine/target.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::engine {

namespace {

constexpr uint64_t k_page_bytes = 4096;
// flush() after -EAGAIN with IO in flight: wait for one completion, up to this long per try.
constexpr uint64_t k_eagain_reap_timeout_ns = 1'000'000'000;
// flush() after -EAGAIN with nothing in flight (the kernel is short of memory, nothing of ours
// will free it): pause, retry, and give up after k_eagain_idle_retries pauses in a row (at
// least 0.1 s) so an engine that never accepts cannot hang the run.
constexpr long k_eagain_idle_pause_ns = 50'000;
constexpr uint32_t k_eagain_idle_retries = 2'000;
// drain(): each wait is bounded so -EINTR and slow devices just go round the loop again.
constexpr uint64_t k_drain_timeout_ns = 1'000'000'000;

constexpr uint64_t round_up(uint64_t value, uint64_t multiple) { return (value + multiple - 1) / multiple * multiple; }

// One anonymous mapping holding every slot's buffer. Mapped populated so the first IOs of a
// run do not pay page faults, and page-aligned, which satisfies any O_DIRECT alignment up to a
// page; larger alignments are met by over-mapping and rounding the base up.
class BufferArena {
 public:
  BufferArena(uint64_t bytes, uint64_t alignment) {
    m_mapped_bytes = bytes + (alignment > k_page_bytes ? alignment : 0);
    void* addr =
        ::mmap(nullptr, m_mapped_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (addr == MAP_FAILED) {
      throw SystemError(fmt::format("mmap of {} bytes of IO buffers", m_mapped_bytes), errno);
    }
    m_mapping = static_cast<std::byte*>(addr);
    const auto base = reinterpret_cast<uintptr_t>(addr);
    m_base = m_mapping + (round_up(base, alignment) - base);
  }
  ~BufferArena() { ::munmap(m_mapping, m_mapped_bytes); }
  BufferArena(const BufferArena&) = delete;
  BufferArena& operator=(const BufferArena&) = delete;

  [[nodiscard]] std::byte* base() const noexcept { return m_base; }

 private:
  std::byte* m_mapping = nullptr;
  std::byte* m_base = nullptr;
  size_t m_mapped_bytes = 0;
};

}  // namespace

// The request handed to the engine and its submission stamp, side by side: reap() touches
// both for every completion.
struct IoQueue::Slot {
  IoRequest request;
  uint64_t submit_ns = 0;
};

// Every slot is in exactly one place: the free stack, the staged list or in flight, so
// free_count + staged_count + m_in_flight == m_queue_depth at all times.
struct IoQueue::State {
  State(uint32_t queue_depth, uint64_t arena_bytes, uint64_t alignment)
      : arena(arena_bytes, alignment),
        slots(queue_depth),
        free_stack(queue_depth),
        staged(queue_depth),
        completions(queue_depth),
        in_flight_mark(queue_depth) {}

  BufferArena arena;
  std::vector<Slot> slots;
  // LIFO: the slot freed last is reused first, so its buffer is still warm in the cache.
  std::vector<uint32_t> free_stack;
  uint32_t free_count = 0;
  std::vector<IoRequest*> staged;  // staging order is submission order
  uint32_t staged_count = 0;
  std::vector<IoCompletion> completions;
  std::vector<uint8_t> in_flight_mark;  // scratch for abandon_in_flight() only
};

IoQueue::IoQueue(std::unique_ptr<IoEngine> engine, const Target& target, uint32_t queue_depth, uint32_t max_block_bytes)
    : m_engine(std::move(engine)), m_queue_depth(queue_depth) {
  if (!m_engine) {
    throw std::invalid_argument("IoQueue needs an engine");
  }
  const EngineCapabilities caps = m_engine->capabilities();
  if (queue_depth == 0) {
    throw UsageError("queue_depth", "must be at least 1");
  }
  if (caps.max_queue_depth != 0 && queue_depth > caps.max_queue_depth) {
    throw UsageError("queue_depth", fmt::format("{} exceeds the {} engine's limit of {}", queue_depth, m_engine->name(),
                                                caps.max_queue_depth));
  }
  const TargetGeometry& geometry = target.geometry();
  if (max_block_bytes == 0 || max_block_bytes % geometry.logical_block_bytes != 0) {
    throw UsageError("block_size", fmt::format("{} bytes is not a positive multiple of the target's "
                                               "{}-byte logical block",
                                               max_block_bytes, geometry.logical_block_bytes));
  }

  const uint64_t alignment = std::max<uint64_t>(geometry.memory_alignment_bytes, k_page_bytes);
  const uint64_t stride = round_up(max_block_bytes, alignment);
  m_state = std::make_unique<State>(queue_depth, stride * queue_depth, alignment);
  State& s = *m_state;
  for (uint32_t i = 0; i < queue_depth; ++i) {
    s.slots[i].request.slot = i;
    s.slots[i].request.buffer = s.arena.base() + stride * i;
    // Pushed in reverse so that slot 0 is handed out first.
    s.free_stack[i] = queue_depth - 1 - i;
  }
  s.free_count = queue_depth;

  m_engine->open(
      {.fd = target.fd(), .queue_depth = queue_depth, .buffer_base = s.arena.base(), .buffer_stride_bytes = stride});
}

IoQueue::~IoQueue() {
  drain();
  m_engine->close();
}

void IoQueue::bind_to_current_thread() noexcept { m_engine->bind_to_current_thread(); }

uint32_t IoQueue::staged() const noexcept { return m_state->staged_count; }

uint32_t IoQueue::free_slots() const noexcept { return m_state->free_count; }

std::span<std::byte> IoQueue::stage(IoOp op, uint64_t offset_bytes, uint32_t length_bytes) noexcept {
  State& s = *m_state;
  assert(s.free_count > 0);
  IoRequest& request = s.slots[s.free_stack[--s.free_count]].request;
  request.op = op;
  request.offset_bytes = offset_bytes;
  request.length_bytes = length_bytes;
  s.staged[s.staged_count++] = &request;
  return {static_cast<std::byte*>(request.buffer), length_bytes};
}

uint32_t IoQueue::last_staged_slot() const noexcept {
  assert(m_state->staged_count > 0);
  return m_state->staged[m_state->staged_count - 1]->slot;
}

int IoQueue::flush() noexcept {
  State& s = *m_state;
  const uint32_t total = s.staged_count;
  uint32_t done = 0;
  uint32_t idle_retries = 0;
  int failure = 0;
  while (done < total) {
    const uint64_t now_ns = monotonic_ns();
    const int accepted = m_engine->submit({s.staged.data() + done, total - done});
    ++m_submit_calls;
    if (accepted > 0) {
      assert(static_cast<uint32_t>(accepted) <= total - done);
      // A partial count is normal (the kernel took a prefix); the loop resubmits the rest.
      for (uint32_t i = done; i < done + static_cast<uint32_t>(accepted); ++i) {
        s.slots[s.staged[i]->slot].submit_ns = now_ns;
      }
      done += static_cast<uint32_t>(accepted);
      m_in_flight += static_cast<uint32_t>(accepted);
      idle_retries = 0;
      continue;
    }
    if (accepted == -EINTR) {
      continue;  // a signal before anything was queued: nothing to undo, just call again
    }
    int error = accepted;
    if (accepted == -EAGAIN || accepted == 0) {
      // Nothing was queued. With IO in flight, a completion frees the resources the kernel
      // ran short of (AIO ring space); without any, only time can help.
      if (m_in_flight > 0) {
        const int reaped = reap(1, k_eagain_reap_timeout_ns);
        if (reaped < 0 && reaped != -EINTR) {
          failure = reaped;
          break;
        }
        continue;
      }
      if (++idle_retries <= k_eagain_idle_retries) {
        const timespec pause{0, k_eagain_idle_pause_ns};
        ::nanosleep(&pause, nullptr);
        continue;
      }
      error = -EAGAIN;  // out of patience: the first remaining request fails, below
    }
    // A hard failure of the first remaining request: record it and give its slot back; the
    // requests behind it stay staged (the caller stops the run; drain() discards them).
    const IoRequest& failed = *s.staged[done];
    record_error(failed, error);
    s.free_stack[s.free_count++] = failed.slot;
    ++done;
    failure = error;
    break;
  }
  // Keep whatever was not submitted, in order, at the front of the staged list.
  const uint32_t remaining = total - done;
  if (remaining > 0 && done > 0) {
    std::memmove(s.staged.data(), s.staged.data() + done, remaining * sizeof(IoRequest*));
  }
  s.staged_count = remaining;
  return failure;
}

int IoQueue::reap(uint32_t min_completions, uint64_t timeout_ns) noexcept {
  State& s = *m_state;
  if (m_in_flight == 0) {
    m_last_reap_ns = monotonic_ns();
    return 0;
  }
  // `out` is exactly as long as what is in flight: an engine can never return more.
  const int reaped =
      m_engine->reap(std::min(min_completions, m_in_flight), {s.completions.data(), m_in_flight}, timeout_ns);
  const uint64_t now_ns = monotonic_ns();
  m_last_reap_ns = now_ns;
  for (int i = 0; i < reaped; ++i) {
    const IoCompletion& completion = s.completions[i];
    Slot& slot = s.slots[completion.slot];
    const IoRequest& request = slot.request;
    if (completion.result == static_cast<int64_t>(request.length_bytes)) [[likely]] {
      stats::DirectionStats& direction = request.op == IoOp::read ? m_stats.read : m_stats.write;
      const uint64_t latency_ns = now_ns - slot.submit_ns;
      direction.record(request.length_bytes, latency_ns);
      if (m_observer != nullptr) [[unlikely]] {
        m_observer->completed(completion.slot, request.op, request.length_bytes, latency_ns);
      }
    } else {
      record_error(request, completion.result);
    }
    s.free_stack[s.free_count++] = completion.slot;
  }
  if (reaped > 0) {
    m_in_flight -= static_cast<uint32_t>(reaped);
  }
  return reaped;
}

void IoQueue::drain() noexcept {
  State& s = *m_state;
  for (uint32_t i = 0; i < s.staged_count; ++i) {
    s.free_stack[s.free_count++] = s.staged[i]->slot;
  }
  s.staged_count = 0;
  while (m_in_flight > 0) {
    const int reaped = reap(m_in_flight, k_drain_timeout_ns);
    if (reaped < 0 && reaped != -EINTR) {
      abandon_in_flight(reaped);
    }
  }
}

void IoQueue::record_error(const IoRequest& request, int64_t result) noexcept {
  ++m_error_count;
  if (!m_first_error) {
    const bool short_transfer = result >= 0;
    m_first_error = IoErrorRecord{short_transfer ? EIO : static_cast<int>(-result),
                                  request.op,
                                  request.offset_bytes,
                                  request.length_bytes,
                                  result,
                                  short_transfer};
  }
}

// The engine can no longer report completions, so the outcome of what is in flight is unknown.
// close() waits until the kernel has let go of the buffers; every IO still in flight then
// counts as failed with the reap error, and its slot is free again.
// Called by drain() only, after it emptied the staged list: every slot not free is in flight.
void IoQueue::abandon_in_flight(int reap_error) noexcept {
  State& s = *m_state;
  m_engine->close();
  std::fill(s.in_flight_mark.begin(), s.in_flight_mark.end(), uint8_t{1});
  for (uint32_t i = 0; i < s.free_count; ++i) {
    s.in_flight_mark[s.free_stack[i]] = 0;
  }
  for (uint32_t slot = 0; slot < m_queue_depth; ++slot) {
    if (s.in_flight_mark[slot] != 0) {
      record_error(s.slots[slot].request, reap_error);
      s.free_stack[s.free_count++] = slot;
    }
  }
  m_in_flight = 0;
}

}  // namespace ptsuite::engine
