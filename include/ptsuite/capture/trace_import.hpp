// Contract: other tools' traces -> the capture format (docs/replay.md, "Imports"), so they
// characterize and replay like ptsuite's own captures:
//   fio iolog v2 ("fio version 2 iolog": `file action [offset length]`, `wait` in us relative to
//   the previous wait) and v3 ("fio version 3 iolog": a leading timestamp in us since the run's
//   start, as fio 3.33 writes it) -> one record per read / write / trim / sync / datasync,
//   issue_ns from the time, device = the file's index in `add` order, flag queue_time_only,
//   no completion; capacity = the largest offset + length seen (an iolog names no size).
//   blktrace binary (the per-CPU files `blktrace` writes, or one `blkparse -d` dump): struct
//   blk_io_trace records (48 bytes, native endian, magic 0x65617400 | version 0x07, then
//   pdu_len payload bytes) or version 0x08 blk_io_trace2 (64 bytes, 64-bit action); queue (1),
//   issue (7) and complete (8) actions of data requests go through the capture's Assembler
//   (capture/assembler.hpp), so pairing is the same as a live capture's; notify records and
//   other actions are skipped. Devices by their dev_t (MAJOR = dev >> 20, MINOR = dev & 0xfffff)
//   in order of first appearance; times relative to the first event.
// detect_trace_format() looks at the first bytes only. Inputs are regular files (each is read
// twice: detection, import); a pipe or device is refused (util/line_reader.hpp). Memory is
// bounded: iolog lines at 8 KiB each, blktrace read in 1 MiB chunks (a record is at most
// 64 + 65535 bytes); what is kept is the records (about the file's size). A blktrace file whose
// last record is partial (blktrace stopped mid-write) imports what is whole and says so in
// `warnings`. Importers throw UsageError naming the file and line (or byte offset) of anything
// they cannot read; SystemError on IO errors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <ptsuite/util/output_file.hpp>

namespace ptsuite::capture {

enum class TraceFormat : uint8_t { ptsuite_capture, fio_iolog, blktrace, unknown };

TraceFormat detect_trace_format(const std::string& path);

struct ImportSummary {
  uint64_t records = 0;
  uint64_t skipped = 0;               // lines or events that are not IOs (file actions, notify, merges ...)
  std::string source;                 // what the header's `source` says
  std::vector<std::string> warnings;  // what was read but not whole (a truncated last record)
};

ImportSummary import_fio_iolog(const std::string& path, const OutputPath& out_capture);
ImportSummary import_blktrace(const std::vector<std::string>& paths, const OutputPath& out_capture);

}  // namespace ptsuite::capture
