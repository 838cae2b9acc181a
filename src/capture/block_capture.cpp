// BlockCapture: block tracepoints -> ring buffers -> time-ordered events -> records -> file.
#include <ptsuite/capture/block_capture.hpp>

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>

#include <ptsuite/capture/assembler.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>

#include "capture/device_watch.hpp"
#include "capture/perf_ring.hpp"

namespace ptsuite::capture {

namespace {

namespace fs = std::filesystem;

// Events later than (drain start - this) wait for the next drain: a sample can become visible
// in its CPU's ring slightly after its timestamp was taken, so the CPUs are merged only up to
// a point every ring has certainly passed.
constexpr uint64_t k_merge_margin_ns = 20'000'000;
// How often the drain thread checks that the captured devices are still there: a vanished
// device ends the capture within about this long (docs/capture.md).
constexpr uint64_t k_watch_interval_ns = 250'000'000;

// Kernel-internal dev_t of the tracepoints' `dev` field: MKDEV(ma, mi) = ma << 20 | mi.
uint32_t kernel_dev(uint32_t major, uint32_t minor) { return (major << 20) | minor; }

std::string sysfs_text(const fs::path& path) {
  std::ifstream in(path);
  std::string s;
  std::getline(in, s);
  return s;
}

uint64_t sysfs_number(const fs::path& path) {
  try {
    return std::stoull(sysfs_text(path));
  } catch (const std::exception&) {
    return 0;
  }
}

struct Decoder {
  uint32_t id = 0;
  EventKind kind = EventKind::issue;
  TracepointFormat format;
  const TracepointField* dev = nullptr;
  const TracepointField* sector = nullptr;
  const TracepointField* nr_sector = nullptr;
  const TracepointField* bytes = nullptr;  // issue only
  const TracepointField* error = nullptr;  // completions
  const TracepointField* rwbs = nullptr;
  const TracepointField* comm = nullptr;
  const TracepointField* pid = nullptr;
};

struct PendingEvent {
  uint64_t time_ns;
  uint32_t order;  // drain order: keeps equal timestamps stable
  BlockEvent event;
};

}  // namespace

struct BlockCapture::State {
  CaptureHeader header;
  std::string tracefs;
  std::vector<Decoder> decoders;
  std::vector<detail::CpuRing> rings;
  std::vector<uint32_t> kernel_devs;            // index -> kernel dev_t
  std::vector<detail::DeviceSnapshot> watched;  // index -> the device as it was at the start
  std::optional<CaptureWriter> writer;
  std::optional<Assembler> assembler;
  std::vector<PendingEvent> pending;
  uint64_t poll_interval_ns = 0;
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> records{0};
  std::atomic<uint64_t> lost{0};
  std::mutex mutex;  // the writer and assembler: the drain thread, then stop()
  std::optional<CaptureTrailer> trailer;
  std::string thread_error;
  std::atomic<bool> device_gone{false};
  std::string vanished;  // under `mutex`: which device vanished, when and why

