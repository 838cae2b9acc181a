// Contract: capture every block IO of one or more block devices while anything runs, into a
// capture file (capture/capture_file.hpp, docs/capture.md). The mechanism is the kernel's
// block tracepoints (block:block_bio_queue, block_rq_issue, block_rq_complete and, for
// bio-based devices, block_bio_complete) read through perf_event_open: one ring buffer per
// CPU, the kernel filters by device number ("dev == N"), records carry CLOCK_MONOTONIC
// timestamps. It needs no debugfs (blktrace's relay files are refused under kernel lockdown),
// no BPF compiler and no helper binary; docs/capture.md says why it was chosen and
// docs/performance.md what it costs.
//
// Lifecycle: start() checks and opens everything, writes the header and returns once the
// events are enabled (the caller then starts its workload); a thread drains the ring buffers
// every `poll_interval_ns`, merges the CPUs' events in time order, pairs them
// (capture/assembler.hpp) and appends records; stop() disables the events, drains the rest and
// writes the trailer (lost events, unmatched requests, process names). The records drained are
// written to the file after every drain, so a capture killed with SIGKILL reads back as
// incomplete with everything up to its last drain. The drain thread also checks every 250 ms
// that each device is still the one captured (capture/device_watch.hpp); once one vanished,
// vanished() says which and why and stop() writes the trailer with stop_reason
// "device_vanished" (callers end the capture when they see it: `ptsuite capture` exits 5).
// The destructor stops a capture that is still running (never throws). Needs root
// (system-wide perf events).
// start() throws SystemError (exit 5) naming what is missing; UsageError for a path that is
// not a block device.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <ptsuite/capture/capture_file.hpp>

namespace ptsuite::capture {

struct CaptureOptions {
  std::vector<std::string> devices;    // block devices; a partition is captured as its whole disk
  std::optional<OutputPath> output;    // the capture file (the output gate's token)
  std::string command;                 // recorded in the header
  uint32_t ring_pages_per_cpu = 1024;  // 4 MiB per CPU: ~40 k events of slack per CPU
  uint64_t poll_interval_ns = 50'000'000;
};

struct CaptureStatus {
  uint64_t records = 0;
  uint64_t lost_events = 0;
  uint64_t elapsed_ns = 0;
};

class BlockCapture {
 public:
  // Empty when captures can run here; else why not (no tracefs, no permission, ...).
  static std::string unavailable_reason();

  static std::unique_ptr<BlockCapture> start(const CaptureOptions& options);
  ~BlockCapture();
  BlockCapture(const BlockCapture&) = delete;
  BlockCapture& operator=(const BlockCapture&) = delete;

  // Ends the capture; returns the trailer written. `stop_reason`: "duration", "stopped",
  // "interrupted" ("device_vanished" replaces it once a device vanished). Idempotent: a second
  // call returns the same trailer. Throws SystemError when the file could not be written (the
  // rings are closed all the same; the file then reads back as incomplete).
  CaptureTrailer stop(const std::string& stop_reason = "stopped");
  // "" while every device is there; else e.g. "/dev/loop7 vanished during the capture after
  // 1.3 s: its size is now 0 (...)". Thread-safe.
  [[nodiscard]] std::string vanished() const;
  [[nodiscard]] CaptureStatus status() const;
  [[nodiscard]] const CaptureHeader& header() const noexcept;

  struct State;  // private, shared with the drain thread

 private:
  explicit BlockCapture(std::unique_ptr<State> state);
  std::unique_ptr<State> m_state;
  std::thread m_thread;
};

// The whole-disk device node and number of `path` (itself for a whole disk): what the
// tracepoints report. Throws UsageError unless `path` is a block device.
CaptureDevice describe_capture_device(const std::string& path);

}  // namespace ptsuite::capture
