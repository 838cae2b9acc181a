// perf_event_open on the block tracepoints: events, ring buffers, draining (perf_ring.hpp).
#include "capture/perf_ring.hpp"

#include <fmt/format.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <ptsuite/util/error.hpp>

namespace ptsuite::capture::detail {

namespace {

namespace fs = std::filesystem;

int perf_event_open(perf_event_attr* attr, int cpu) {
  return static_cast<int>(syscall(SYS_perf_event_open, attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC));
}

perf_event_attr tracepoint_attr(uint32_t id, uint32_t wakeup_bytes) {
  perf_event_attr attr{};
  attr.type = PERF_TYPE_TRACEPOINT;
  attr.size = sizeof(attr);
  attr.config = id;
  attr.sample_period = 1;
  attr.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_RAW;
  attr.disabled = 1;
  attr.use_clockid = 1;
  attr.clockid = CLOCK_MONOTONIC;  // the clock of util/clock.hpp: record times are comparable
  attr.watermark = 1;
  attr.wakeup_watermark = wakeup_bytes;
  return attr;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::string find_tracefs(std::string& why) {
  for (const char* root : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}) {
    std::error_code ec;
    if (fs::exists(fs::path(root) / "events" / "block", ec)) return root;
  }
  // Present but not mounted (minimal systems, the VM guest): mount it; harmless and idempotent.
  std::error_code ec;
  if (fs::is_directory("/sys/kernel/tracing", ec) &&
      ::mount("nodev", "/sys/kernel/tracing", "tracefs", 0, nullptr) == 0 &&
      fs::exists("/sys/kernel/tracing/events/block", ec)) {
    return "/sys/kernel/tracing";
  }
  why = fmt::format(
      "no tracefs with block events (tried /sys/kernel/tracing and /sys/kernel/debug/tracing; mounting tracefs: "
      "{}); the kernel needs CONFIG_BLK_DEV_IO_TRACE and CONFIG_TRACING",
      std::strerror(errno));
  return "";
}

std::optional<TracepointFormat> load_block_tracepoint(const std::string& tracefs, const std::string& name) {
  const std::string text = read_text(fs::path(tracefs) / "events" / "block" / name / "format");
  return parse_tracepoint_format(text);
}

int configured_cpus() {
  const long n = sysconf(_SC_NPROCESSORS_CONF);
  return n > 0 ? static_cast<int>(n) : 1;
}

std::string probe_perf(uint32_t tracepoint_id) {
  perf_event_attr attr = tracepoint_attr(tracepoint_id, 4096);
  const int fd = perf_event_open(&attr, 0);
  if (fd < 0) {
    return fmt::format("perf_event_open on block tracepoints failed: {} (needs root, or perf_event_paranoid <= -1)",
                       std::strerror(errno));
  }
  ::close(fd);
  return "";
}

CpuRing::CpuRing(int cpu, uint32_t data_pages) : m_cpu(cpu), m_data_pages(data_pages) {}

CpuRing::CpuRing(CpuRing&& other) noexcept
    : m_cpu(other.m_cpu),
      m_data_pages(other.m_data_pages),
      m_fds(std::move(other.m_fds)),
      m_base(std::exchange(other.m_base, nullptr)),
      m_map_bytes(std::exchange(other.m_map_bytes, 0)) {}

CpuRing::~CpuRing() {
  if (m_base != nullptr) ::munmap(m_base, m_map_bytes);
}

void CpuRing::add_event(uint32_t id, const std::string& filter, const std::string& name) {
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  perf_event_attr attr = tracepoint_attr(id, static_cast<uint32_t>(m_data_pages * page / 4));
  UniqueFd fd(perf_event_open(&attr, m_cpu));
  if (!fd.valid()) {
    throw SystemError(fmt::format("perf_event_open({}, cpu {})", name, m_cpu), errno);
  }
  if (::ioctl(fd.get(), PERF_EVENT_IOC_SET_FILTER, filter.c_str()) != 0) {
    throw SystemError(fmt::format("setting the device filter \"{}\" on {}", filter, name), errno);
  }
  if (m_fds.empty()) {
    m_map_bytes = (1 + static_cast<size_t>(m_data_pages)) * page;
    void* base = ::mmap(nullptr, m_map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
    if (base == MAP_FAILED) {
      throw SystemError(fmt::format("mapping the perf ring buffer of cpu {} ({} bytes)", m_cpu, m_map_bytes), errno);
    }
    m_base = base;
  } else if (::ioctl(fd.get(), PERF_EVENT_IOC_SET_OUTPUT, m_fds.front().get()) != 0) {
    throw SystemError(fmt::format("PERF_EVENT_IOC_SET_OUTPUT for {} on cpu {}", name, m_cpu), errno);
  }
  m_fds.push_back(std::move(fd));
}

void CpuRing::enable() {
  for (const UniqueFd& fd : m_fds) {
    if (::ioctl(fd.get(), PERF_EVENT_IOC_ENABLE, 0) != 0) throw SystemError("PERF_EVENT_IOC_ENABLE", errno);
  }
}

void CpuRing::disable() {
  for (const UniqueFd& fd : m_fds) ::ioctl(fd.get(), PERF_EVENT_IOC_DISABLE, 0);
}

void CpuRing::drain(const std::function<void(uint64_t, const uint8_t*, size_t)>& on_sample, uint64_t& lost) {
  if (m_base == nullptr) return;
  auto* meta = static_cast<perf_event_mmap_page*>(m_base);
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const uint64_t size = meta->data_size != 0 ? meta->data_size : m_data_pages * page;
  const uint8_t* data = static_cast<const uint8_t*>(m_base) + (meta->data_offset != 0 ? meta->data_offset : page);
  const uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
  uint64_t tail = meta->data_tail;
  while (tail < head) {
    perf_event_header h{};
    const uint64_t at = tail % size;
    // The header itself never wraps (records are 8-byte aligned, the ring a multiple of 8).
    std::memcpy(&h, data + at, sizeof(h));
    if (h.size < sizeof(h)) break;  // corrupt: stop reading this ring
    const uint8_t* record = data + at;
    if (at + h.size > size) {  // wraps: copy it out whole
      m_scratch.resize(h.size);
      const uint64_t first = size - at;
      std::memcpy(m_scratch.data(), data + at, first);
      std::memcpy(m_scratch.data() + first, data, h.size - first);
      record = m_scratch.data();
    }
    if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 12) {
      uint64_t time_ns = 0;
      uint32_t raw_size = 0;
      std::memcpy(&time_ns, record + sizeof(h), 8);
      std::memcpy(&raw_size, record + sizeof(h) + 8, 4);
      if (sizeof(h) + 12 + raw_size <= h.size) on_sample(time_ns, record + sizeof(h) + 12, raw_size);
    } else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
      uint64_t n = 0;
      std::memcpy(&n, record + sizeof(h) + 8, 8);
      lost += n;
    }
    tail += h.size;
  }
  __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

}  // namespace ptsuite::capture::detail
