// Contract: what a replay needs to know about a capture before its first IO (docs/replay.md):
// plan_replay() reads the capture once (streaming, one batch in memory) and returns the
// replayable records' count, the largest transfer, whether any write is replayed (the target
// gate's access), the time span, and the capture's own per-step figures (replay/step_meter.hpp)
// with their outstanding IOs, and the capture's id (the SHA-256 of its records); map_to_target() places one captured IO
// on the target (the LBA remap, a named setting: "modulo" - offset modulo the target's capacity, aligned down to its
// logical block, pulled back when the IO would run past the end; lengths rounded up to the
// logical block). CapturedOutstanding gives the capture's IOs in flight at each issue (the
// closed loop's per-IO limit). Pure apart from reading the file; UsageError names the option.
#pragma once

#include <cstdint>
#include <queue>
#include <string>
#include <vector>

#include <ptsuite/capture/capture_file.hpp>
#include <ptsuite/capture/io_record.hpp>
#include <ptsuite/replay/step_meter.hpp>
#include <ptsuite/results/replay.hpp>

namespace ptsuite::replay {

// Only reads and writes are replayed; discards, flushes, write-zeroes are counted as skipped.
[[nodiscard]] inline bool replayable(const capture::IoRecord& r) noexcept {
  return (r.op == capture::IoOp::read || r.op == capture::IoOp::write) && r.length_bytes > 0;
}

struct PlacedIo {
  uint64_t offset_bytes = 0;
  uint32_t length_bytes = 0;
  bool remapped = false;  // the offset changed
  bool resized = false;   // the length was rounded up
};

// Precondition: capacity_bytes >= logical_block_bytes > 0 and the rounded length fits.
PlacedIo map_to_target(uint64_t offset_bytes, uint32_t length_bytes, uint64_t capacity_bytes,
                       uint32_t logical_block_bytes) noexcept;

// The capture's IOs in flight when each record is issued (records in issue order): completed
// earlier records leave at their completion time. Records without a completion time never
// count as in flight.
class CapturedOutstanding {
 public:
  // In flight just after `r` is issued (r included when it has a completion), and before that
  // calls on_complete(t, in_flight) for each earlier completion up to r's issue.
  template <typename OnComplete>
  uint32_t issue(const capture::IoRecord& r, OnComplete on_complete) {
    while (!m_completions.empty() && m_completions.top() <= r.issue_ns) {
      const uint64_t t = m_completions.top();
      m_completions.pop();
      on_complete(t, static_cast<uint32_t>(m_completions.size()));
    }
    if (r.completed() && r.complete_ns >= r.issue_ns) m_completions.push(r.complete_ns);
    return static_cast<uint32_t>(m_completions.size());
  }
  template <typename OnComplete>
  void finish(OnComplete on_complete) {
    while (!m_completions.empty()) {
      const uint64_t t = m_completions.top();
      m_completions.pop();
      on_complete(t, static_cast<uint32_t>(m_completions.size()));
    }
  }

 private:
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<>> m_completions;
};

struct ReplayPlan {
  uint16_t device = 0;      // the capture's device index replayed
  uint64_t device_ios = 0;  // records of that device
  uint64_t replay_ios = 0;  // of them, reads and writes
  uint64_t max_length_bytes = 0;
  bool writes = false;
  bool has_completions = false;  // at least one replayable record has a completion time
  uint32_t max_outstanding = 0;  // the capture's most in flight at an issue
  uint64_t first_issue_ns = 0;
  uint64_t last_issue_ns = 0;
  uint64_t end_ns = 0;                           // the last issue or completion (capture timeline)
  std::vector<results::ReplayFigures> captured;  // per step, speed 1
  // "sha256:<hex>" of every record of the capture in file order, each as its 48 stored bytes
  // (capture::encode): the same IOs give the same id whatever the header (start time, host)
  // or the import's temporary file; `compare` ranks only replays of one capture id.
  std::string capture_id;
};

ReplayPlan plan_replay(capture::CaptureReader& reader, uint16_t device, uint64_t step_ns);

}  // namespace ptsuite::replay
