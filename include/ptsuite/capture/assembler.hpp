// Contract: block events -> IO records. The kernel reports each request in stages: queued
// (Q: the bio enters the block layer, in the submitting process), issued to the driver (D),
// completed (C). The assembler pairs them into one IoRecord per request and hands the records
// to a sink in ISSUE order (the order replay and characterization need), although requests
// complete out of order: a completed request waits until every request issued before it has
// completed or gone stale.
//
// Pairing (there is no request id in the events, as in btt): D and C by (device, start
// sector, operation), the oldest issue first (flushes by device and operation: they carry no
// sector; a 0-byte completion of a data request, the flush machinery's end of a pre-flush/FUA
// sequence, is not an IO and is skipped); Q and D by (device, start sector), which also
// gives the submitting pid and the time spent before issue (queue_ns). Bio-based devices
// (zram, dm: no D stage) make an IO of each Q (flag queue_time_only) and complete it at the
// bio's completion. Events must come in time order (perf_capture merges its per-CPU buffers).
// A request not completed within `stale_after_ns` of its issue is written with the flag
// `unmatched` and counted; a completion that pairs with nothing is counted only.
// Not thread-safe; the sink is called synchronously from add() and finish().
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <ptsuite/capture/capture_file.hpp>
#include <ptsuite/capture/io_record.hpp>

namespace ptsuite::capture {

enum class EventKind : uint8_t { queue, issue, complete };

struct BlockEvent {
  EventKind kind = EventKind::issue;
  uint64_t time_ns = 0;  // since t0
  uint16_t device = 0;   // index into the capture's devices
  uint64_t sector = 0;   // 512-byte units
  uint32_t bytes = 0;
  IoOp op = IoOp::read;
  uint8_t flags = 0;  // io_flag bits from the rwbs letters
  uint32_t pid = 0;
  uint16_t cpu = 0;
  int32_t error = 0;            // completion: 0 or a negative errno
  std::array<char, 16> comm{};  // queue and issue events: the current task's name
};

struct AssemblerOptions {
  std::vector<bool> request_based;                    // per device index; missing: request-based
  uint64_t stale_after_ns = 60'000'000'000ULL;        // 60 s: far beyond any healthy IO's latency
  uint64_t queue_stale_after_ns = 10'000'000'000ULL;  // a Q never issued (merged into another)
};

class Assembler {
 public:
  using Sink = std::function<void(const IoRecord&)>;
  Assembler(AssemblerOptions options, Sink sink);

  void add(const BlockEvent& event);
  // Emits everything still held; requests without completion are `unmatched`.
  void finish();

  [[nodiscard]] uint64_t records() const noexcept { return m_records; }
  [[nodiscard]] uint64_t unmatched_issues() const noexcept { return m_unmatched_issues; }
  [[nodiscard]] uint64_t unmatched_completions() const noexcept { return m_unmatched_completions; }
  [[nodiscard]] uint64_t in_flight() const noexcept { return m_by_key.size(); }
  // pid -> command name, first seen per pid, sorted by pid.
  [[nodiscard]] std::vector<ProcessName> processes() const;

 private:
  using Key = std::tuple<uint16_t, uint64_t, uint8_t>;  // device, sector, op
  struct Entry {
    IoRecord record;
    Key key{};
    bool done = false;
  };
  struct Queued {
    uint64_t time_ns = 0;
    uint32_t pid = 0;
  };

  [[nodiscard]] bool request_based(uint16_t device) const;
  void on_queue(const BlockEvent& e);
  void on_issue(const BlockEvent& e, uint64_t queue_time_ns, uint32_t pid);
  void on_complete(const BlockEvent& e);
  void remember(uint32_t pid, const std::array<char, 16>& comm);
  void drain(uint64_t now_ns);
  void emit(Entry& entry);
  void sweep_queued(uint64_t now_ns);

  AssemblerOptions m_options;
  Sink m_sink;
  uint64_t m_next_seq = 0;
  std::map<uint64_t, Entry> m_in_flight;                     // issue order
  std::multimap<Key, uint64_t> m_by_key;                     // the not yet completed ones
  std::map<std::pair<uint16_t, uint64_t>, Queued> m_queued;  // request-based: Q not yet issued
  std::map<uint32_t, std::string> m_comms;
  uint64_t m_records = 0;
  uint64_t m_unmatched_issues = 0;
  uint64_t m_unmatched_completions = 0;
  uint64_t m_events_since_sweep = 0;
};

}  // namespace ptsuite::capture
