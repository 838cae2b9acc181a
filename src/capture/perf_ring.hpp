// Private to capture: the perf_event_open side of block_capture. Finds tracefs (mounting it
// when it exists unmounted), reads the block tracepoints' formats, opens one event per
// tracepoint and CPU with a device filter, shares one ring buffer per CPU, and drains raw
// samples and lost-event counts out of it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <ptsuite/capture/tracepoint_format.hpp>
#include <ptsuite/util/fd.hpp>

namespace ptsuite::capture::detail {

// The tracefs root with events/block in it ("/sys/kernel/tracing" or the debugfs path);
// empty with `why` set when none is found.
std::string find_tracefs(std::string& why);
// The format of events/block/<name> under `tracefs`; nullopt when missing.
std::optional<TracepointFormat> load_block_tracepoint(const std::string& tracefs, const std::string& name);

// One CPU's ring buffer and the event fds writing into it.
class CpuRing {
 public:
  CpuRing(int cpu, uint32_t data_pages);
  ~CpuRing();
  CpuRing(CpuRing&& other) noexcept;
  CpuRing(const CpuRing&) = delete;
  CpuRing& operator=(const CpuRing&) = delete;
  CpuRing& operator=(CpuRing&&) = delete;

  // Adds the tracepoint `id` on this CPU with `filter` ("dev == 7340035"); the first one owns
  // the ring buffer, the others write into it. Throws SystemError naming the call.
  void add_event(uint32_t id, const std::string& filter, const std::string& name);
  void enable();
  void disable();
  // Calls on_sample(time_ns, raw, raw_size) for each sample, adds lost counts to `lost`.
  void drain(const std::function<void(uint64_t, const uint8_t*, size_t)>& on_sample, uint64_t& lost);
  [[nodiscard]] int cpu() const noexcept { return m_cpu; }
  [[nodiscard]] int leader_fd() const noexcept { return m_fds.empty() ? -1 : m_fds.front().get(); }

 private:
  int m_cpu;
  uint32_t m_data_pages;
  std::vector<UniqueFd> m_fds;
  void* m_base = nullptr;
  size_t m_map_bytes = 0;
  std::vector<uint8_t> m_scratch;  // a record that wraps around the ring end
};

// The CPUs perf can open events on (0..N-1 of the configured ones).
int configured_cpus();

// Opening one block_rq_issue event on CPU 0 works (permissions, kernel support): empty, or why not.
std::string probe_perf(uint32_t tracepoint_id);

}  // namespace ptsuite::capture::detail
