// Contract: the Cross Stimulus Recovery test's own block, "xsr" in its record (results schema
// "#/$defs/xsr_block", PTS 2.0.2 §12): the three access groups with their totals, every sample
// of every group in run order, and the recovery of group 3 against group 1. The pts procedure
// builds it and writes it with to_json(); reporters and `compare` read it with read_xsr(),
// tolerant like every results reader (results/json_read.hpp): missing counts read 0, missing
// rates NaN. Samples borrow their segment result and health from the document
// (results/embedded.hpp), so the document must outlive what read_xsr() returns.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/results/embedded.hpp>

namespace ptsuite::results {

struct XsrGroup {
  std::string name;      // "access-1"
  std::string label;     // the segment label
  std::string stimulus;  // "SEQ 1MiB 100% W"
  Embedded spec;         // the SegmentSpec of one sample of the group
  uint64_t duration_ns = 0;
  uint32_t samples = 0;
  uint32_t first_sample = 0;  // 1-based index into XsrBlock::samples
  uint64_t write_bytes = 0;
  uint64_t elapsed_ns = 0;
  double average_mb_per_s = 0;  // write_bytes over elapsed, MB = 10^6 B
  double end_mb_per_s = 0;      // the group's last sample
  double peak_latency_mean_ns = 0;
  uint64_t peak_latency_max_ns = 0;
};

struct XsrSample {
  uint32_t sample = 0;  // 1-based over the whole test
  std::string group;
  double end_s = 0;        // since the test's first sample started
  double group_end_s = 0;  // since the group's first sample started
  double mb_per_s = 0;     // write MB/s
  double iops = 0;
  double latency_mean_ns = 0;
  uint64_t latency_p99_999_ns = 0;
  uint64_t latency_max_ns = 0;
  Embedded health;  // device health after the sample
  Embedded result;  // its SegmentResult
};

struct XsrRecovery {
  std::string reference;  // "access-1-average" or "access-1-end" (pts/tests/xsr.json)
  double threshold_pct = 0;
  double reference_mb_per_s = 0;
  double threshold_mb_per_s = 0;
  std::string group;  // the group that must recover: the last one
  bool recovered = false;
  std::optional<double> recovery_time_s;    // into `group`, when recovered
  std::optional<uint32_t> recovery_sample;  // 1-based sample index, when recovered
};

struct XsrBlock {
  std::vector<XsrGroup> groups;
  std::vector<XsrSample> samples;
  uint64_t sample_duration_ns = 0;
  XsrRecovery recovery;
};

void to_json(nlohmann::json& j, const XsrBlock& block);
void to_json(nlohmann::json& j, XsrBlock&& block);  // releases its sub-documents (embedded.hpp)
XsrBlock read_xsr(const nlohmann::json& block);

}  // namespace ptsuite::results
