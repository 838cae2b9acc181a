// Spec-sheet validation (`ptsuite validate`) in summary.txt and claims.csv (sections.hpp).
#include <fmt/format.h>

#include <optional>

#include <ptsuite/results/validation.hpp>

#include "report/sections.hpp"
#include "report/text_table.hpp"

namespace ptsuite::report {

using nlohmann::json;

namespace {

std::string value_text(std::optional<double> v, const std::string& unit) {
  if (!v) return "-";
  return *v >= 100 ? fmt::format("{:.0f} {}", *v, unit) : fmt::format("{:.3g} {}", *v, unit);
}

}  // namespace

std::string claims_text(const results::TestRecord& test) {
  const results::ValidationBlock* block = test.block_as<results::ValidationBlock>();
  if (block == nullptr) {
    return {};
  }
  const results::ValidationBlock& v = *block;
  text::Table t(3);
  t.add({"claim", "conditions", "metric", "declared", "measured", "margin", "tolerance", "verdict"});
  for (const results::ClaimOutcome& c : v.claims) {
    std::string metric = c.claim.direction + " " + c.claim.metric;
    if (c.claim.percentile) metric += fmt::format(" {} %", *c.claim.percentile);
    t.add({c.claim.id, c.claim.conditions.text, metric, value_text(c.claim.declared, c.claim.unit),
           value_text(c.measured, c.claim.unit), c.margin_pct ? fmt::format("{:+.1f} %", *c.margin_pct) : "-",
           fmt::format("{} %", c.claim.tolerance_pct), c.verdict});
  }
  std::string out = fmt::format("  Spec sheet: {} {} ({})\n", v.sheet.vendor, v.sheet.model,
                                v.mode == "from-runs" ? "judged on existing runs" : "measured");
  out += t.render("    ");
  for (const results::ClaimOutcome& c : v.claims) {
    if (c.verdict == "not covered") out += fmt::format("    {}: {}\n", c.claim.id, c.why.value_or(""));
  }
  for (const std::string& caveat : v.caveats) out += "    caveat: " + caveat + "\n";
  out += fmt::format("    Verdict: {} ({} of {} pass, {} fail, {} not covered)\n", v.verdict, v.totals.pass,
                     v.totals.claims, v.totals.fail, v.totals.not_covered);
  return out;
}

namespace csv {

namespace {

Keys with_conditions(Keys k, const results::ClaimConditionsRecord& conditions) {
  k.pattern = conditions.pattern;
  k.rw_mix = conditions.rw_mix;
  k.block_size = conditions.block_size;
  k.threads = std::to_string(conditions.threads);
  k.queue_depth = std::to_string(conditions.queue_depth);
  return k;
}

}  // namespace

void claims_rows(CsvWriter& w, const Keys& base, const results::TestRecord& test) {
  const results::ValidationBlock* block = test.block_as<results::ValidationBlock>();
  if (block == nullptr) {
    return;
  }
  const results::ValidationBlock& v = *block;
  for (const results::ValidationPoint& p : v.points) {
    Keys k = with_conditions(base, p.conditions);
    k.phase = p.id;
    k.record = "claims_point";
    summary_rows(w, k, results::read_segment_summary(p.summary));
  }
  for (const results::ClaimOutcome& c : v.claims) {
    Keys k = with_conditions(base, c.claim.conditions);
    k.phase = c.point.value_or("");
    k.record = "claim";
    k.segment = c.claim.id;
    k.direction = c.claim.direction;
    const std::string& unit = c.claim.unit;
    w.row(k, "declared", c.claim.declared, unit);
    w.row(k, "measured", c.measured, unit);
    w.row(k, "margin", c.margin_pct, "%");
    w.row(k, "tolerance", c.claim.tolerance_pct, "%");
    w.row(k, "pass", c.verdict == "pass", "bool");
  }
}

}  // namespace csv

}  // namespace ptsuite::report
