// Contract: the own block of the write-stream tests, "wsat" in the WSAT record (results schema
// "#/$defs/wsat_block", PTS 2.0.2 §10) and "endurance" in the endurance-write extension's: the
// workload, one entry per sample in run order (time, total written, drive fills, IOPS, MB/s,
// response times), why the stream stopped and the totals, and, under
// wsat.stop_rule=steady-state, the check samples' steady-state determination. The pts
// procedure builds it and writes it with to_json(); reporters and `compare` read it with
// read_write_stream(), tolerant like every results reader (results/json_read.hpp). Samples
// borrow their segment result and health from the document (results/embedded.hpp), which must
// outlive what read_write_stream() returns.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/results/embedded.hpp>
#include <ptsuite/results/response_times.hpp>
#include <ptsuite/results/steady_state.hpp>

namespace ptsuite::results {

struct WriteStreamSample {
  uint32_t sample = 0;      // 1-based
  double end_time_s = 0;    // since the stream started, write time only
  uint64_t tgbw_bytes = 0;  // total bytes written by the end of the sample
  double tgbw_gb = 0;       // the same in GB (10^9 B)
  double drive_fills = 0;   // tgbw_bytes / user capacity
  double iops = 0;
  double mb_per_s = 0;
  ResponseTimes latency;
  Embedded health;  // device health after the sample
  Embedded result;  // its SegmentResult
};

// wsat.stop_rule=steady-state: every round_samples-th sample is a Round's check sample.
struct WriteStreamSteadyState {
  uint32_t round_samples = 0;
  uint64_t rounds = 0;  // check samples taken
  uint32_t first_check_round = 0;
  uint32_t max_rounds = 0;
  std::vector<uint32_t> check_samples;
  bool attained = false;
  SteadyStateVerdictRecord verdict;  // of the last window judged
};

struct WriteStreamBlock {
  std::string workload;  // pts/tests/wsat.json "workloads" key: "rnd-4k-write", "cbw", ...
  Embedded segment;      // the SegmentSpec of one sample
  std::vector<WriteStreamSample> samples;
  std::string stop_reason;  // "capacity", "time_limit", "steady_state", "round_cap"
  uint64_t capacity_bytes = 0;
  uint64_t target_bytes = 0;  // capacity multiple x capacity; 0 without one
  uint64_t time_limit_ns = 0;
  uint64_t written_bytes = 0;
  uint64_t elapsed_ns = 0;
  std::optional<WriteStreamSteadyState> steady_state;
};

void to_json(nlohmann::json& j, const WriteStreamBlock& block);
void to_json(nlohmann::json& j, WriteStreamBlock&& block);  // releases its sub-documents (embedded.hpp)
WriteStreamBlock read_write_stream(const nlohmann::json& block);

}  // namespace ptsuite::results
