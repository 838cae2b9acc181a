// Contract: the record of one replay of a captured workload on a target (docs/replay.md):
// what was replayed (capture file, source, device), where (target, engine, queue slots), how
// (mode open / closed, speed, LBA remap, the lag threshold: named settings, disclosed), and the
// faithfulness measured per step of the capture's own step length: IOs, IOPS, MB/s, R/W mix,
// the exact block-size distribution and the outstanding IOs of the capture next to the
// replay's, the issue-time error (replayed issue time - scheduled time: p50 / p99 / max) and a
// "could not keep up" flag per step. replay/replay_runner.hpp fills it; `ptsuite replay` writes
// it as the "ptsuite.replay" document; report/replay_report.hpp renders it. to_json() and
// read_replay() agree field for field; the reader is tolerant like every results reader
// (results/json_read.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/attestation.hpp>

namespace ptsuite::results {

inline constexpr char k_replay_kind[] = "ptsuite.replay";

// IOs of one transfer size in a step (the block-size distribution, exact).
struct SizeCount {
  uint32_t size_bytes = 0;
  uint64_t ios = 0;
  friend bool operator==(const SizeCount&, const SizeCount&) = default;
};

// The figures of one step, measured the same way on the capture and on the replay.
struct ReplayFigures {
  uint64_t ios = 0;
  uint64_t read_ios = 0;
  uint64_t write_ios = 0;
  uint64_t bytes = 0;
  uint64_t length_ns = 0;  // the time the figures are per (the replay's: captured length / speed)
  double iops = 0;
  double mb_per_s = 0;           // 10^6 bytes per second
  double read_pct = 0;           // reads of reads + writes, 0..100
  double outstanding_mean = 0;   // time-weighted IOs in flight (issued, not completed)
  uint32_t outstanding_max = 0;  // most in flight seen at an issue
  std::vector<SizeCount> sizes;  // ascending size
};

struct ReplayStep {
  uint64_t start_ns = 0;  // on the capture's timeline (since its t0)
  uint64_t length_ns = 0;
  ReplayFigures captured;
  ReplayFigures replayed;
  // replayed issue time - scheduled issue time, ns (open loop only; 0 in closed loop)
  uint64_t issue_error_p50_ns = 0;
  uint64_t issue_error_p99_ns = 0;
  uint64_t issue_error_max_ns = 0;
  bool fell_behind = false;  // "could not keep up": lag at the step's end above the threshold
};

// A named setting the run used (each [U]: ptsuite's choice, not an RWSW value).
struct ReplaySetting {
  std::string name;
  std::string value;
  std::string note;
};

struct ReplayRecord {
  std::string kind = k_replay_kind;
  std::string tool_version;  // "0.1.0 (5e4cd98)" of `ptsuite replay`; "" inside a scenario's replay phase
  std::string started_utc;
  std::string finished_utc;  // "" inside a scenario's replay phase
  std::string command;
  std::string capture_file;
  std::string capture_source;
  std::string capture_device;
  uint64_t capture_capacity_bytes = 0;
  bool capture_complete = true;
  std::string target;
  std::string target_note;         // e.g. the scratch target's description
  nlohmann::json target_identity;  // the target's identity (device/identity.hpp), null when not recorded
  uint64_t target_capacity_bytes = 0;
  std::string engine;
  std::string mode;  // "open" or "closed"
  double speed = 1;
  uint32_t queue_slots = 0;
  uint64_t step_ns = 0;
  uint64_t seed = 0;
  std::vector<ReplaySetting> settings;
  uint64_t capture_ios = 0;   // records of the replayed device
  uint64_t replayed_ios = 0;  // reads and writes issued
  uint64_t skipped_ios = 0;   // discard, flush, write-zeroes, other: not replayed (disclosed)
  uint64_t resized_ios = 0;   // length rounded up to the target's logical block
  uint64_t remapped_ios = 0;  // offset moved to fit the target's capacity
  uint64_t duration_ns = 0;   // replay wall time
  uint64_t issue_error_p50_ns = 0;
  uint64_t issue_error_p99_ns = 0;
  uint64_t issue_error_max_ns = 0;
  uint64_t steps_fell_behind = 0;
  std::string stop_reason;  // "complete", "interrupted", "io_error"
  std::string error;        // the first IO error, when stop_reason is io_error
  std::vector<ReplayStep> steps;
  std::optional<AttestationRecord> attestation;  // once signed (`ptsuite sign`)
};

void to_json(nlohmann::json& j, const ReplayRecord& r);
ReplayRecord read_replay(const nlohmann::json& j);

}  // namespace ptsuite::results