  void on_sample(int cpu, uint64_t time_ns, const uint8_t* raw, size_t size, uint32_t order);
  void drain_all(bool everything);
  void watch_devices();
  void run();
};

void BlockCapture::State::on_sample(int cpu, uint64_t time_ns, const uint8_t* raw, size_t size, uint32_t order) {
  if (size < 8) return;
  uint16_t type = 0;
  std::memcpy(&type, raw, 2);
  const auto d = std::find_if(decoders.begin(), decoders.end(), [type](const Decoder& x) { return x.id == type; });
  if (d == decoders.end()) return;
  const auto dev = static_cast<uint32_t>(read_unsigned(raw, size, *d->dev));
  const auto idx = std::find(kernel_devs.begin(), kernel_devs.end(), dev);
  if (idx == kernel_devs.end()) return;
  BlockEvent e;
  e.kind = d->kind;
  e.time_ns = time_ns > header.t0_monotonic_ns ? time_ns - header.t0_monotonic_ns : 0;
  e.device = static_cast<uint16_t>(idx - kernel_devs.begin());
  e.sector = read_unsigned(raw, size, *d->sector);
  const uint64_t nr = read_unsigned(raw, size, *d->nr_sector);
  e.bytes = static_cast<uint32_t>(d->bytes != nullptr ? read_unsigned(raw, size, *d->bytes) : nr * 512);
  if (d->bytes != nullptr && e.bytes == 0 && nr != 0) e.bytes = static_cast<uint32_t>(nr * 512);
  const RwbsDecoded rw = decode_rwbs(read_chars(raw, size, *d->rwbs));
  e.op = rw.op;
  e.flags = rw.flags;
  e.pid = d->pid != nullptr ? static_cast<uint32_t>(read_unsigned(raw, size, *d->pid)) : 0;
  e.cpu = static_cast<uint16_t>(cpu);
  if (d->error != nullptr) e.error = static_cast<int32_t>(read_unsigned(raw, size, *d->error));
  if (d->comm != nullptr) {
    const std::string_view c = read_chars(raw, size, *d->comm);
    std::memcpy(e.comm.data(), c.data(), std::min(c.size(), e.comm.size() - 1));
  }
  pending.push_back({e.time_ns, order, e});
}

void BlockCapture::State::drain_all(bool everything) {
  const uint64_t drain_start = monotonic_ns();
  uint64_t lost_now = 0;
  uint32_t order = 0;
  for (detail::CpuRing& ring : rings) {
    const int cpu = ring.cpu();
    ring.drain([&](uint64_t t, const uint8_t* raw, size_t n) { on_sample(cpu, t, raw, n, order++); }, lost_now);
  }
  lost += lost_now;
  std::stable_sort(pending.begin(), pending.end(),
                   [](const PendingEvent& a, const PendingEvent& b) { return a.time_ns < b.time_ns; });
  const uint64_t cutoff = everything ? UINT64_MAX
                          : drain_start > header.t0_monotonic_ns + k_merge_margin_ns
                              ? drain_start - header.t0_monotonic_ns - k_merge_margin_ns
                              : 0;
  size_t n = 0;
  const std::lock_guard lock(mutex);
  for (; n < pending.size() && pending[n].time_ns < cutoff; ++n) {
    assembler->add(pending[n].event);
  }
  pending.erase(pending.begin(), pending.begin() + static_cast<ptrdiff_t>(n));
  records = assembler->records();
  writer->flush();  // every drain reaches the file: a killed capture keeps what it had
}

void BlockCapture::State::watch_devices() {
  if (device_gone.load()) return;
  for (const detail::DeviceSnapshot& d : watched) {
    const std::string why = detail::vanished_reason(d);
    if (why.empty()) continue;
    const uint64_t elapsed_ns = monotonic_ns() - header.t0_monotonic_ns;
    const std::lock_guard lock(mutex);
    vanished = fmt::format("{} vanished during the capture after {:.1f} s: {}", d.path,
                           static_cast<double>(elapsed_ns) / 1e9, why);
    device_gone = true;
    return;
  }
}

void BlockCapture::State::run() {
  try {
    uint64_t next_watch_ns = monotonic_ns() + k_watch_interval_ns;
    while (!stop.load()) {
      std::this_thread::sleep_for(std::chrono::nanoseconds(poll_interval_ns));
      drain_all(false);
      if (monotonic_ns() >= next_watch_ns) {
        watch_devices();
        next_watch_ns = monotonic_ns() + k_watch_interval_ns;
      }
    }
  } catch (const std::exception& e) {
    thread_error = e.what();  // stop() reports it
  }
}

namespace {

Decoder make_decoder(const std::string& tracefs, const std::string& name, EventKind kind) {
  auto format = detail::load_block_tracepoint(tracefs, name);
  if (!format) throw SystemError(fmt::format("the kernel has no block:{} tracepoint (tracefs {})", name, tracefs));
  Decoder d;
  d.id = format->id;
  d.kind = kind;
  d.format = std::move(*format);
  d.dev = d.format.field("dev");
  d.sector = d.format.field("sector");
  d.nr_sector = d.format.field("nr_sector");
  d.bytes = d.format.field("bytes");
  d.error = d.format.field("error");
  d.rwbs = d.format.field("rwbs");
  d.comm = d.format.field("comm");
  d.pid = d.format.field("common_pid");
  if (d.dev == nullptr || d.sector == nullptr || d.nr_sector == nullptr || d.rwbs == nullptr) {
    throw SystemError(fmt::format("block:{} lacks the dev/sector/nr_sector/rwbs fields this capture reads", name));
  }
  return d;
}

std::string uname_release() {
  utsname u{};
  return ::uname(&u) == 0 ? u.release : "";
}

std::string host_name() {
  char name[256] = {};
  return ::gethostname(name, sizeof(name) - 1) == 0 ? name : "";
}

}  // namespace

CaptureDevice describe_capture_device(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) {
    throw UsageError("--target", fmt::format("{} is not a block device: only block devices can be captured", path));
  }
  fs::path sys = fs::path("/sys/dev/block") / fmt::format("{}:{}", major(st.st_rdev), minor(st.st_rdev));
  std::error_code ec;
  sys = fs::canonical(sys, ec);
  if (fs::exists(sys / "partition", ec)) sys = sys.parent_path();  // the disk the events name
  CaptureDevice d;
  const std::string mm = sysfs_text(sys / "dev");  // "259:0"
  d.path = "/dev/" + sys.filename().string();
  if (const size_t colon = mm.find(':'); colon != std::string::npos) {
    d.major = static_cast<uint32_t>(std::stoul(mm.substr(0, colon)));
    d.minor = static_cast<uint32_t>(std::stoul(mm.substr(colon + 1)));
  }
  d.capacity_bytes = sysfs_number(sys / "size") * 512;
  d.logical_block_bytes = static_cast<uint32_t>(sysfs_number(sys / "queue" / "logical_block_size"));
  d.request_based = fs::exists(sys / "mq", ec);
  d.model = sysfs_text(sys / "device" / "model");
  d.serial = sysfs_text(sys / "device" / "serial");
  while (!d.model.empty() && d.model.back() == ' ') d.model.pop_back();
  return d;
}

