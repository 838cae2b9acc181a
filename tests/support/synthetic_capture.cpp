// The known workload of the replay tests (support/synthetic_capture.hpp).
#include "support/synthetic_capture.hpp"

#include <ptsuite/capture/capture_file.hpp>
#include "support/test_outputs.hpp"

namespace ptsuite::test_support {

namespace {

constexpr uint64_t k_window_start_ns = 20'000'000;  // IOs in [20 ms, 180 ms) of each step
constexpr uint64_t k_window_ns = 160'000'000;
constexpr uint32_t k_sizes[3] = {4096, 16384, 65536};

uint64_t offset_of(uint64_t i) {
  // A fixed scatter (multiplicative hash) over the capacity, 64 KiB aligned so every size fits.
  return (i * 0x9E3779B97F4A7C15ULL >> 40) % (k_synthetic_capacity_bytes / 65536) * 65536;
}

}  // namespace

void write_synthetic_capture(const std::string& path) {
  capture::CaptureHeader header;
  header.source = "synthetic (tests)";
  header.devices.push_back({"/dev/synthetic", 259, 0, k_synthetic_capacity_bytes, 512, true, "", ""});
  capture::CaptureWriter writer(output_path(path), header);
  uint64_t n = 0;
  const auto add = [&](uint64_t t, capture::IoOp op, uint32_t size, uint64_t latency_ns) {
    capture::IoRecord r;
    r.issue_ns = t;
    r.complete_ns = t + latency_ns;
    r.offset_bytes = offset_of(n++);
    r.length_bytes = size;
    r.op = op;
    writer.append(r);
  };
  for (uint64_t i = 0; i < 200; ++i) {  // step 0: 70 % reads (i mod 10 < 7), sizes cycling
    add(k_window_start_ns + i * k_window_ns / 200, i % 10 < 7 ? capture::IoOp::read : capture::IoOp::write,
        k_sizes[i % 3], 40'000);
  }
  for (uint64_t b = 0; b < 100; ++b) {  // step 1: bursts of 4 at one time, 2 reads + 2 writes
    const uint64_t t = k_synthetic_step_ns + k_window_start_ns + b * k_window_ns / 100;
    for (uint64_t j = 0; j < 4; ++j) {
      add(t, j % 2 == 0 ? capture::IoOp::read : capture::IoOp::write, k_sizes[(b + j) % 3], 100'000);
    }
  }
  capture::IoRecord flush;
  flush.issue_ns = 2 * k_synthetic_step_ns + 1'000'000;
  flush.complete_ns = flush.issue_ns + 10'000;
  flush.op = capture::IoOp::flush;
  writer.append(flush);
  for (uint64_t i = 0; i < 100; ++i) {  // step 2: reads, 4 KiB
    add(2 * k_synthetic_step_ns + k_window_start_ns + i * k_window_ns / 100, capture::IoOp::read, 4096, 40'000);
  }
  capture::CaptureTrailer trailer;
  trailer.duration_ns = 3 * k_synthetic_step_ns;
  trailer.stop_reason = "duration";
  writer.finish(trailer);
}

}  // namespace ptsuite::test_support
