// The replay loop: open or closed loop over a capture's records (replay/replay_runner.hpp).
#include <ptsuite/replay/replay_runner.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <thread>

#include <ptsuite/capture/capture_file.hpp>
#include <ptsuite/engine/engine_registry.hpp>
#include <ptsuite/engine/io_queue.hpp>
#include <ptsuite/replay/replay_plan.hpp>
#include <ptsuite/replay/step_latency.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/workload/data_fill.hpp>
#include <ptsuite/workload/workload_json.hpp>

namespace ptsuite::replay {

namespace {

// The last 50 us before an IO's time are waited by polling the clock: a timed wait (the
// engine's reap timeout, a sleep) wakes up tens of microseconds late, which would be issue-time
// error the replay adds itself.
constexpr uint64_t k_spin_ns = 50'000;
// A sleep with nothing in flight is cut into 10 ms pieces so a stop request is seen promptly.
constexpr uint64_t k_max_sleep_ns = 10'000'000;
constexpr size_t k_batch_records = 4096;
constexpr uint64_t k_buffer_budget_bytes = 256ULL << 20;
constexpr uint32_t k_min_slots = 32;
constexpr uint32_t k_max_slots = 256;
// A replay time mapped onto the capture's timeline never passes this (2^62 ns, 146 years).
constexpr double k_max_capture_time_ns = 4.6e18;

uint64_t round_up(uint64_t value, uint64_t multiple) { return (value + multiple - 1) / multiple * multiple; }

// Which step each queue slot's IO counts in, so each completion's latency goes to the step the
// IO was issued in (engine::CompletionObserver: told of every completion, also those reaped
// inside flush()).
class SlotSteps final : public engine::CompletionObserver {
 public:
  SlotSteps(uint32_t slots, StepLatency& latency) : m_step(slots, 0), m_latency(latency) {}
  void set(uint32_t slot, size_t step) { m_step[slot] = step; }
  void completed(uint32_t slot, engine::IoOp op, uint32_t length_bytes, uint64_t latency_ns) noexcept override {
    m_latency.completed(m_step[slot], op == engine::IoOp::read, length_bytes, latency_ns);
  }

 private:
  std::vector<size_t> m_step;
  StepLatency& m_latency;
};

struct Loop {
  const ReplayOptions& options;
  const ReplayPlan& plan;
  const engine::TargetGeometry& geometry;
  engine::IoQueue queue;
  workload::DataFiller filler;
  StepMeter meter;
  CapturedOutstanding captured;
  StepLatency& latency;
  SlotSteps& slot_steps;
  uint64_t start_ns = 0;
  uint64_t sequence = 0;
  size_t step = 0;             // closed loop: the captured step being replayed
  uint64_t step_start_ns = 0;  // closed loop: when it began (since start)
  uint64_t remapped = 0;
  uint64_t resized = 0;
  uint64_t replayed = 0;
  uint64_t skipped = 0;
  uint64_t last_issue_ns = 0;  // open loop: the last IO's issue time (monotonic)

