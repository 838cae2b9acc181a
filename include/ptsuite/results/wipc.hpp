// Contract: a workload-independent preconditioning (WIPC) record, one entry of a test record's
// "preconditioning" (results schema "#/$defs/wipc", PTS 2.0.2 §2.4 / pts-spec.md): the
// sequential pass of wipc.capacity_multiple x the user capacity written in `block_size_bytes`
// blocks, and - only under the PTS-C option wipc.random - the random pass that follows it.
// Each pass carries its segment spec and result as written by pts (results/embedded.hpp).
// pts builds it (test_procedure.hpp wipc_step()) and writes it with to_json(); reporters read it with
// read_wipc() / read_wipcs(), tolerant like every results reader (missing counts 0, missing
// multiples NaN); spec and result are borrowed from the document, which must outlive the record.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/results/embedded.hpp>

namespace ptsuite::results {

struct WipcPass {
  uint64_t block_size_bytes = 0;
  double capacity_multiple = 0;  // x user capacity
  uint64_t bytes_target = 0;     // the multiple's bytes, rounded down to whole blocks per thread
  Embedded spec;                 // its SegmentSpec (pts/segment.hpp)
  Embedded result;               // its SegmentResult

  // Bytes the pass wrote (its result's write summary); nullopt when the result has none.
  [[nodiscard]] std::optional<uint64_t> written_bytes() const;
};

struct WipcRecord {
  std::string phase;  // "main", a Throughput block size ("1MiB"), a claims point id
  WipcPass pass;      // the sequential (wipc/pattern) pass
  std::optional<WipcPass> random_pass;
};

void to_json(nlohmann::json& j, const WipcRecord& w);
void to_json(nlohmann::json& j, WipcRecord&& w);  // releases the passes' spec and result (embedded.hpp)
WipcRecord read_wipc(const nlohmann::json& wipc);
// Every entry of a record's "preconditioning" array, in order; empty unless an array.
std::vector<WipcRecord> read_wipcs(const nlohmann::json& preconditioning);

}  // namespace ptsuite::results
