// A capture file of a known workload, written through CaptureWriter, for the replay tests:
// steps of 200 ms on a 64 MiB device, each step's IOs evenly spaced in its middle 160 ms (so a
// replay lagging less than 20 ms keeps every IO in its step):
//   step 0: 200 IOs, 70 % reads, sizes 4 / 16 / 64 KiB cycling, one IO at a time
//   step 1: 400 IOs, 50 % reads, in bursts of 4 issued together (4 in flight in the capture)
//   step 2: 100 IOs, reads only, 4 KiB
// plus one flush (not replayable). Completions 40 us after issue (100 us in bursts).
#pragma once

#include <cstdint>
#include <string>

namespace ptsuite::test_support {

inline constexpr uint64_t k_synthetic_step_ns = 200'000'000;
inline constexpr uint64_t k_synthetic_capacity_bytes = 64ULL << 20;
inline constexpr uint64_t k_synthetic_replayable_ios = 700;

// Writes the capture to `path`.
void write_synthetic_capture(const std::string& path);

}  // namespace ptsuite::test_support