std::string BlockCapture::unavailable_reason() {
  if (::geteuid() != 0) return "block IO capture needs root (system-wide perf events on the block tracepoints)";
  std::string why;
  const std::string tracefs = detail::find_tracefs(why);
  if (tracefs.empty()) return why;
  const auto issue = detail::load_block_tracepoint(tracefs, "block_rq_issue");
  if (!issue) return "the kernel has no block:block_rq_issue tracepoint";
  return detail::probe_perf(issue->id);
}

std::unique_ptr<BlockCapture> BlockCapture::start(const CaptureOptions& options) {
  auto state = std::make_unique<State>();
  for (const std::string& path : options.devices) {
    CaptureDevice d = describe_capture_device(path);
    if (d.capacity_bytes == 0) {
      throw UsageError("--target", fmt::format("{} has no capacity (a loop device with nothing attached, or no "
                                               "medium): there is nothing to capture",
                                               path));
    }
    const uint32_t kdev = kernel_dev(d.major, d.minor);
    if (std::find(state->kernel_devs.begin(), state->kernel_devs.end(), kdev) == state->kernel_devs.end()) {
      state->kernel_devs.push_back(kdev);
      state->watched.push_back(detail::snapshot_device(d.path, d.major, d.minor));
      state->header.devices.push_back(std::move(d));
    }
  }
  if (const std::string why = unavailable_reason(); !why.empty()) throw SystemError("cannot capture block IO: " + why);
  std::string why;
  state->tracefs = detail::find_tracefs(why);
  const std::pair<const char*, EventKind> events[] = {{"block_bio_queue", EventKind::queue},
                                                      {"block_rq_issue", EventKind::issue},
                                                      {"block_rq_complete", EventKind::complete},
                                                      {"block_bio_complete", EventKind::complete}};
  std::vector<bool> request_based;
  bool any_bio_based = false;
  for (const CaptureDevice& d : state->header.devices) {
    request_based.push_back(d.request_based);
    any_bio_based = any_bio_based || !d.request_based;
  }
  std::string filter;
  for (const uint32_t kdev : state->kernel_devs)
    filter += fmt::format("{}dev == {}", filter.empty() ? "" : " || ", kdev);
  for (const auto& [name, kind] : events) {
    // Bio completions only matter for bio-based devices (blk-mq ones complete requests).
    if (std::string_view(name) == "block_bio_complete" && !any_bio_based) continue;
    state->decoders.push_back(make_decoder(state->tracefs, name, kind));
    state->header.events.push_back(std::string("block:") + name);
  }
  for (int cpu = 0; cpu < detail::configured_cpus(); ++cpu) {
    detail::CpuRing ring(cpu, options.ring_pages_per_cpu);
    try {
      for (const Decoder& d : state->decoders) ring.add_event(d.id, filter, d.format.name);
    } catch (const SystemError&) {
      if (cpu == 0) throw;
      continue;  // an offline CPU
    }
    state->rings.push_back(std::move(ring));
  }
  CaptureHeader& h = state->header;
  h.source = "block-tracepoints (perf_event_open)";
  h.kernel = uname_release();
  h.host = host_name();
  h.command = options.command;
  h.started_utc = utc_now_iso8601();
  h.t0_monotonic_ns = monotonic_ns();
  state->writer.emplace(*options.output, h);
  State* s = state.get();
  state->assembler.emplace(AssemblerOptions{request_based}, [s](const IoRecord& r) { s->writer->append(r); });
  state->poll_interval_ns = options.poll_interval_ns;
  for (detail::CpuRing& ring : state->rings) ring.enable();
  auto capture = std::unique_ptr<BlockCapture>(new BlockCapture(std::move(state)));
  capture->m_thread = std::thread([s] { s->run(); });
  return capture;
}

