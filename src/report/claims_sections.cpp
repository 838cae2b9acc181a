// Spec-sheet validation (`ptsuite validate`) in summary.txt and claims.csv (sections.hpp).
#include <fmt/format.h>

#include "report/sections.hpp"
#include "report/text_table.hpp"

namespace ptsuite::report {

using nlohmann::json;

namespace {

std::string value_text(const json& v, const json& claim) {
  if (!v.is_number()) return "-";
  const double d = v.get<double>();
  return d >= 100 ? fmt::format("{:.0f} {}", d, str(claim, "unit")) : fmt::format("{:.3g} {}", d, str(claim, "unit"));
}

}  // namespace

std::string claims_text(const json& test) {
  const json& v = member(test, "validation");
  if (!v.is_object()) {
    return {};
  }
  const json& sheet = member(v, "sheet");
  text::Table t(3);
  t.add({"claim", "conditions", "metric", "declared", "measured", "margin", "tolerance", "verdict"});
  for (const json& c : array(v, "claims")) {
    const json& margin = member(c, "margin_pct");
    std::string metric = str(c, "direction") + " " + str(c, "metric");
    if (member(c, "percentile").is_number()) metric += " " + str(c, "percentile") + " %";
    t.add({str(c, "id"), str(member(c, "conditions"), "text"), metric, value_text(member(c, "declared"), c),
           value_text(member(c, "measured"), c),
           margin.is_number() ? fmt::format("{:+.1f} %", margin.get<double>()) : "-", str(c, "tolerance_pct") + " %",
           str(c, "verdict")});
  }
  std::string out = fmt::format("  Spec sheet: {} {} ({})\n", str(sheet, "vendor"), str(sheet, "model"),
                                str(v, "mode") == "from-runs" ? "judged on existing runs" : "measured");
  out += t.render("    ");
  for (const json& c : array(v, "claims")) {
    if (str(c, "verdict") == "not covered") out += fmt::format("    {}: {}\n", str(c, "id"), str(c, "why"));
  }
  for (const json& caveat : array(v, "caveats")) out += "    caveat: " + caveat.get<std::string>() + "\n";
  const json& n = member(v, "totals");
  out += fmt::format("    Verdict: {} ({} of {} pass, {} fail, {} not covered)\n", str(v, "verdict"), str(n, "pass"),
                     str(n, "claims"), str(n, "fail"), str(n, "not_covered"));
  return out;
}

namespace csv {

namespace {

Keys with_conditions(Keys k, const json& conditions) {
  k.pattern = str(conditions, "pattern");
  k.rw_mix = str(conditions, "rw_mix");
  k.block_size = str(conditions, "block_size");
  k.threads = integer_text(member(conditions, "threads"));
  k.queue_depth = integer_text(member(conditions, "queue_depth"));
  return k;
}

}  // namespace

void claims_rows(CsvWriter& w, const Keys& base, const json& test) {
  const json& v = member(test, "validation");
  if (!v.is_object()) {
    return;
  }
  for (const json& p : array(v, "points")) {
    Keys k = with_conditions(base, member(p, "conditions"));
    k.phase = str(p, "id");
    k.record = "claims_point";
    summary_rows(w, k, member(p, "summary"));
  }
  for (const json& c : array(v, "claims")) {
    Keys k = with_conditions(base, member(c, "conditions"));
    k.phase = str(c, "point");
    k.record = "claim";
    k.segment = str(c, "id");
    k.direction = str(c, "direction");
    const std::string unit = str(c, "unit");
    w.row(k, "declared", member(c, "declared"), unit);
    w.row(k, "measured", member(c, "measured"), unit);
    w.row(k, "margin", member(c, "margin_pct"), "%");
    w.row(k, "tolerance", member(c, "tolerance_pct"), "%");
    w.row(k, "pass", json(str(c, "verdict") == "pass"), "bool");
  }
}

}  // namespace csv

}  // namespace ptsuite::report
