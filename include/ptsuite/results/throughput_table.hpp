// Contract: the Throughput test's own block, "table" in its record (results schema
// "#/$defs/throughput_table"): one row per block size with the SEQ read and write MB/s
// (10^6 B/s) of that block size's measurement window (or final Round). The pts procedure
// builds the rows and writes them with to_json(); reporters and `compare` read them with
// read_throughput_table(), tolerant like every results reader (results/json_read.hpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ptsuite::results {

struct ThroughputRow {
  std::string block_size;                // as the results spell it: "1MiB", "128KiB"
  uint64_t block_size_bytes = 0;         // 0 when the document lacks it
  double read_mb_per_s = std::nan("");   // NaN: the test data ran no read mix
  double write_mb_per_s = std::nan("");  // NaN: no write mix
};

// A NaN direction is left out of the row.
void to_json(nlohmann::json& j, const ThroughputRow& row);
std::vector<ThroughputRow> read_throughput_table(const nlohmann::json& block);

}  // namespace ptsuite::results
