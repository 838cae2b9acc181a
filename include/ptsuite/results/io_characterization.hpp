// Contract: the characterization of a block IO capture (docs/capture.md, "Characterization"),
// the way SNIA's RWSW describes a workload: its IO streams (RND/SEQ x transfer size x
// operation) with their shares of IOs and bytes, the streams that cover >= 80 % of the IOs,
// and per time step the IOs, IOPS, MB/s, queue depth, latency, the top streams' IOs and an LBA
// heat map. capture/characterize.hpp computes it; `ptsuite capture show`, the app run's
// results and the report's capture pages read it. to_json() writes the "ptsuite.capture_
// characterization" document (schema pts/schema/capture.schema.json); read_io_characterization()
// is tolerant like every results reader (results/json_read.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/attestation.hpp>

namespace ptsuite::results {

inline constexpr char k_characterization_kind[] = "ptsuite.capture_characterization";

struct IoStreamStats {
  std::string name;  // "RND 4KiB R", "SEQ 128KiB W", "FLUSH"
  bool sequential = false;
  uint32_t size_bytes = 0;
  std::string op;  // "read", "write", "discard", "flush", "write_zeroes", "other"
  uint64_t ios = 0;
  uint64_t bytes = 0;
  double io_share = 0;    // of all IOs, 0..1
  double byte_share = 0;  // of all bytes, 0..1
  double latency_mean_ns = 0;
  uint64_t latency_max_ns = 0;
};

struct CharacterizationStep {
  uint64_t start_ns = 0;  // since the capture's start (t0); the first step starts at the origin
  uint64_t length_ns = 0;
  // The last step when the capture ended inside it (length_ns < step_ns): its rates are over its
  // own length, and charts draw it only when it lasts at least half a step.
  bool partial = false;
  uint64_t ios = 0;
  uint64_t bytes = 0;
  uint64_t read_ios = 0;
  uint64_t write_ios = 0;
  double iops = 0;
  double mb_per_s = 0;         // 10^6 bytes
  double qd_mean = 0;          // time-weighted requests in flight (issued, not completed)
  uint32_t qd_max = 0;         // most in flight at an issue
  double latency_mean_ns = 0;  // issue -> completion
  uint64_t latency_p50_ns = 0;
  uint64_t latency_p99_ns = 0;
  uint64_t latency_max_ns = 0;
  std::vector<uint64_t> stream_ios;    // IOs of streams[0..k) (the top streams), then one "other"
  std::vector<uint64_t> stream_bytes;  // their bytes, in the same order
  std::vector<uint64_t> lba_ios;       // IOs per LBA bin (heat map row)
};

struct ProcessShare {
  uint32_t pid = 0;
  std::string comm;
  uint64_t ios = 0;
  double io_share = 0;
};

struct IoCharacterization {
  std::string kind = k_characterization_kind;
  std::string tool_version;     // of `ptsuite capture`, which writes it as its run's document; else ""
  std::string capture_command;  // that capture's command line; else ""
  std::string capture_file;
  std::string source;  // the capture's mechanism
  std::string device;  // the (first) device's path
  uint64_t capacity_bytes = 0;
  std::string started_utc;
  uint64_t duration_ns = 0;  // from the capture's start (t0) to its end
  // Where the steps start, since t0: the capture's first event, or the workload's start when the
  // caller knows it (an app run's measured period); rates and the QD mean are over origin..end.
  uint64_t origin_ns = 0;
  uint64_t step_ns = 0;
  uint32_t seq_lookback = 0;  // an IO is SEQ when it starts where one of the last N of its
                              // device and operation ended
  uint32_t lba_bins = 0;
  // Totals.
  uint64_t ios = 0;
  uint64_t bytes = 0;
  uint64_t read_ios = 0;
  uint64_t write_ios = 0;
  uint64_t other_ios = 0;  // flush, discard, write-zeroes, other
  double iops = 0;
  double mb_per_s = 0;
  double qd_mean = 0;
  uint32_t qd_max = 0;
  double latency_mean_ns = 0;
  uint64_t latency_p50_ns = 0;
  uint64_t latency_p99_ns = 0;
  uint64_t latency_p999_ns = 0;
  uint64_t latency_max_ns = 0;
  uint32_t min_size_bytes = 0;  // over data IOs
  uint32_t max_size_bytes = 0;
  // What the capture could not see (never silent).
  uint64_t lost_events = 0;
  uint64_t unmatched_issues = 0;
  uint64_t unmatched_completions = 0;
  bool capture_complete = true;  // the capture file has its trailer
  std::string stop_reason;       // the trailer's: "duration", ..., "device_vanished"; "" without one
  // Streams, most IOs first; the first `streams_for_80pct` cover >= 80 % of the IOs.
  std::vector<IoStreamStats> streams;
  uint32_t streams_for_80pct = 0;
  uint32_t step_streams = 0;  // how many top streams the steps' stream_ios list
  std::vector<CharacterizationStep> steps;
  std::vector<ProcessShare> processes;           // most IOs first
  std::optional<AttestationRecord> attestation;  // once signed (`ptsuite sign`)
};

void to_json(nlohmann::json& j, const IoCharacterization& c);
IoCharacterization read_io_characterization(const nlohmann::json& j);

}  // namespace ptsuite::results
