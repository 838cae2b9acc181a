// Contract: the record of one replay of a captured workload on a target (docs/replay.md):
// what was replayed (capture file, source, device), where (target, engine, queue slots), how
// (mode open / closed, speed, LBA remap, the lag threshold: named settings, disclosed), and the
// faithfulness measured per step of the capture's own step length: IOs, IOPS, MB/s, R/W mix,
// the exact block-size distribution and the outstanding IOs of the capture next to the
// replay's, the issue-time error (replayed issue time - scheduled time: p50 / p99 / max) and a
// "could not keep up" flag per step; and what the replay measured of the target: the response
// time of the replayed IOs per direction (mean, stddev, min, max, 50 / 99 / 99.9 / 99.99 %) and
// the IOPS achieved, per step and for the whole replay (ReplayLatency), and, for a rate ramp,
// one such measurement per rate (ReplayRamp: the load curve). `capture_id` names the capture's
// content (the SHA-256 of its records) so `compare` only ranks targets that replayed the same
// capture. replay/replay_runner.hpp fills it; `ptsuite replay` writes
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
#include <ptsuite/results/drive_identity.hpp>

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

// The response times of one direction's replayed IOs: ptsuite's submit to reap (host side, as
// every ptsuite latency), counted in the step the IO was issued in. Count, mean and standard
// deviation are exact (128-bit moments), min and max exact; the percentiles come from the
// log-linear histogram (<= 0.4 %, stats/latency_histogram.hpp) and are clamped into [min, max],
// so no percentile is ever above the maximum of the same IOs. iops and mb_per_s are per the
// length the figures are per (the step's replayed length_ns, or the replay's duration_ns).
struct ReplayDirectionLatency {
  uint64_t ios = 0;
  uint64_t bytes = 0;
  double iops = 0;
  double mb_per_s = 0;  // 10^6 bytes per second
  double mean_ns = 0;
  double stddev_ns = 0;  // sample standard deviation (n - 1)
  uint64_t min_ns = 0;
  uint64_t max_ns = 0;
  uint64_t p50_ns = 0;
  uint64_t p99_ns = 0;
  uint64_t p99_9_ns = 0;
  uint64_t p99_99_ns = 0;
  friend bool operator==(const ReplayDirectionLatency&, const ReplayDirectionLatency&) = default;
};

// Reads, writes and both merged (from the merged histograms and moments, never averaged).
struct ReplayLatency {
  ReplayDirectionLatency read;
  ReplayDirectionLatency write;
  ReplayDirectionLatency combined;
  friend bool operator==(const ReplayLatency&, const ReplayLatency&) = default;
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
  bool fell_behind = false;              // "could not keep up": lag at the step's end above the threshold
  std::optional<ReplayLatency> latency;  // the replayed IOs of the step; nullopt in older records
};

// One rate of a rate ramp: the whole capture replayed open loop at `speed`, chosen so that its
// mean rate is `percent` of the ramp's limit (target_iops), and what the target achieved.
struct RampPoint {
  double percent = 0;      // of the limit
  double speed = 0;        // the open loop's time scale
  double target_iops = 0;  // percent x limit: the capture's mean rate x speed
  uint64_t replayed_ios = 0;
  uint64_t duration_ns = 0;
  ReplayLatency latency;  // iops and mb_per_s per duration_ns: the rate achieved
  uint64_t steps = 0;
  uint64_t steps_fell_behind = 0;
  uint64_t issue_error_p50_ns = 0;
  uint64_t issue_error_p99_ns = 0;
  uint64_t issue_error_max_ns = 0;
  std::string stop_reason;  // "complete", "interrupted", "io_error"
};

// A rate ramp over the capture (`ptsuite replay --ramp`): the load curve of the target under
// the captured workload, from a low rate up to its limit.
struct ReplayRamp {
  double capture_iops = 0;        // the capture's replayable IOs over its span (first to last issue)
  double limit_iops = 0;          // 100 %: the closed-loop replay's IOPS (the record's own steps)
  std::string limit_source;       // "closed-loop replay"
  std::vector<RampPoint> points;  // in the order run (ascending percent)
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
  std::string capture_id;  // "sha256:<hex>" of the capture's records (capture/capture_file.hpp)
  std::string capture_source;
  std::string capture_device;
  uint64_t capture_capacity_bytes = 0;
  bool capture_complete = true;
  std::string target;
  std::string target_note;  // e.g. the scratch target's description
  uint64_t target_capacity_bytes = 0;
  DriveIdentity target_identity;  // the drive replayed on (device/identity.hpp); nullopt = unknown
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
  std::optional<ReplayLatency> latency;          // every replayed IO, per duration_ns; nullopt in older records
  std::optional<ReplayRamp> ramp;                // --ramp only
  std::optional<AttestationRecord> attestation;  // once signed (`ptsuite sign`)
};

void to_json(nlohmann::json& j, const ReplayRecord& r);
ReplayRecord read_replay(const nlohmann::json& j);
nlohmann::json to_json(const ReplayLatency& latency);
ReplayLatency read_replay_latency(const nlohmann::json& j);

}  // namespace ptsuite::results
