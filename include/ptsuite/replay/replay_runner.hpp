// Contract: replay a capture's reads and writes on a target (docs/replay.md) and measure how
// faithful the replay was. Every replayable record of the chosen device is issued once, in the
// captured order, placed by map_to_target() (replay/replay_plan.hpp), with its size and
// direction, writes carrying incompressible data (workload/data_fill.hpp, pattern random):
//   open loop    each IO at its captured issue time (relative to the first one) / speed from
//                the replay's start; when every queue slot is busy the replay waits for a
//                completion and the lag shows in the issue-time error;
//   closed loop  as fast as possible, in order, each IO issued once fewer than the capture's
//                own in-flight count at its issue are in flight (at most queue_slots; a capture
//                without completion times uses queue_slots).
// One thread, one IoQueue of queue_slots (0: 2 x the capture's most in flight, 32 to 256,
// bounded so the buffers stay within 256 MiB). Faithfulness per step of the capture's own step
// length (replay/step_meter.hpp) next to the capture's figures, with the issue-time error and
// the "could not keep up" flag (the lag at the step's last IO above lag_threshold_ns).
// The caller has passed the target gate and opened the target (read-write when plan.writes).
// Stops cleanly at *stop (stop_reason "interrupted") or the first IO error ("io_error", the
// error described); in-flight IO is drained on every path. Throws UsageError for options that
// cannot work (speed <= 0, an IO larger than the engine allows) before the first IO.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include <ptsuite/capture/capture_file.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/results/replay.hpp>

namespace ptsuite::replay {

enum class ReplayMode : uint8_t { open_loop, closed_loop };

struct ReplayOptions {
  ReplayMode mode = ReplayMode::open_loop;
  double speed = 1.0;                  // time scale: 2 = twice as fast (open loop)
  uint64_t step_ns = 300'000'000'000;  // the capture's step length (SNIA's captures: 5 min)
  uint32_t queue_slots = 0;            // 0: automatic (above)
  uint16_t device = 0;                 // the capture's device index
  std::string engine = "libaio";
  uint64_t seed = 1;                      // of the write data
  uint64_t lag_threshold_ns = 1'000'000;  // [U] a step "could not keep up" above 1 ms lag
  const std::atomic<bool>* stop = nullptr;
};

// The replay's record; the caller adds started_utc, command and target_note.
results::ReplayRecord run_replay(const std::string& capture_path, const engine::Target& target,
                                 const ReplayOptions& options);
// The same from an open reader (replay/replay_source.hpp: a built-in capture, an import);
// `capture_name` is what the record names as its capture file.
results::ReplayRecord run_replay(capture::CaptureReader& reader, const std::string& capture_name,
                                 const engine::Target& target, const ReplayOptions& options);

// The automatic queue slots for a capture's most in flight and largest IO.
uint32_t auto_queue_slots(uint32_t max_outstanding, uint64_t max_length_bytes) noexcept;

const char* to_string(ReplayMode mode) noexcept;

}  // namespace ptsuite::replay
