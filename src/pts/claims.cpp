// Spec-sheet claims: parsing with field-naming errors, grouping into measurement points, and
// the pass/fail verdict (pts/claims.hpp).
#include <ptsuite/pts/claims.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include <ptsuite/pts/procedures/shared.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_fields.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/spec_parse.hpp>

namespace ptsuite::pts {

using nlohmann::json;

namespace {

ClaimMetric parse_metric_name(const Fields& f, const std::string& t) {
  if (t == "iops") return ClaimMetric::iops;
  if (t == "mb_per_s") return ClaimMetric::mb_per_s;
  if (t == "latency_mean") return ClaimMetric::latency_mean;
  if (t == "latency_percentile") return ClaimMetric::latency_percentile;
  if (t == "latency_max") return ClaimMetric::latency_max;
  f.fail("metric",
         fmt::format("\"{}\" is not one of iops, mb_per_s, latency_mean, latency_percentile, latency_max", t));
}

ClaimConditions parse_conditions(const json& j, const Fields& f, double default_ar_pct) {
  f.only(j, {"pattern", "block_size", "rw_mix", "threads", "queue_depth", "state", "active_range_pct"});
  ClaimConditions c;
  c.pattern = f.parsed(j, "pattern", [](const std::string& t) { return workload::parse_access_pattern(t, "pattern"); });
  c.block_bytes = f.parsed(j, "block_size", [](const std::string& t) { return units::parse_size_bytes(t, "size"); });
  if (c.block_bytes == 0 || c.block_bytes % 512 != 0) f.fail("block_size", "must be a non-zero multiple of 512 bytes");
  c.mix = f.parsed(j, "rw_mix", [](const std::string& t) { return parse_rw_mix(t, "rw_mix"); });
  c.threads = f.count(j, "threads");
  c.queue_depth = f.count(j, "queue_depth");
  const std::string state = f.text(j, "state", true);
  if (state == "fob") {
    c.state = ClaimState::fob;
  } else if (state == "steady_state") {
    c.state = ClaimState::steady_state;
  } else {
    f.fail("state", fmt::format("\"{}\" is not one of fob, steady_state", state));
  }
  c.active_range_pct = j.contains("active_range_pct") ? f.number(j, "active_range_pct", 1, 100) : default_ar_pct;
  if (c.active_range_pct < 100 && c.pattern == workload::AccessPattern::sequential) {
    f.fail("active_range_pct",
           "an ActiveRange below 100 % applies to random claims only (ptsuite confines random IO "
           "to it as an LBA zone); use --set active_range_pct for the whole run");
  }
  return c;
}

ClaimDirection parse_direction(const json& j, const Fields& f, const Claim& c) {
  if (j.contains("direction")) {
    const std::string d = f.text(j, "direction", true);
    if (d == "read" && c.conditions.mix.read_pct > 0) return ClaimDirection::read;
    if (d == "write" && c.conditions.mix.read_pct < 100) return ClaimDirection::write;
    if (d == "combined") return ClaimDirection::combined;
    f.fail("direction", fmt::format("\"{}\" is not one of {} for R/W mix {}", d,
                                    c.conditions.mix.read_pct == 100 ? "read, combined"
                                    : c.conditions.mix.read_pct == 0 ? "write, combined"
                                                                     : "read, write, combined",
                                    format_rw_mix(c.conditions.mix)));
  }
  if (c.conditions.mix.read_pct == 100) return ClaimDirection::read;
  if (c.conditions.mix.read_pct == 0) return ClaimDirection::write;
  if (c.metric == ClaimMetric::iops || c.metric == ClaimMetric::mb_per_s) return ClaimDirection::combined;
  f.fail("direction", "is required for a latency claim under a mixed R/W workload (read, write or combined)");
}

Claim parse_claim(const json& j, const Fields& f, double default_tol, double default_ar) {
  f.only(j, {"id", "text", "metric", "percentile", "direction", "value", "tolerance_pct", "conditions"});
  Claim c;
  c.id = f.text(j, "id", true);
  if (c.id.empty()) f.fail("id", "must not be empty");
  c.text = f.text(j, "text", false);
  c.metric = parse_metric_name(f, f.text(j, "metric", true));
  if (!j.contains("conditions")) f.fail("conditions", "is required");
  c.conditions = parse_conditions(j.at("conditions"), f.child("conditions"), default_ar);
  if (c.metric == ClaimMetric::latency_percentile) {
    if (!j.contains("percentile")) f.fail("percentile", "is required for a latency_percentile claim");
    c.percentile = f.number(j, "percentile", 0, 100);
    const auto& known = stats::k_standard_percentiles;
    if (std::find(known.begin(), known.end(), c.percentile) == known.end()) {
      f.fail("percentile",
             fmt::format("{} is not one of the measured percentiles ({})", c.percentile, fmt::join(known, ", ")));
    }
  } else if (j.contains("percentile")) {
    f.fail("percentile", "applies to latency_percentile claims only");
  }
  c.direction = parse_direction(j, f, c);
  if (!j.contains("value")) f.fail("value", "is required");
  if (higher_is_better(c.metric)) {
    c.value = f.number(j, "value", 1e-9, 1e15);
  } else {
    c.value = static_cast<double>(
        f.parsed(j, "value", [](const std::string& t) { return units::parse_duration_ns(t, "value"); }));
    if (c.value <= 0) f.fail("value", "must be a latency above 0 (e.g. \"250us\")");
  }
  c.tolerance_pct = j.contains("tolerance_pct") ? f.number(j, "tolerance_pct", 0, 100) : default_tol;
  return c;
}

}  // namespace

const char* to_string(ClaimMetric m) noexcept {
  switch (m) {
    case ClaimMetric::iops:
      return "iops";
    case ClaimMetric::mb_per_s:
      return "mb_per_s";
    case ClaimMetric::latency_mean:
      return "latency_mean";
    case ClaimMetric::latency_percentile:
      return "latency_percentile";
    case ClaimMetric::latency_max:
      return "latency_max";
  }
  return "?";
}

const char* to_string(ClaimState s) noexcept { return s == ClaimState::fob ? "fob" : "steady_state"; }

const char* to_string(ClaimDirection d) noexcept {
  switch (d) {
    case ClaimDirection::read:
      return "read";
    case ClaimDirection::write:
      return "write";
    case ClaimDirection::combined:
      return "combined";
  }
  return "?";
}

const char* claim_unit(ClaimMetric m) noexcept {
  switch (m) {
    case ClaimMetric::iops:
      return "IOPS";
    case ClaimMetric::mb_per_s:
      return "MB/s";
    default:
      return "us";
  }
}

bool higher_is_better(ClaimMetric m) noexcept { return m == ClaimMetric::iops || m == ClaimMetric::mb_per_s; }

std::string conditions_text(const ClaimConditions& c) {
  std::string out = fmt::format("{} {} {} TC {} QD {} {}", c.pattern == workload::AccessPattern::random ? "RND" : "SEQ",
                                units::format_size_binary(c.block_bytes), format_rw_mix(c.mix), c.threads,
                                c.queue_depth, c.state == ClaimState::fob ? "FOB" : "SS");
  if (c.active_range_pct < 100) out += fmt::format(" AR {:g}%", c.active_range_pct);
  return out;
}

ClaimSheet parse_claim_sheet(const json& j, const std::string& where) {
  const Fields top(where, "");
  top.only(j,
           {"$schema", "format", "vendor", "model", "capacity", "interface", "source", "note", "defaults", "claims"});
  if (top.text(j, "format", true) != k_claims_format) {
    top.fail("format", fmt::format("must be \"{}\"", k_claims_format));
  }
  ClaimSheet sheet;
  sheet.vendor = top.text(j, "vendor", false);
  sheet.model = top.text(j, "model", true);
  sheet.capacity = top.text(j, "capacity", false);
  sheet.interface = top.text(j, "interface", false);
  sheet.source = top.text(j, "source", false);
  double default_tol = 0;
  double default_ar = 100;
  if (j.contains("defaults")) {
    const Fields f(where, "defaults");
    f.only(j.at("defaults"), {"tolerance_pct", "active_range_pct"});
    if (j.at("defaults").contains("tolerance_pct")) default_tol = f.number(j.at("defaults"), "tolerance_pct", 0, 100);
    if (j.at("defaults").contains("active_range_pct")) {
      default_ar = f.number(j.at("defaults"), "active_range_pct", 1, 100);
    }
  }
  if (!j.contains("claims") || !j.at("claims").is_array() || j.at("claims").empty()) {
    top.fail("claims", "must be a non-empty array");
  }
  std::set<std::string> ids;
  for (size_t i = 0; i < j.at("claims").size(); ++i) {
    const Fields f(where, fmt::format("claims[{}]", i));
    Claim c = parse_claim(j.at("claims")[i], f, default_tol, default_ar);
    if (!ids.insert(c.id).second) f.fail("id", fmt::format("\"{}\" is used by an earlier claim", c.id));
    sheet.claims.push_back(std::move(c));
  }
  return sheet;
}

ClaimSheet load_claim_sheet(const std::string& path) {
  return parse_claim_sheet(load_json_input(path, path, k_user_json_limits), path);
}

std::vector<MeasurementPoint> measurement_points(const ClaimSheet& sheet) {
  std::vector<MeasurementPoint> points;
  for (const ClaimState state : {ClaimState::fob, ClaimState::steady_state}) {
    for (size_t i = 0; i < sheet.claims.size(); ++i) {
      const ClaimConditions& c = sheet.claims[i].conditions;
      if (c.state != state) continue;
      auto same = [&c](const MeasurementPoint& p) { return p.conditions == c; };
      auto it = std::find_if(points.begin(), points.end(), same);
      if (it == points.end()) {
        points.push_back({fmt::format("p{:02}", points.size() + 1), c, {}});
        it = points.end() - 1;
      }
      it->claims.push_back(i);
    }
  }
  return points;
}

double measured_value(const Claim& claim, const stats::IoSummary& summary) {
  const stats::DirectionSummary& d = claim.direction == ClaimDirection::read    ? summary.read
                                     : claim.direction == ClaimDirection::write ? summary.write
                                                                                : summary.combined;
  switch (claim.metric) {
    case ClaimMetric::iops:
      return d.iops;
    case ClaimMetric::mb_per_s:
      return d.mb_per_s;
    case ClaimMetric::latency_mean:
      return d.latency_mean_ns;
    case ClaimMetric::latency_max:
      return static_cast<double>(d.latency_max_ns);
    case ClaimMetric::latency_percentile:
      return static_cast<double>(percentile_ns(d, claim.percentile));
  }
  return 0;
}

ClaimVerdict judge_claim(const Claim& claim, double measured) {
  ClaimVerdict v;
  // Latencies are judged and shown in microseconds (1 us = 1000 ns).
  const double scale = higher_is_better(claim.metric) ? 1.0 : 1e-3;
  v.declared = claim.value * scale;
  v.measured = measured * scale;
  if (higher_is_better(claim.metric)) {
    v.margin_pct = (measured - claim.value) / claim.value * 100.0;
  } else {
    // A latency of 0 means nothing was measured in that direction: no claim can pass on it.
    v.margin_pct = measured > 0 ? (claim.value - measured) / claim.value * 100.0 : -100.0;
  }
  v.pass = measured > 0 && v.margin_pct >= -claim.tolerance_pct;
  return v;
}

results::ClaimOutcome claim_result(const Claim& claim, const std::string& point_id, const stats::IoSummary* summary,
                                   const std::string& why) {
  results::ClaimOutcome out;
  out.claim = record_of(claim);
  if (!point_id.empty()) {
    out.point = point_id;
  }
  if (summary == nullptr) {
    out.verdict = "not covered";
    out.why = why;
    return out;
  }
  const ClaimVerdict v = judge_claim(claim, measured_value(claim, *summary));
  out.measured = v.measured;
  out.margin_pct = v.margin_pct;
  out.verdict = v.pass ? "pass" : "fail";
  return out;
}

results::ValidationBlock validation_block(const ClaimSheet& sheet, std::vector<results::ValidationPoint> points,
                                          std::vector<results::ClaimOutcome> claims, const std::string& mode) {
  results::ValidationBlock block;
  block.mode = mode;
  block.sheet = record_of(sheet);
  block.totals.claims = claims.size();
  for (const results::ClaimOutcome& c : claims) {
    (c.verdict == "pass" ? block.totals.pass : c.verdict == "fail" ? block.totals.fail : block.totals.not_covered) += 1;
  }
  for (const results::ValidationPoint& p : points) {
    if (p.steady_state && !p.steady_state->attained) {
      block.caveats.push_back(
          fmt::format("{} ({}): steady state NOT attained by Round {}; its claims are judged on Rounds {}..{}", p.id,
                      p.conditions.text, p.steady_state->rounds, p.steady_state->window_first_round,
                      p.steady_state->window_last_round));
    }
  }
  block.verdict = block.totals.fail > 0 ? "fail" : block.totals.not_covered > 0 ? "incomplete" : "pass";
  block.points = std::move(points);
  block.claims = std::move(claims);
  return block;
}

results::ClaimConditionsRecord record_of(const ClaimConditions& c) {
  return {workload::to_string(c.pattern),
          units::format_size_binary(c.block_bytes),
          c.block_bytes,
          format_rw_mix(c.mix),
          c.threads,
          c.queue_depth,
          to_string(c.state),
          c.active_range_pct,
          conditions_text(c)};
}

results::SheetClaim record_of(const Claim& c) {
  results::SheetClaim r{c.id,
                        c.text,
                        to_string(c.metric),
                        to_string(c.direction),
                        claim_unit(c.metric),
                        higher_is_better(c.metric) ? c.value : c.value / 1e3,
                        c.tolerance_pct,
                        record_of(c.conditions),
                        std::nullopt};
  if (c.metric == ClaimMetric::latency_percentile) r.percentile = c.percentile;
  return r;
}

results::ValidationSheet record_of(const ClaimSheet& s) {
  results::ValidationSheet r{s.vendor, s.model, s.capacity, s.interface, s.source, {}};
  for (const Claim& c : s.claims) r.claims.push_back(record_of(c));
  return r;
}

void to_json(json& j, const ClaimConditions& c) { j = record_of(c); }

void from_json(const json& j, ClaimConditions& c) {
  c.pattern = workload::parse_access_pattern(j.at("pattern").get<std::string>(), "conditions.pattern");
  c.block_bytes = j.at("block_size_bytes").get<uint64_t>();
  c.mix = parse_rw_mix(j.at("rw_mix").get<std::string>(), "conditions.rw_mix");
  c.threads = j.at("threads").get<uint32_t>();
  c.queue_depth = j.at("queue_depth").get<uint32_t>();
  c.state = j.at("state").get<std::string>() == "fob" ? ClaimState::fob : ClaimState::steady_state;
  c.active_range_pct = j.at("active_range_pct").get<double>();
}

void to_json(json& j, const Claim& c) { j = record_of(c); }

void to_json(json& j, const ClaimSheet& s) { j = record_of(s); }

}  // namespace ptsuite::pts
