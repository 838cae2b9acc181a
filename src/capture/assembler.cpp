// Q/D/C events -> one IoRecord per request, in issue order (capture/assembler.hpp).
#include <ptsuite/capture/assembler.hpp>

#include <cstring>
#include <iterator>
#include <tuple>

namespace ptsuite::capture {

namespace {

// Flush requests carry no sector: the kernel reports 0 at issue and -1 at completion. They
// pair by (device, operation) alone, the oldest first.
uint64_t key_sector(const BlockEvent& e) { return e.op == IoOp::flush ? 0 : e.sector; }

constexpr uint64_t k_sweep_every_events = 65536;  // bounds the Q map at a small cost

std::string comm_text(const std::array<char, 16>& comm) { return {comm.data(), strnlen(comm.data(), comm.size())}; }

}  // namespace

Assembler::Assembler(AssemblerOptions options, Sink sink) : m_options(std::move(options)), m_sink(std::move(sink)) {}

bool Assembler::request_based(uint16_t device) const {
  return device >= m_options.request_based.size() || m_options.request_based[device];
}

void Assembler::remember(uint32_t pid, const std::array<char, 16>& comm) {
  if (pid != 0 && comm[0] != '\0') {
    m_comms.try_emplace(pid, comm_text(comm));
  }
}

void Assembler::add(const BlockEvent& e) {
  switch (e.kind) {
    case EventKind::queue:
      on_queue(e);
      break;
    case EventKind::issue: {
      uint64_t queued_at = k_unknown_ns;
      uint32_t pid = e.pid;
      if (const auto it = m_queued.find({e.device, e.sector}); it != m_queued.end()) {
        queued_at = it->second.time_ns;
        pid = it->second.pid;
        m_queued.erase(it);
      } else {
        remember(e.pid, e.comm);
      }
      on_issue(e, queued_at, pid);
      break;
    }
    case EventKind::complete:
      on_complete(e);
      break;
  }
  drain(e.time_ns);
  if (++m_events_since_sweep >= k_sweep_every_events) {
    m_events_since_sweep = 0;
    sweep_queued(e.time_ns);
  }
}

void Assembler::on_queue(const BlockEvent& e) {
  remember(e.pid, e.comm);
  if (request_based(e.device)) {
    m_queued[{e.device, e.sector}] = {e.time_ns, e.pid};
    return;
  }
  // Bio-based: the queue event is the only issue-side event this device has.
  BlockEvent issue = e;
  issue.flags |= io_flag::queue_time_only;
  on_issue(issue, k_unknown_ns, e.pid);
}

void Assembler::on_issue(const BlockEvent& e, uint64_t queue_time_ns, uint32_t pid) {
  Entry entry;
  IoRecord& r = entry.record;
  r.issue_ns = e.time_ns;
  r.offset_bytes = e.sector * 512;
  r.length_bytes = e.bytes;
  r.pid = pid;
  if (queue_time_ns != k_unknown_ns && queue_time_ns <= e.time_ns) {
    const uint64_t q = e.time_ns - queue_time_ns;
    r.queue_ns = q < k_unknown_queue_ns ? static_cast<uint32_t>(q) : k_unknown_queue_ns;
  }
  r.device = e.device;
  r.op = e.op;
  r.flags = e.flags;
  r.cpu = e.cpu;
  entry.key = {e.device, key_sector(e), static_cast<uint8_t>(e.op)};
  const uint64_t seq = m_next_seq++;
  m_by_key.emplace(entry.key, seq);
  m_in_flight.emplace(seq, std::move(entry));
}

void Assembler::on_complete(const BlockEvent& e) {
  // A data request that the flush machinery split (pre-flush, data, post-flush for FUA on a
  // device without FUA) completes its parent once more with 0 bytes: not an IO.
  if (e.bytes == 0 && e.op != IoOp::flush) return;
  const Key key{e.device, key_sector(e), static_cast<uint8_t>(e.op)};
  const auto [first, last] = m_by_key.equal_range(key);
  if (first == last) {
    ++m_unmatched_completions;
    return;
  }
  // Which of several requests in flight at one key completed is not in the event. A data
  // request pairs with the newest one: the kernel may drop a completion event without a trace
  // (seen with perf on 6.18: a block softirq run inside another task's preempt-disabled
  // section; ftrace saw the event), and pairing with the oldest would then hand every later
  // request at that sector its predecessor's completion (latencies of seconds, each shifted by
  // one). Two data requests at one sector in flight at once are rare; if they occur, they only
  // swap completion times. Flushes share one key and are often several in flight, completing
  // in order: the oldest.
  const auto it = std::get<2>(key) == static_cast<uint8_t>(IoOp::flush) ? first : std::prev(last);
  Entry& entry = m_in_flight.at(it->second);
  m_by_key.erase(it);
  entry.done = true;
  entry.record.complete_ns = e.time_ns;
  entry.record.error = static_cast<uint16_t>(e.error < 0 ? -e.error : e.error);
}

void Assembler::drain(uint64_t now_ns) {
  while (!m_in_flight.empty()) {
    auto first = m_in_flight.begin();
    Entry& entry = first->second;
    if (!entry.done) {
      if (entry.record.issue_ns + m_options.stale_after_ns > now_ns) {
        return;  // the oldest request is still legitimately in flight
      }
      for (auto [lo, hi] = m_by_key.equal_range(entry.key); lo != hi; ++lo) {
        if (lo->second == first->first) {
          m_by_key.erase(lo);
          break;
        }
      }
      entry.record.flags |= io_flag::unmatched;
      ++m_unmatched_issues;
    }
    emit(entry);
    m_in_flight.erase(first);
  }
}

void Assembler::emit(Entry& entry) {
  ++m_records;
  m_sink(entry.record);
}

void Assembler::sweep_queued(uint64_t now_ns) {
  for (auto it = m_queued.begin(); it != m_queued.end();) {
    it = it->second.time_ns + m_options.queue_stale_after_ns < now_ns ? m_queued.erase(it) : std::next(it);
  }
}

void Assembler::finish() {
  drain(UINT64_MAX - m_options.stale_after_ns);  // everything is stale now
  m_by_key.clear();
  m_queued.clear();
}

std::vector<ProcessName> Assembler::processes() const {
  std::vector<ProcessName> out;
  out.reserve(m_comms.size());
  for (const auto& [pid, comm] : m_comms) {
    out.push_back({pid, comm});
  }
  return out;
}

}  // namespace ptsuite::capture
