#include <ptsuite/results/validation.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

namespace {

std::optional<std::string> optional_str(const nlohmann::json& j, std::string_view key) {
  return at(j, key).is_string() ? std::optional<std::string>(str(j, key)) : std::nullopt;
}

std::optional<double> optional_num(const nlohmann::json& j, std::string_view key) {
  return at(j, key).is_number() ? std::optional<double>(num(at(j, key))) : std::nullopt;
}

SheetClaim read_sheet_claim(const nlohmann::json& c) {
  return {str(c, "id"),
          str(c, "text"),
          str(c, "metric"),
          str(c, "direction"),
          str(c, "unit"),
          num(at(c, "declared")),
          num(at(c, "tolerance_pct")),
          read_claim_conditions(at(c, "conditions")),
          optional_num(c, "percentile")};
}

}  // namespace

ValidationPoint read_validation_point(const nlohmann::json& p) {
  ValidationPoint v;
  v.id = str(p, "id");
  v.conditions = read_claim_conditions(at(p, "conditions"));
  for (const nlohmann::json& id : array(p, "claims")) {
    v.claims.push_back(str(id));
  }
  v.summary = Embedded::borrow(at(p, "summary"));
  const nlohmann::json& ss = at(p, "steady_state");
  if (ss.is_object()) {
    v.steady_state = PointSteadyState{at(ss, "attained") == true, count32(at(ss, "rounds")),
                                      count32(at(ss, "window_first_round")), count32(at(ss, "window_last_round"))};
  }
  if (p.is_object() && p.contains("read_fill")) {
    v.read_fill = Embedded::borrow(at(p, "read_fill"));
    const nlohmann::json& fill = v.read_fill->get();
    if (fill.is_object()) {
      v.read_fill_capacity_multiple = num(at(fill, "capacity_multiple"));
    }
  }
  const nlohmann::json& s = at(p, "source");
  v.source = {str(s, "kind"),           optional_str(s, "dir"),     optional_str(s, "test"),
              optional_str(s, "phase"), optional_str(s, "segment"), optional_str(s, "results_sha256")};
  return v;
}

void to_json(nlohmann::json& j, const ClaimConditionsRecord& c) {
  j = {{"pattern", c.pattern},
       {"block_size", c.block_size},
       {"block_size_bytes", c.block_size_bytes},
       {"rw_mix", c.rw_mix},
       {"threads", c.threads},
       {"queue_depth", c.queue_depth},
       {"state", c.state},
       {"active_range_pct", c.active_range_pct},
       {"text", c.text}};
}

void to_json(nlohmann::json& j, const SheetClaim& c) {
  j = {{"id", c.id},
       {"text", c.text},
       {"metric", c.metric},
       {"direction", c.direction},
       {"unit", c.unit},
       {"declared", c.declared},
       {"tolerance_pct", c.tolerance_pct},
       {"conditions", c.conditions}};
  if (c.percentile) {
    j["percentile"] = *c.percentile;
  }
}

void to_json(nlohmann::json& j, const ClaimOutcome& c) {
  j = c.claim;
  j["point"] = c.point ? nlohmann::json(*c.point) : nlohmann::json();
  j["measured"] = c.measured ? nlohmann::json(*c.measured) : nlohmann::json();
  j["margin_pct"] = c.margin_pct ? nlohmann::json(*c.margin_pct) : nlohmann::json();
  j["verdict"] = c.verdict;
  if (c.why) {
    j["why"] = *c.why;
  }
}

void to_json(nlohmann::json& j, const ValidationSheet& s) {
  j = {{"vendor", s.vendor},       {"model", s.model},   {"capacity", s.capacity},
       {"interface", s.interface}, {"source", s.source}, {"claims", s.claims}};
}

void to_json(nlohmann::json& j, const ValidationPoint& p) {
  nlohmann::json source = {{"kind", p.source.kind}};
  for (const auto& [key, value] :
       {std::pair{"dir", &p.source.dir}, std::pair{"test", &p.source.test}, std::pair{"phase", &p.source.phase},
        std::pair{"segment", &p.source.segment}, std::pair{"results_sha256", &p.source.results_sha256}}) {
    if (*value) {
      source[key] = **value;
    }
  }
  nlohmann::json steady_state;
  if (p.steady_state) {
    steady_state = {{"attained", p.steady_state->attained},
                    {"rounds", p.steady_state->rounds},
                    {"window_first_round", p.steady_state->window_first_round},
                    {"window_last_round", p.steady_state->window_last_round}};
  }
  j = {{"id", p.id},
       {"conditions", p.conditions},
       {"claims", p.claims},
       {"summary", p.summary},
       {"steady_state", std::move(steady_state)},
       {"source", std::move(source)}};
  if (p.read_fill) {
    j["read_fill"] = *p.read_fill;
  }
}

void to_json(nlohmann::json& j, const ValidationBlock& block) {
  j = {{"mode", block.mode},
       {"sheet", block.sheet},
       {"points", block.points},
       {"claims", block.claims},
       {"totals",
        {{"claims", block.totals.claims},
         {"pass", block.totals.pass},
         {"fail", block.totals.fail},
         {"not_covered", block.totals.not_covered}}},
       {"caveats", block.caveats},
       {"verdict", block.verdict}};
}

ClaimConditionsRecord read_claim_conditions(const nlohmann::json& j) {
  const double ar = num(at(j, "active_range_pct"));
  return {str(j, "pattern"), str(j, "block_size"),        count(at(j, "block_size_bytes")),
          str(j, "rw_mix"),  count32(at(j, "threads")),   count32(at(j, "queue_depth")),
          str(j, "state"),   std::isnan(ar) ? 100.0 : ar, str(j, "text")};
}

ValidationBlock read_validation(const nlohmann::json& block) {
  ValidationBlock v;
  v.mode = str(block, "mode");
  const nlohmann::json& sheet = at(block, "sheet");
  v.sheet = {str(sheet, "vendor"),    str(sheet, "model"),  str(sheet, "capacity"),
             str(sheet, "interface"), str(sheet, "source"), {}};
  for (const nlohmann::json& c : array(sheet, "claims")) {
    v.sheet.claims.push_back(read_sheet_claim(c));
  }
  for (const nlohmann::json& p : array(block, "points")) {
    v.points.push_back(read_validation_point(p));
  }
  for (const nlohmann::json& c : array(block, "claims")) {
    v.claims.push_back({read_sheet_claim(c), optional_str(c, "point"), optional_num(c, "measured"),
                        optional_num(c, "margin_pct"), str(c, "verdict"), optional_str(c, "why")});
  }
  const nlohmann::json& t = at(block, "totals");
  v.totals = {count(at(t, "claims")), count(at(t, "pass")), count(at(t, "fail")), count(at(t, "not_covered"))};
  for (const nlohmann::json& c : array(block, "caveats")) {
    v.caveats.push_back(str(c));
  }
  v.verdict = str(block, "verdict");
  return v;
}

}  // namespace ptsuite::results