  [[nodiscard]] bool open() const { return options.mode == ReplayMode::open_loop; }
  [[nodiscard]] bool stopping() const {
    return queue.has_error() || (options.stop != nullptr && options.stop->load(std::memory_order_relaxed));
  }
  // A replay time on the capture's timeline (open loop): first issue + elapsed x speed.
  [[nodiscard]] uint64_t capture_time(uint64_t t_ns) const {
    const uint64_t elapsed = t_ns > start_ns ? t_ns - start_ns : 0;
    // Hours behind at speed 10^6 would pass 2^64: capped (it lands in the overflow step).
    const double scaled = std::min(static_cast<double>(elapsed) * options.speed, k_max_capture_time_ns);
    return plan.first_issue_ns + static_cast<uint64_t>(scaled);
  }
  void note_in_flight(uint64_t t_ns) {
    if (open()) {
      meter.in_flight(capture_time(t_ns), queue.in_flight());
    } else {
      meter.in_flight_in_step(step, t_ns > start_ns ? t_ns - start_ns : 0, queue.in_flight());
    }
  }
  // Takes whatever completions are there without waiting.
  void poll() {
    if (queue.in_flight() > 0 && queue.reap(0, 0) > 0) note_in_flight(queue.last_reap_ns());
  }
  // Waits for one completion (at most timeout_ns); false when the wait failed for good.
  bool reap_one(uint64_t timeout_ns) {
    const int n = queue.reap(1, timeout_ns);
    if (n > 0) note_in_flight(queue.last_reap_ns());
    return n >= 0 || n == -EINTR;
  }
};

// Open loop: until `due`, reaping completions meanwhile; the last k_spin_ns by polling.
void wait_until(Loop& l, uint64_t due_ns) {
  for (uint64_t now = monotonic_ns(); now < due_ns && !l.stopping(); now = monotonic_ns()) {
    const uint64_t remaining = due_ns - now;
    if (remaining <= k_spin_ns) {
      l.poll();  // completions are taken as they come, so in-flight counts stay true
      continue;
    }
    if (l.queue.in_flight() > 0) {
      if (!l.reap_one(remaining - k_spin_ns)) return;
    } else {
      std::this_thread::sleep_for(std::chrono::nanoseconds(std::min(remaining - k_spin_ns, k_max_sleep_ns)));
    }
  }
}

// Closed loop: wait until fewer than `limit` are in flight.
void wait_for_room(Loop& l, uint32_t limit) {
  while (l.queue.in_flight() >= limit && !l.stopping()) {
    if (!l.reap_one(engine::k_no_timeout)) return;
  }
}

// Stages one IO and returns its slot.
uint32_t stage(Loop& l, const capture::IoRecord& r) {
  const PlacedIo placed =
      map_to_target(r.offset_bytes, r.length_bytes, l.geometry.capacity_bytes, l.geometry.logical_block_bytes);
  l.remapped += placed.remapped ? 1 : 0;
  l.resized += placed.resized ? 1 : 0;
  const bool write = r.op == capture::IoOp::write;
  const std::span<std::byte> buffer =
      l.queue.stage(write ? engine::IoOp::write : engine::IoOp::read, placed.offset_bytes, placed.length_bytes);
  const uint32_t slot = l.queue.last_staged_slot();
  if (write) {
    l.filler.fill(buffer, l.sequence++, slot);
  } else {
    l.filler.invalidate(slot);
  }
  return slot;
}

// Submits the staged IO of `slot`, counted in `step` (its response time too).
void submit(Loop& l, uint32_t slot, size_t step) {
  l.slot_steps.set(slot, step);
  l.latency.issued(step);
  l.queue.flush();
  ++l.replayed;
}

void replay_open(Loop& l, const capture::IoRecord& r) {
  const auto offset = static_cast<double>(r.issue_ns - l.plan.first_issue_ns) / l.options.speed;
  const uint64_t due = l.start_ns + static_cast<uint64_t>(offset);
  wait_until(l, due);
  l.poll();
  while (l.queue.free_slots() == 0 && !l.stopping()) {
    if (!l.reap_one(engine::k_no_timeout)) return;
  }
  if (l.stopping()) return;
  const uint32_t slot = stage(l, r);
  const uint64_t t = monotonic_ns();  // the issue time: the stamp before the submit call
  const uint64_t t_capture = l.capture_time(t);
  const size_t step = l.meter.step_of(t_capture);
  l.latency.advance(step);
  submit(l, slot, step);
  l.last_issue_ns = t;
  l.meter.issue(t_capture, r.op == capture::IoOp::read ? Direction::read : Direction::write, r.length_bytes,
                l.queue.in_flight());
  l.meter.issue_error(l.meter.step_of(t_capture), static_cast<int64_t>(t) - static_cast<int64_t>(due));
}

void replay_closed(Loop& l, const capture::IoRecord& r) {
  const uint32_t in_capture = l.captured.issue(r, [](uint64_t, uint32_t) {});
  const uint32_t limit =
      l.plan.has_completions ? std::clamp<uint32_t>(in_capture, 1, l.queue.queue_depth()) : l.queue.queue_depth();
  wait_for_room(l, limit);
  if (l.stopping()) return;
  const size_t step = l.meter.step_of(r.issue_ns);
  const uint64_t now = monotonic_ns() - l.start_ns;
  if (step != l.step) {  // the previous captured step ends where this one's first IO starts
    l.meter.in_flight_in_step(l.step, now, l.queue.in_flight());
    l.meter.set_length(l.step, now - l.step_start_ns);
    l.step = step;
    l.step_start_ns = now;
    l.latency.advance(step);
  }
  submit(l, stage(l, r), step);
  l.meter.issue_in_step(step, r.op == capture::IoOp::read ? Direction::read : Direction::write, r.length_bytes,
                        l.queue.in_flight());
}

// Every record of the device, in order, until the end or a stop.
void replay_records(Loop& l, capture::CaptureReader& reader) {
  std::vector<capture::IoRecord> batch(k_batch_records);
  l.step = l.meter.step_of(l.plan.first_issue_ns);
  for (size_t n = reader.read(batch); n > 0 && !l.stopping(); n = reader.read(batch)) {
    for (size_t i = 0; i < n && !l.stopping(); ++i) {
      const capture::IoRecord& r = batch[i];
      if (r.device != l.plan.device) continue;
      if (!replayable(r)) {
        ++l.skipped;
        continue;
      }
      l.open() ? replay_open(l, r) : replay_closed(l, r);
    }
  }
  if (l.stopping()) {
    l.queue.drain();
    return;
  }
  while (l.queue.in_flight() > 0 && l.reap_one(engine::k_no_timeout)) {
  }
  if (!l.open()) l.meter.set_length(l.step, monotonic_ns() - l.start_ns - l.step_start_ns);
}

void fill_steps(results::ReplayRecord& rec, const Loop& l) {
  const bool open = l.open();
  // The replay's windows are the capture's (its last one ends where the capture ends), unless
  // the replay fell behind into a step after the capture's last: that one ends at its last IO.
  uint64_t capture_end = open ? l.plan.end_ns : 0;
  if (open && l.replayed > 0) {
    const uint64_t last = l.capture_time(l.last_issue_ns);
    if (l.meter.step_of(last) > l.meter.step_of(l.plan.end_ns - 1)) capture_end = last + 1;
  }
  std::vector<results::ReplayFigures> replayed =
      l.meter.figures(capture_end, open ? l.options.speed : 1.0, l.plan.captured.size());
  // Completions after the last issue can reach past the capture's steps: such steps without
  // an IO are not steps of the replay.
  while (replayed.size() > l.plan.captured.size() && replayed.back().ios == 0) replayed.pop_back();
  for (size_t k = 0; k < replayed.size(); ++k) {
    results::ReplayStep s;
    s.start_ns = k * l.options.step_ns;
    // A step after the capture's last (the overflow step) lasts until the replay's last IO.
    s.length_ns = k < l.plan.captured.size() ? l.plan.captured[k].length_ns
                  : capture_end > s.start_ns ? capture_end - s.start_ns
                                             : l.options.step_ns;
    if (k < l.plan.captured.size()) s.captured = l.plan.captured[k];
    s.replayed = replayed[k];
    const StepMeter::ErrorSummary e = l.meter.issue_errors(k);
    s.issue_error_p50_ns = e.p50_ns;
    s.issue_error_p99_ns = e.p99_ns;
    s.issue_error_max_ns = e.max_ns;
    // Behind: the step's typical IO was late, or the step ended late (lag that grew).
    s.fell_behind = e.count > 0 && (e.p50_ns > l.options.lag_threshold_ns || e.last_ns > l.options.lag_threshold_ns);
    rec.steps_fell_behind += s.fell_behind ? 1 : 0;
    rec.steps.push_back(std::move(s));
  }
  std::vector<uint64_t> lengths;
  for (const results::ReplayStep& s : rec.steps) lengths.push_back(s.replayed.length_ns);
  std::vector<results::ReplayLatency> latency = l.latency.finish(lengths);
  for (size_t k = 0; k < rec.steps.size(); ++k) rec.steps[k].latency = std::move(latency[k]);
  rec.latency = l.latency.total(rec.duration_ns);
  const StepMeter::ErrorSummary all = l.meter.all_issue_errors();
  rec.issue_error_p50_ns = all.p50_ns;
  rec.issue_error_p99_ns = all.p99_ns;
  rec.issue_error_max_ns = all.max_ns;
}

void check_options(const ReplayOptions& o) {
  if (!(o.speed > 0) || o.speed > 1e6)
    throw UsageError("speed", fmt::format("{} is not a speed; give e.g. 0.5, 1 or 2", o.speed));
  if (o.step_ns == 0) throw UsageError("step", "0 is not a step length; give e.g. 1s or 5m");
}

results::ReplayRecord describe(const capture::CaptureReader& reader, const std::string& capture_path,
                               const engine::Target& target, const ReplayOptions& o, const ReplayPlan& plan) {
  results::ReplayRecord rec;
  rec.capture_file = capture_path;
  rec.capture_id = plan.capture_id;
  rec.capture_source = reader.header().source;
  const capture::CaptureDevice& d = reader.header().devices.at(plan.device);
  rec.capture_device = d.path;
  rec.capture_capacity_bytes = d.capacity_bytes;
  rec.capture_complete = reader.complete();
  rec.target = target.path();
  rec.target_capacity_bytes = target.geometry().capacity_bytes;
  rec.engine = o.engine;
  rec.mode = to_string(o.mode);
  rec.speed = o.speed;
  rec.step_ns = o.step_ns;
  rec.seed = o.seed;
  rec.capture_ios = plan.device_ios;
  rec.settings = {
      {"replay.lba_remap", "modulo", "[U] offset modulo the target's capacity, aligned down to its logical block"},
      {"replay.time_origin", "first IO", "[U] the first replayed IO is due at the replay's start"},
      {"replay.lag_threshold", fmt::format("{} us", o.lag_threshold_ns / 1000),
       "[U] a step could not keep up when its last IO was issued this late or later"},
      {"replay.ops", "read, write", "[U] discards, flushes and write-zeroes are counted, not replayed"},
      {"replay.data", "random", "incompressible, never repeating (as every ptsuite write)"}};
  return rec;
}

}  // namespace

const char* to_string(ReplayMode mode) noexcept { return mode == ReplayMode::open_loop ? "open" : "closed"; }

uint32_t auto_queue_slots(uint32_t max_outstanding, uint64_t max_length_bytes) noexcept {
  // Twice the capture's most in flight leaves room for a target slower than the captured one
  // to fall behind visibly (lag) rather than be throttled by a too small queue.
  uint64_t slots = std::clamp<uint64_t>(2ULL * max_outstanding, k_min_slots, k_max_slots);
  if (max_length_bytes > 0)
    slots = std::min<uint64_t>(slots, std::max<uint64_t>(1, k_buffer_budget_bytes / max_length_bytes));
  return static_cast<uint32_t>(slots);
}

results::ReplayRecord run_replay(const std::string& capture_path, const engine::Target& target,
                                 const ReplayOptions& options) {
  check_options(options);
  capture::CaptureReader reader(capture_path);
  return run_replay(reader, capture_path, target, options);
}

results::ReplayRecord run_replay(capture::CaptureReader& reader, const std::string& capture_path,
                                 const engine::Target& target, const ReplayOptions& options) {
  check_options(options);
  const ReplayPlan plan = plan_replay(reader, options.device, options.step_ns);
  results::ReplayRecord rec = describe(reader, capture_path, target, options, plan);
  const engine::TargetGeometry& g = target.geometry();
  const uint64_t max_block = round_up(std::max<uint64_t>(plan.max_length_bytes, g.logical_block_bytes),
                                      std::max(g.logical_block_bytes, 4096U));
  if (max_block > (64ULL << 20)) throw UsageError("capture", "an IO of the capture is larger than 64 MiB");
  if (max_block > g.capacity_bytes) throw UsageError("target", "the target is smaller than the capture's largest IO");
  const uint32_t slots =
      options.queue_slots != 0 ? options.queue_slots : auto_queue_slots(plan.max_outstanding, max_block);
  rec.queue_slots = slots;
  StepLatency latency;
  SlotSteps slot_steps(slots, latency);
  Loop l{options, plan, g,
         engine::IoQueue(engine::create_engine(options.engine), target, slots, static_cast<uint32_t>(max_block)),
         workload::DataFiller(workload::DataPattern::random, options.seed, 0, max_block, slots),
         // One step after the capture's last takes every IO issued later (bounded memory, and
         // no step-count refusal after the first write).
         StepMeter(options.step_ns, plan.captured.size()), CapturedOutstanding{}, latency, slot_steps};
  l.queue.set_completion_observer(&slot_steps);
  l.start_ns = monotonic_ns();
  replay_records(l, reader);
  const uint64_t end = monotonic_ns();
  rec.duration_ns = end - l.start_ns;
  rec.replayed_ios = l.replayed;
  rec.skipped_ios = l.skipped;
  rec.remapped_ios = l.remapped;
  rec.resized_ios = l.resized;
  fill_steps(rec, l);
  if (l.queue.has_error()) {
    rec.stop_reason = "io_error";
    rec.error = workload::describe_io_error(l.queue.first_error(), l.queue.error_count());
  } else {
    rec.stop_reason = options.stop != nullptr && options.stop->load() ? "interrupted" : "complete";
  }
  return rec;
}

}  // namespace ptsuite::replay
