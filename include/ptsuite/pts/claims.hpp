// Contract: a drive model's spec-sheet claims as typed data (format "ptsuite-claims/1",
// pts/schema/claims.schema.json, examples in pts/sheets/), and the verdict of one claim
// against a measurement. Pure: no IO, no clocks.
//   * parse_claim_sheet() checks every field and throws UsageError naming the file and the
//     field's path ("sheet.json: claims[2].conditions.block_size: ...") for the first problem,
//     unknown fields included (a typo must not silently fall back to a default).
//   * Claims that share their conditions (pattern, block size, R/W mix, TC, QD, state, active
//     range) share one measurement point: measurement_points() groups them, FOB points first,
//     each group in sheet order.
//   * judge_claim(): throughput claims (IOPS, MB/s) are minimums, latency claims maximums.
//     margin_pct is signed so that positive is better than the sheet:
//       IOPS, MB/s:  margin = (measured - declared) / declared * 100
//       latency:     margin = (declared - measured) / declared * 100
//     and the claim passes when margin_pct >= -tolerance_pct (the tolerance the sheet grants).
// Units: MB/s is decimal (10^6 bytes/s, as sheets state it); latency values are ns in code
// and a duration with its unit in the file ("250us").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/pts/rw_mix.hpp>
#include <ptsuite/results/validation.hpp>
#include <ptsuite/stats/latency_stats.hpp>
#include <ptsuite/workload/workload_spec.hpp>

namespace ptsuite::pts {

inline constexpr const char* k_claims_format = "ptsuite-claims/1";

enum class ClaimMetric { iops, mb_per_s, latency_mean, latency_percentile, latency_max };
enum class ClaimState { fob, steady_state };
enum class ClaimDirection { read, write, combined };

const char* to_string(ClaimMetric m) noexcept;
const char* to_string(ClaimState s) noexcept;
const char* to_string(ClaimDirection d) noexcept;
// "IOPS", "MB/s" or "us" (latency claims are shown in microseconds).
const char* claim_unit(ClaimMetric m) noexcept;
bool higher_is_better(ClaimMetric m) noexcept;

// The workload under which the vendor states a claim.
struct ClaimConditions {
  workload::AccessPattern pattern = workload::AccessPattern::random;
  uint64_t block_bytes = 4096;
  RwMix mix;
  uint32_t threads = 1;
  uint32_t queue_depth = 1;
  ClaimState state = ClaimState::fob;
  double active_range_pct = 100;

  friend bool operator==(const ClaimConditions&, const ClaimConditions&) = default;
};

// "RND 4KiB 100/0 TC 4 QD 64 FOB" (AR appended when below 100 %).
std::string conditions_text(const ClaimConditions& c);

struct Claim {
  std::string id;    // unique within the sheet
  std::string text;  // as the sheet words it (optional)
  ClaimMetric metric = ClaimMetric::iops;
  double percentile = 0;  // latency_percentile only: one of stats::k_standard_percentiles
  ClaimDirection direction = ClaimDirection::combined;
  ClaimConditions conditions;
  double value = 0;  // IOPS, MB/s, or ns for latency claims
  double tolerance_pct = 0;
};

struct ClaimSheet {
  std::string vendor;
  std::string model;
  std::string capacity;   // as stated ("3.84 TB"), display only
  std::string interface;  // display only
  std::string source;     // the document the claims come from
  std::vector<Claim> claims;
};

// `where` names the file in errors. Throws UsageError (exit 2).
ClaimSheet parse_claim_sheet(const nlohmann::json& j, const std::string& where);
// Reads and parses a sheet file; a syntax error names the byte position.
ClaimSheet load_claim_sheet(const std::string& path);

// Claims measured together: same conditions. `claims` indexes ClaimSheet::claims.
struct MeasurementPoint {
  std::string id;  // "p01", "p02", ... in measurement order
  ClaimConditions conditions;
  std::vector<size_t> claims;
};
std::vector<MeasurementPoint> measurement_points(const ClaimSheet& sheet);

// The claim's metric in a measured summary (IOPS, MB/s, or latency ns).
double measured_value(const Claim& claim, const stats::IoSummary& summary);

struct ClaimVerdict {
  double declared = 0;  // in claim_unit(): IOPS, MB/s, us
  double measured = 0;  // same unit
  double margin_pct = 0;
  bool pass = false;
};
// `measured` in the claim's own unit (IOPS, MB/s, or ns for latencies).
ClaimVerdict judge_claim(const Claim& claim, double measured);

// One claim's entry in the record: the claim as parsed plus its point, the measured value and
// the verdict ("pass" / "fail"); `summary` null means no point covers it: verdict
// "not covered" with `why`.
results::ClaimOutcome claim_result(const Claim& claim, const std::string& point_id, const stats::IoSummary* summary,
                                   const std::string& why = "");

// The record's "validation" block (results/validation.hpp): totals over the claims' verdicts and
// the overall verdict: "pass" (every claim passed), "fail" (one or more failed), "incomplete"
// (none failed, some not covered). A steady-state point not attained is still judged on the
// window x-4..x, and the caveat is listed in "caveats".
results::ValidationBlock validation_block(const ClaimSheet& sheet, std::vector<results::ValidationPoint> points,
                                          std::vector<results::ClaimOutcome> claims, const std::string& mode);

// The results records of the sheet's types (the record stores the sheet as parsed, so a
// report needs no parser); the JSON forms are those records' (results/validation.hpp).
results::ClaimConditionsRecord record_of(const ClaimConditions& c);
results::SheetClaim record_of(const Claim& c);
results::ValidationSheet record_of(const ClaimSheet& s);
void to_json(nlohmann::json& j, const ClaimConditions& c);
void from_json(const nlohmann::json& j, ClaimConditions& c);  // reads what to_json wrote
void to_json(nlohmann::json& j, const Claim& c);
void to_json(nlohmann::json& j, const ClaimSheet& s);

}  // namespace ptsuite::pts
