// Contract: the spec-sheet validation's own block, "validation" in the `claims` record
// (results schema "#/$defs/validation_block"; `ptsuite validate`, docs/validate.md, not a PTS
// test): the sheet as parsed, the measurement points (conditions, the claims they cover, the
// measured summary, steady state, where the measurement came from), one outcome per claim
// (declared, measured, margin, verdict), the totals, caveats and the overall verdict.
// pts/claims.hpp builds it (measured by the claims procedure, or judged on existing runs by
// pts/claims_from_runs.hpp) and it is written with to_json(); reporters and the cli read it
// with read_validation(), tolerant like every results reader (results/json_read.hpp). Points
// borrow their summary and read fill from the document (results/embedded.hpp), which must
// outlive what read_validation() returns.
// Units: declared / measured in the claim's `unit`: IOPS, MB/s (10^6 B/s) or us.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ptsuite/results/embedded.hpp>

namespace ptsuite::results {

// The workload a claim is stated under (pts/claims.hpp ClaimConditions, spelled out).
struct ClaimConditionsRecord {
  std::string pattern;     // "random", "sequential"
  std::string block_size;  // "4KiB"
  uint64_t block_size_bytes = 0;
  std::string rw_mix;  // %R/%W
  uint32_t threads = 0;
  uint32_t queue_depth = 0;
  std::string state;  // "fob", "steady_state"
  double active_range_pct = 100;
  std::string text;  // "RND 4KiB 100/0 TC 4 QD 64 FOB"
};

// A claim as the sheet states it.
struct SheetClaim {
  std::string id;
  std::string text;       // the sheet's wording
  std::string metric;     // "iops", "mb_per_s", "latency_mean", "latency_percentile", "latency_max"
  std::string direction;  // "read", "write", "combined"
  std::string unit;       // "IOPS", "MB/s", "us"
  double declared = 0;    // in `unit`
  double tolerance_pct = 0;
  ClaimConditionsRecord conditions;
  std::optional<double> percentile;  // latency_percentile claims only
};

// A claim judged: the sheet's claim plus what was measured.
struct ClaimOutcome {
  SheetClaim claim;
  std::optional<std::string> point;  // the measurement point's id; none when not covered
  std::optional<double> measured;    // in `unit`; none when not covered
  std::optional<double> margin_pct;  // positive = better than the sheet
  std::string verdict;               // "pass", "fail", "not covered"
  std::optional<std::string> why;    // why not covered
};

struct ValidationSheet {
  std::string vendor;
  std::string model;
  std::string capacity;
  std::string interface;
  std::string source;
  std::vector<SheetClaim> claims;
};

struct PointSteadyState {
  bool attained = false;
  uint32_t rounds = 0;
  uint32_t window_first_round = 0;
  uint32_t window_last_round = 0;
};

// Where a point's measurement came from: {"kind": "measured"}, or a run's segment.
struct PointSource {
  std::string kind;  // "measured", "run"
  std::optional<std::string> dir;
  std::optional<std::string> test;
  std::optional<std::string> phase;
  std::optional<std::string> segment;
  std::optional<std::string> results_sha256;
};

struct ValidationPoint {
  std::string id;  // "p01", ...
  ClaimConditionsRecord conditions;
  std::vector<std::string> claims;               // ids of the claims it covers
  Embedded summary;                              // the measured IoSummary (stats/stats_json.hpp)
  std::optional<PointSteadyState> steady_state;  // none for FOB points
  std::optional<Embedded> read_fill;             // measured mode only: null, or the FOB read fill
  // The read fill's "capacity_multiple" when read_fill is an object (NaN when it has none);
  // nullopt without a read fill. Read only: the writer writes read_fill.
  std::optional<double> read_fill_capacity_multiple;
  PointSource source;
};

struct ValidationTotals {
  uint64_t claims = 0;
  uint64_t pass = 0;
  uint64_t fail = 0;
  uint64_t not_covered = 0;
};

struct ValidationBlock {
  std::string mode;  // "measured", "from-runs"
  ValidationSheet sheet;
  std::vector<ValidationPoint> points;
  std::vector<ClaimOutcome> claims;
  ValidationTotals totals;
  std::vector<std::string> caveats;
  std::string verdict;  // "pass", "fail", "incomplete"
};

void to_json(nlohmann::json& j, const ClaimConditionsRecord& c);
void to_json(nlohmann::json& j, const SheetClaim& c);
void to_json(nlohmann::json& j, const ClaimOutcome& c);
void to_json(nlohmann::json& j, const ValidationSheet& s);
void to_json(nlohmann::json& j, const ValidationPoint& p);
void to_json(nlohmann::json& j, const ValidationBlock& block);
ClaimConditionsRecord read_claim_conditions(const nlohmann::json& j);
ValidationPoint read_validation_point(const nlohmann::json& point);
ValidationBlock read_validation(const nlohmann::json& block);

}  // namespace ptsuite::results