BlockCapture::BlockCapture(std::unique_ptr<State> state) : m_state(std::move(state)) {}

BlockCapture::~BlockCapture() {
  try {
    stop("stopped");
  } catch (const std::exception&) {  // NOLINT(bugprone-empty-catch): destructors never throw
  }
}

CaptureTrailer BlockCapture::stop(const std::string& stop_reason) {
  State& s = *m_state;
  if (s.trailer) return *s.trailer;
  s.stop = true;
  if (m_thread.joinable()) m_thread.join();
  for (detail::CpuRing& ring : s.rings) ring.disable();
  // Whatever fails below (a full disk, a file that cannot be written), the rings are closed,
  // the trailer is kept (a second call returns it) and the first error is what is reported.
  std::string error = s.thread_error;
  CaptureTrailer t;
  try {
    s.drain_all(true);
    const std::lock_guard lock(s.mutex);
    s.assembler->finish();
    t.unmatched_issues = s.assembler->unmatched_issues();
    t.unmatched_completions = s.assembler->unmatched_completions();
    t.processes = s.assembler->processes();
  } catch (const std::exception& e) {
    if (error.empty()) error = e.what();
  }
  t.duration_ns = monotonic_ns() - s.header.t0_monotonic_ns;
  t.lost_events = s.lost;
  t.stop_reason = s.device_gone.load() ? "device_vanished" : stop_reason;
  s.rings.clear();
  s.trailer = t;
  if (error.empty()) {
    try {
      s.writer->finish(t);  // without it the file reads back as incomplete
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  t.records = s.writer->records();
  s.trailer = t;
  if (!error.empty()) throw SystemError("block IO capture failed: " + error);
  return t;
}

std::string BlockCapture::vanished() const {
  if (!m_state->device_gone.load()) return "";
  const std::lock_guard lock(m_state->mutex);
  return m_state->vanished;
}

CaptureStatus BlockCapture::status() const {
  return {m_state->records.load(), m_state->lost.load(), monotonic_ns() - m_state->header.t0_monotonic_ns};
}

const CaptureHeader& BlockCapture::header() const noexcept { return m_state->header; }

}  // namespace ptsuite::capture
