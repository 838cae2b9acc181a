// Contract: the capture file (docs/capture.md, "File"): a fixed preamble, a JSON header, the
// IO records (capture/io_record.hpp, 48 bytes each, in issue order), then a JSON trailer and a
// footer that points at it. Written by CaptureWriter while a capture runs (records append as
// they complete, so a capture of hours never sits in memory) and read back by CaptureReader,
// which streams the records in batches: `capture show`, app runs' characterization, and the
// replay of issue 27 read through it.
//
// Durability: the writer's constructor puts the preamble and header on disk (written and
// fdatasync'ed) before it returns, so a capture's header is there before its first event;
// flush() hands the buffered records to the kernel (a live capture calls it after every drain
// of the rings, so a writer killed with SIGKILL leaves every record up to its last drain).
// A file whose writer died (kill -9, power loss) has no trailer: the reader still reads every
// whole record and says so (trailer() empty, complete() false).
// Hostile files (docs/capture.md, "Reading untrusted files"): the reader bounds every length
// before it allocates (a header of at most k_max_header_bytes, a trailer of at most
// k_max_trailer_bytes, both within the file), parses the JSON parts through util/json_input
// (64 levels), refuses another format than ptsuite-capture/1, members of the wrong type, and a
// trailer or footer that does not match the records between them: UsageError (exit 2) naming
// the file and what is wrong. Writers throw SystemError on IO errors (the first error is kept:
// every later call throws it again, nothing more is written).
// Not thread-safe: one thread per writer or reader.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/capture/io_record.hpp>
#include <ptsuite/util/output_file.hpp>

namespace ptsuite::capture {

inline constexpr char k_format[] = "ptsuite-capture/1";
// The JSON parts' bounds: ptsuite's own headers are under 2 KiB (a device list of a few
// entries); a trailer lists the processes seen, ~40 bytes each, so 16 MiB is ~400,000 pids.
inline constexpr size_t k_max_header_bytes = 1ULL << 20;
inline constexpr size_t k_max_trailer_bytes = 16ULL << 20;

// One traced block device; IoRecord::device is its index in CaptureHeader::devices.
struct CaptureDevice {
  std::string path;  // "/dev/nvme0n1"
  uint32_t major = 0;
  uint32_t minor = 0;
  uint64_t capacity_bytes = 0;
  uint32_t logical_block_bytes = 512;
  bool request_based = true;  // blk-mq: issue (D) events; false: bio-based (zram, dm), Q only
  std::string model;
  std::string serial;
};

struct CaptureHeader {
  std::string format = k_format;
  std::string source;            // "block-tracepoints (perf_event_open)", "blktrace", "fio-iolog"
  std::string started_utc;       // wall clock at t0
  uint64_t t0_monotonic_ns = 0;  // CLOCK_MONOTONIC at t0 (record times are relative to it)
  std::string kernel;            // uname -r
  std::string host;
  std::vector<std::string> events;  // the kernel events used, e.g. "block:block_rq_issue"
  std::vector<CaptureDevice> devices;
  std::string command;  // how the capture was made (disclosure)
};

struct ProcessName {
  uint32_t pid = 0;
  std::string comm;
};

struct CaptureTrailer {
  uint64_t duration_ns = 0;
  uint64_t records = 0;
  uint64_t lost_events = 0;            // the kernel dropped them (ring buffer full)
  uint64_t unmatched_issues = 0;       // issued, never completed (record flag `unmatched`)
  uint64_t unmatched_completions = 0;  // completed, never seen issued (not recorded)
  std::vector<ProcessName> processes;  // pid -> command name at queue time
  std::string stop_reason;             // "duration", "stopped", "interrupted", "device_vanished"
};

nlohmann::json to_json(const CaptureHeader& header);
// Strict: `where` names the part in errors ("FILE: header"); UsageError for a member of the
// wrong type, a missing or unknown `format`, a `devices` that is not a list of objects.
CaptureHeader read_header(const nlohmann::json& j, const std::string& where = "capture header");
nlohmann::json to_json(const CaptureTrailer& trailer);
CaptureTrailer read_trailer(const nlohmann::json& j, const std::string& where = "capture trailer");

// The one place a capture file is opened for writing: a new file beside `out` (the output
// gate's token, util/output_file.hpp), published under its name by StreamedFile::publish().
StreamedFile open_capture_output(const OutputPath& out);

class CaptureWriter {
 public:
  // Creates the file through the one writer (open_capture_output; `out` is the output gate's
  // token): the preamble and header are written and fsynced under a temporary name beside it
  // and then published under its name, so the file at `out` is a capture with its header on
  // disk from its first byte, before the caller enables any event; records are appended after.
  CaptureWriter(const OutputPath& out, const CaptureHeader& header);
  ~CaptureWriter();
  CaptureWriter(const CaptureWriter&) = delete;
  CaptureWriter& operator=(const CaptureWriter&) = delete;

  void append(const IoRecord& record);
  // Writes the buffered records to the file (the kernel's page cache: they survive a SIGKILL).
  void flush();
  [[nodiscard]] uint64_t records() const noexcept { return m_records; }
  // Writes the trailer (its `records` is set from what was appended) and the footer, flushes
  // and closes. Without finish() the file ends after the last record (an incomplete capture).
  void finish(CaptureTrailer trailer);

 private:
  void write_all(const void* data, size_t n);
  std::string m_path;
  StreamedFile m_file;
  bool m_finished = false;
  std::vector<uint8_t> m_buffer;
  uint64_t m_records = 0;
  uint64_t m_written_bytes = 0;  // the file's length so far (the trailer's offset)
  int m_error = 0;               // the first write error (errno); later calls throw it again
};

class CaptureReader {
 public:
  explicit CaptureReader(const std::string& path);
  // A capture held in memory (an embedded reference capture, pts/captures/); `bytes` must
  // outlive the reader, `name` names it in errors.
  CaptureReader(std::string_view bytes, const std::string& name);
  ~CaptureReader();
  CaptureReader(const CaptureReader&) = delete;
  CaptureReader& operator=(const CaptureReader&) = delete;

  [[nodiscard]] const CaptureHeader& header() const noexcept { return m_header; }
  [[nodiscard]] const std::optional<CaptureTrailer>& trailer() const noexcept { return m_trailer; }
  [[nodiscard]] bool complete() const noexcept { return m_trailer.has_value(); }
  [[nodiscard]] uint64_t record_count() const noexcept { return m_record_count; }

  // Up to out.size() next records; 0 at the end.
  size_t read(std::span<IoRecord> out);
  // Back to the first record.
  void rewind();

 private:
  void open(uint64_t size);          // reads the preamble, header and trailer of m_file (size bytes)
  void open_trailer(uint64_t size);  // sets m_trailer and m_data_end when the file has a footer
  std::string m_path;
  std::FILE* m_file = nullptr;
  CaptureHeader m_header;
  std::optional<CaptureTrailer> m_trailer;
  uint64_t m_data_offset = 0;
  uint64_t m_data_end = 0;
  uint64_t m_record_count = 0;
  uint64_t m_next = 0;
  std::vector<uint8_t> m_buffer;
};

// Every record of a (small) capture file, for tests and tools.
std::vector<IoRecord> read_all_records(const std::string& path);

}  // namespace ptsuite::capture
