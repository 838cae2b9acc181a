// blktrace binary files -> capture file (capture/trace_import.hpp). The record layout is the
// documented struct blk_io_trace of <linux/blktrace_api.h> (read field by field here):
//   v7, 48 bytes: u32 magic, u32 sequence, u64 time, u64 sector, u32 bytes, u32 action,
//                 u32 pid, u32 device, u32 cpu, u16 error, u16 pdu_len
//   v8, 64 bytes: u32 magic, u32 sequence, u64 time, u64 sector, u32 bytes, u32 pid,
//                 u64 action, u32 device, u32 cpu, u16 error, u16 pdu_len, 12 pad bytes
// action: low 16 bits the action code, the bits above the category mask (BLK_TC_* << 16).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

#include <ptsuite/capture/assembler.hpp>
#include <ptsuite/capture/capture_file.hpp>
#include <ptsuite/capture/trace_import.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/fd.hpp>
#include <ptsuite/util/line_reader.hpp>

namespace ptsuite::capture {

namespace {

constexpr uint32_t k_magic = 0x65617400;  // "eat" | version byte
constexpr uint32_t k_v7 = 0x07;
constexpr uint32_t k_v8 = 0x08;
constexpr size_t k_v7_bytes = 48;
constexpr size_t k_v8_bytes = 64;
// Action codes (low 16 bits).
constexpr uint32_t k_act_queue = 1;
constexpr uint32_t k_act_issue = 7;
constexpr uint32_t k_act_complete = 8;
// Category bits (action >> 16).
constexpr uint64_t k_tc_read = 1U << 0;
constexpr uint64_t k_tc_write = 1U << 1;
constexpr uint64_t k_tc_flush = 1U << 2;
constexpr uint64_t k_tc_sync = 1U << 3;
constexpr uint64_t k_tc_notify = 1U << 10;
constexpr uint64_t k_tc_ahead = 1U << 11;
constexpr uint64_t k_tc_meta = 1U << 12;
constexpr uint64_t k_tc_discard = 1U << 13;
constexpr uint64_t k_tc_fua = 1U << 15;

template <typename T>
T field(const uint8_t* p, size_t offset) {
  T v;
  std::memcpy(&v, p + offset, sizeof v);  // native endian, as blktrace writes
  return v;
}

struct RawEvent {
  uint64_t time_ns = 0;
  uint64_t sector = 0;
  uint32_t bytes = 0;
  uint64_t action = 0;
  uint32_t pid = 0;
  uint32_t device = 0;
  uint32_t cpu = 0;
  uint16_t error = 0;
};

// One record at p (size bytes, v8 or v7 layout).
RawEvent event_of(const uint8_t* p, bool v8) {
  RawEvent e;
  e.time_ns = field<uint64_t>(p, 8);
  e.sector = field<uint64_t>(p, 16);
  e.bytes = field<uint32_t>(p, 24);
  if (v8) {
    e.pid = field<uint32_t>(p, 28);
    e.action = field<uint64_t>(p, 32);
    e.device = field<uint32_t>(p, 40);
    e.cpu = field<uint32_t>(p, 44);
    e.error = field<uint16_t>(p, 48);
  } else {
    e.action = field<uint32_t>(p, 28);
    e.pid = field<uint32_t>(p, 32);
    e.device = field<uint32_t>(p, 36);
    e.cpu = field<uint32_t>(p, 40);
    e.error = field<uint16_t>(p, 44);
  }
  return e;
}

// Every event of one file, read in chunks of k_chunk_bytes: a record is at most 64 + 65535
// (pdu_len is 16 bits) bytes, so the buffer (chunk + one largest record) always holds the next
// whole record and memory stays at the events themselves. A partial record at the end (a
// blktrace stopped mid-write) is ignored and said in `warnings`; the file's name in errors.
constexpr size_t k_chunk_bytes = 1 << 20;
constexpr size_t k_largest_record_bytes = k_v8_bytes + UINT16_MAX;
// Sector numbers times 512 must fit 64 bits: below 2^55 (16 EiB).
constexpr uint64_t k_sector_limit = 1ULL << 55;

void read_events(const std::string& path, std::vector<RawEvent>& out, std::vector<std::string>& warnings) {
  const UniqueFd fd = open_regular_file(path, "trace");
  std::vector<uint8_t> buf(k_chunk_bytes + k_largest_record_bytes);
  size_t have = 0;    // bytes in buf
  uint64_t base = 0;  // file offset of buf[0]
  bool eof = false;
  for (size_t at = 0;;) {
    if (!eof && have - at < k_largest_record_bytes) {  // keep a whole record ahead of `at`
      std::memmove(buf.data(), buf.data() + at, have - at);
      base += at;
      have -= at;
      at = 0;
      const ssize_t n = ::read(fd.get(), buf.data() + have, buf.size() - have);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw SystemError(fmt::format("cannot read {}: {}", path, std::strerror(errno)));
      eof = n == 0;
      have += static_cast<size_t>(n);
      continue;
    }
    if (at == have) return;
    const uint8_t* p = buf.data() + at;
    const uint32_t magic = have - at >= 4 ? field<uint32_t>(p, 0) : 0;
    const bool v8 = (magic & 0xff) == k_v8;
    const size_t size = v8 ? k_v8_bytes : k_v7_bytes;
    if (have - at >= 4 && ((magic & 0xffffff00U) != k_magic || ((magic & 0xff) != k_v7 && !v8))) {
      throw UsageError("trace", fmt::format("{}: byte {}: not a blktrace v7/v8 record (magic {:#x}): give the "
                                            "per-CPU files blktrace wrote, or a `blkparse -d` dump",
                                            path, base + at, magic));
    }
    if (have - at < size || have - at < size + field<uint16_t>(p, v8 ? 50 : 46)) {
      warnings.push_back(
          fmt::format("the last {} bytes of {} are a partial record (a blktrace stopped while "
                      "writing?): ignored",
                      have - at, path));
      return;
    }
    const RawEvent e = event_of(p, v8);
    if (e.sector >= k_sector_limit) {
      throw UsageError("trace", fmt::format("{}: byte {}: sector {} is beyond any device", path, base + at, e.sector));
    }
    out.push_back(e);
    at += size + field<uint16_t>(p, v8 ? 50 : 46);
  }
}

// The operation and flag bits of a category mask.
void op_of(uint64_t category, IoOp& op, uint8_t& flags) {
  flags = 0;
  if ((category & k_tc_discard) != 0) {
    op = IoOp::discard;
  } else if ((category & k_tc_write) != 0) {
    op = IoOp::write;
  } else {
    op = IoOp::read;
  }
  if ((category & k_tc_sync) != 0) flags |= io_flag::sync;
  if ((category & k_tc_fua) != 0) flags |= io_flag::fua;
  if ((category & k_tc_meta) != 0) flags |= io_flag::meta;
  if ((category & k_tc_ahead) != 0) flags |= io_flag::readahead;
  if ((category & k_tc_flush) != 0) flags |= io_flag::preflush;
}

}  // namespace

ImportSummary import_blktrace(const std::vector<std::string>& paths, const OutputPath& out_capture) {
  std::vector<RawEvent> events;
  std::vector<std::string> warnings;
  for (const std::string& p : paths) read_events(p, events, warnings);
  // Per-CPU files are each in time order; together they are merged by time.
  std::stable_sort(events.begin(), events.end(),
                   [](const RawEvent& a, const RawEvent& b) { return a.time_ns < b.time_ns; });
  CaptureHeader header;
  header.source = "blktrace";
  header.command =
      "imported from " + paths.front() + (paths.size() > 1 ? fmt::format(" and {} more", paths.size() - 1) : "");
  header.events = {"Q", "D", "C"};
  std::map<uint32_t, uint16_t> devices;
  std::vector<uint64_t> extent;
  for (const RawEvent& e : events) {
    if (((e.action >> 16) & k_tc_notify) != 0 || devices.contains(e.device)) continue;
    devices.emplace(e.device, static_cast<uint16_t>(devices.size()));
    CaptureDevice d;
    d.major = e.device >> 20;
    d.minor = e.device & 0xfffff;
    d.path = fmt::format("dev {}:{}", d.major, d.minor);
    header.devices.push_back(d);
    extent.push_back(0);
  }
  ImportSummary summary{0, 0, header.source, warnings};
  // A device without issue (D) events (bio-based, or traced with `-a queue` only) makes an IO
  // of each queue (Q) event, as a live capture of a bio-based device does.
  AssemblerOptions options;
  options.request_based.assign(header.devices.size(), false);
  for (const RawEvent& e : events) {
    if ((e.action & 0xffff) == k_act_issue && ((e.action >> 16) & k_tc_notify) == 0) {
      options.request_based[devices.at(e.device)] = true;
    }
  }
  std::vector<IoRecord> records;
  Assembler assembler(options, [&records](const IoRecord& r) { records.push_back(r); });
  const uint64_t t0 = events.empty() ? 0 : events.front().time_ns;
  for (const RawEvent& e : events) {
    const uint32_t code = e.action & 0xffff;
    const uint64_t category = e.action >> 16;
    if ((category & k_tc_notify) != 0 || (code != k_act_queue && code != k_act_issue && code != k_act_complete)) {
      ++summary.skipped;
      continue;
    }
    BlockEvent b;
    b.kind = code == k_act_queue ? EventKind::queue : code == k_act_issue ? EventKind::issue : EventKind::complete;
    b.time_ns = e.time_ns - t0;
    b.device = devices.at(e.device);
    b.sector = e.sector;
    b.bytes = e.bytes;
    op_of(category, b.op, b.flags);
    if (b.bytes == 0 && (category & k_tc_flush) != 0) b.op = IoOp::flush;
    b.pid = e.pid;
    b.cpu = static_cast<uint16_t>(e.cpu);
    // The kernel stores the negative errno in 16 bits.
    b.error = static_cast<int16_t>(e.error) < 0 ? static_cast<int16_t>(e.error) : -static_cast<int32_t>(e.error);
    const uint16_t d = b.device;
    extent[d] = std::max(extent[d], e.sector * 512 + e.bytes);
    assembler.add(b);
  }
  assembler.finish();
  for (size_t d = 0; d < header.devices.size(); ++d) header.devices[d].capacity_bytes = extent[d];
  CaptureWriter writer(out_capture, header);
  for (const IoRecord& r : records) writer.append(r);
  CaptureTrailer trailer;
  trailer.duration_ns = events.empty() ? 0 : events.back().time_ns - t0;
  trailer.unmatched_issues = assembler.unmatched_issues();
  trailer.unmatched_completions = assembler.unmatched_completions();
  trailer.processes = assembler.processes();
  trailer.stop_reason = "duration";
  writer.finish(trailer);
  summary.records = records.size();
  return summary;
}

TraceFormat detect_trace_format(const std::string& path) {
  const UniqueFd fd = open_regular_file(path, "capture");
  char head[20] = {};
  size_t got = 0;
  while (got < sizeof head) {
    const ssize_t n = ::read(fd.get(), head + got, sizeof head - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw SystemError(fmt::format("cannot read {}: {}", path, std::strerror(errno)));
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  if (got >= 8 && std::memcmp(head, "PTSCAPT1", 8) == 0) return TraceFormat::ptsuite_capture;
  if (got >= 13 && std::memcmp(head, "fio version ", 12) == 0) return TraceFormat::fio_iolog;
  if (got >= 4) {
    const uint32_t magic = field<uint32_t>(reinterpret_cast<const uint8_t*>(head), 0);
    if ((magic & 0xffffff00U) == k_magic && ((magic & 0xff) == k_v7 || (magic & 0xff) == k_v8)) {
      return TraceFormat::blktrace;
    }
  }
  return TraceFormat::unknown;
}

}  // namespace ptsuite::capture
