// The delta tables at chosen x values (--at) and the rankings of `ptsuite compare`
// (report/compare.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>

#include <ptsuite/report/compare.hpp>
#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::report::compare {

namespace {

using results::ComparedDelta;
using results::ComparedGroup;
using results::ComparedPoint;
using results::DeltaRow;

constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();
// Two x values are the same step when they differ by less than this share of the larger: a
// stepped rate is written from the same decimal as --at, so only rounding separates them.
constexpr double k_same_x = 1e-9;

// The units --at takes, spelled as the groups' x_unit, with the spellings users type.
struct UnitSpelling {
  const char* typed;
  const char* unit;
};
constexpr UnitSpelling k_units[] = {{"mb/s", "MB/s"}, {"mbps", "MB/s"}, {"iops", "IOPS"},  {"%", "%"},
                                    {"min", "min"},   {"s", "s"},       {"round", "Round"}};

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

bool same_x(double a, double b) { return std::fabs(a - b) <= k_same_x * std::max({1.0, std::fabs(a), std::fabs(b)}); }

struct Found {
  double value = k_nan;
  const char* how = "missing";
};

// The value at x of points (any order): a point at exactly x, else the line between the two
// nearest points around it; never beyond the first or last point.
Found value_at(std::vector<std::pair<double, double>> points, double x) {
  points.erase(std::remove_if(points.begin(), points.end(),
                              [](const auto& p) { return !std::isfinite(p.first) || !std::isfinite(p.second); }),
               points.end());
  std::sort(points.begin(), points.end());
  for (const auto& [px, py] : points) {
    if (same_x(px, x)) return {py, "step"};
  }
  for (size_t i = 1; i < points.size(); ++i) {
    const auto& [x0, y0] = points[i - 1];
    const auto& [x1, y1] = points[i];
    if (x0 < x && x < x1) return {y0 + (y1 - y0) * (x - x0) / (x1 - x0), "interpolated"};
  }
  return {};
}

std::vector<std::pair<double, double>> cell_points(const ComparedGroup& g, const std::vector<double>& values) {
  std::vector<std::pair<double, double>> out;
  for (size_t c = 0; c < g.cells.size() && c < values.size(); ++c) out.emplace_back(g.cells[c].x, values[c]);
  return out;
}

std::vector<std::pair<double, double>> series_points(const std::vector<ComparedPoint>& points) {
  std::vector<std::pair<double, double>> out;
  for (const ComparedPoint& p : points) out.emplace_back(p.x, p.y);
  return out;
}

// "108.0 µs", "1.250 ms", "52,000 IOPS", "812.5 MB/s": a value (or difference) of the group's unit.
std::string value_text(double v, const std::string& unit) {
  if (!std::isfinite(v)) return "\u2013";
  if (unit == "ns") {
    return std::fabs(v) >= 1e6 ? fmt::format("{:.3f} ms", v / 1e6) : fmt::format("{:.1f} \u00b5s", v / 1e3);
  }
  if (unit == "IOPS") return html::grouped(v, 0) + " IOPS";
  if (unit == "MB/s") return fmt::format("{:.1f} MB/s", v);
  return fmt::format("{:g} {}", v, unit);
}

// "Replayed IOPS per step" -> "replayed IOPS per step" inside a sentence; "IOPS vs ..." stays.
std::string in_sentence(std::string title) {
  if (title.size() > 1 && std::isupper(static_cast<unsigned char>(title[0])) != 0 &&
      std::islower(static_cast<unsigned char>(title[1])) != 0) {
    title[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(title[0])));
  }
  return title;
}

void add_deltas(DeltaRow& row) {
  const double reference = row.values.empty() ? k_nan : row.values[0];
  for (size_t r = 0; r < row.values.size(); ++r) {
    const bool comparable = r > 0 && std::isfinite(reference) && std::isfinite(row.values[r]);
    row.delta.push_back(comparable ? row.values[r] - reference : k_nan);
    row.delta_pct.push_back(comparable && reference != 0 ? (row.values[r] - reference) / reference * 100.0 : k_nan);
  }
}

// The sentence under a delta table, about the groups, the way reviews quote them: "At 800 MB/s
// Run 1 had a 108.0 µs lead in read average latency over Run 2 (412.0 µs vs 520.0 µs)".
std::string summary_of(const ComparedDelta& d, const std::string& what, const std::vector<results::ComparedRun>& runs) {
  const DeltaRow& group = d.rows.front();
  std::vector<size_t> with;
  for (size_t r = 0; r < group.values.size(); ++r) {
    if (std::isfinite(group.values[r])) with.push_back(r);
  }
  if (with.size() < 2) return fmt::format("At {} fewer than two runs have a value of {}.", d.at_label, what);
  const bool lower = d.better == "lower";
  const size_t best = *std::min_element(with.begin(), with.end(), [&](size_t a, size_t b) {
    return lower ? group.values[a] < group.values[b] : group.values[a] > group.values[b];
  });
  if (std::all_of(with.begin(), with.end(), [&](size_t r) { return group.values[r] == group.values[best]; })) {
    return fmt::format("At {} every run had the same {}: {}.", d.at_label, what,
                       value_text(group.values[best], d.unit));
  }
  std::string leads;
  for (const size_t r : with) {
    if (r == best) continue;
    leads += fmt::format("{}a {} lead over {} ({} vs {})", leads.empty() ? "" : " and ",
                         value_text(std::fabs(group.values[r] - group.values[best]), d.unit), runs[r].label,
                         value_text(group.values[best], d.unit), value_text(group.values[r], d.unit));
  }
  const bool interpolated =
      std::any_of(group.how.begin(), group.how.end(), [](const std::string& h) { return h == "interpolated"; });
  return fmt::format("At {} {} had {} in {} ({} is better){}.", d.at_label, runs[best].label, leads, what,
                     lower ? "lower" : "higher",
                     interpolated ? "; values between two steps are interpolated, as the table marks them" : "");
}

}  // namespace

AtValue parse_at(const std::string& text) {
  std::string t;
  for (const char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) t += c;
  }
  double value = 0;
  const char* const first = t.data();
  const char* const last = first + t.size();
  const auto [end, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || !std::isfinite(value)) {
    throw UsageError("--at", fmt::format("\"{}\" is not a step; give a number with its unit, e.g. 800MB/s, "
                                         "20000IOPS, 50% or 10min",
                                         text));
  }
  const std::string typed(end, last);
  const std::string unit = lower(typed);
  if (unit.empty()) return {value, "", text};
  for (const UnitSpelling& u : k_units) {
    if (unit == u.typed) return {value, u.unit, text};
  }
  throw UsageError("--at",
                   fmt::format("\"{}\": the unit \"{}\" is not one of MB/s, IOPS, %, min, s, Round", text, typed));
}

results::ComparedDelta delta_at(const results::ComparedTest& test, const ComparedGroup& group,
                                const std::vector<results::ComparedRun>& runs, const AtValue& at) {
  ComparedDelta d;
  d.test = test.id;
  d.group = group.id;
  d.title = group.title.rfind(test.title, 0) == 0 ? group.title : test.title + " \u2013 " + group.title;
  d.metric = group.metric;
  d.unit = group.unit;
  d.x_unit = group.x_unit;
  d.at = at.value;
  d.at_label = group.x_unit.empty() ? fmt::format("{:g}", at.value) : fmt::format("{:g} {}", at.value, group.x_unit);
  d.better = group.unit == "ns" ? "lower" : "higher";
  if (group.x_axis != results::XAxis::linear || (!at.unit.empty() && at.unit != group.x_unit)) return d;
  const bool cells = group.kind == results::GroupKind::cells;
  DeltaRow row{"group", std::nullopt, "group", {}, {}, {}, {}};
  for (size_t r = 0; r < runs.size(); ++r) {
    const Found f =
        cells
            ? value_at(cell_points(group, r < group.values.size() ? group.values[r] : std::vector<double>{}), at.value)
            : value_at(series_points(r < group.series.size() ? group.series[r] : std::vector<ComparedPoint>{}),
                       at.value);
    row.values.push_back(f.value);
    row.how.emplace_back(f.how);
  }
  if (std::none_of(row.values.begin(), row.values.end(), [](double v) { return std::isfinite(v); })) return d;
  add_deltas(row);
  d.rows.push_back(std::move(row));
  std::vector<uint32_t> targets;
  for (const std::vector<results::ComparedDrive>& run : group.drives) {
    for (const results::ComparedDrive& drive : run) targets.push_back(drive.target);
  }
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  for (const uint32_t t : targets) {
    DeltaRow drive_row{"drive", t, fmt::format("target {}", t), {}, {}, {}, {}};
    for (size_t r = 0; r < runs.size(); ++r) {
      Found f;
      for (const results::ComparedDrive& drive :
           r < group.drives.size() ? group.drives[r] : std::vector<results::ComparedDrive>{}) {
        if (drive.target != t) continue;
        f = cells ? value_at(cell_points(group, drive.values), at.value)
                  : value_at(series_points(drive.points), at.value);
        drive_row.label = drive.name;
      }
      drive_row.values.push_back(f.value);
      drive_row.how.emplace_back(f.how);
    }
    // A drive no run has a value for at x (a load curve's single drive never reaches a group's
    // rate) says nothing: left out.
    if (std::none_of(drive_row.values.begin(), drive_row.values.end(), [](double v) { return std::isfinite(v); })) {
      continue;
    }
    add_deltas(drive_row);
    d.rows.push_back(std::move(drive_row));
  }
  d.summary = summary_of(d, in_sentence(group.title), runs);
  return d;
}

results::Ranking rank_runs(const std::string& test, const std::string& title, const std::string& basis,
                           const std::vector<std::vector<RankValue>>& per_run) {
  results::Ranking out{test, title, basis, {}, {}};
  if (per_run.empty() || per_run[0].empty()) return out;
  for (const RankValue& first : per_run[0]) {
    results::RankFigure f{first.metric, first.label, first.unit, first.lower_is_better ? "lower" : "higher", {}};
    for (const std::vector<RankValue>& run : per_run) {
      const auto it =
          std::find_if(run.begin(), run.end(), [&](const RankValue& v) { return v.metric == first.metric; });
      f.values.push_back(it == run.end() ? k_nan : it->value);
    }
    out.figures.push_back(std::move(f));
  }
  std::vector<uint32_t> order(per_run.size());
  std::iota(order.begin(), order.end(), 0U);
  // Lexicographic over the figures: a value beats NaN, then the better value; a tie goes on.
  const auto better = [&out](uint32_t a, uint32_t b) {
    for (const results::RankFigure& f : out.figures) {
      const double va = f.values[a];
      const double vb = f.values[b];
      if (std::isfinite(va) != std::isfinite(vb)) return std::isfinite(va);
      if (!std::isfinite(va) || va == vb) continue;
      return f.better == "lower" ? va < vb : va > vb;
    }
    return false;
  };
  std::stable_sort(order.begin(), order.end(), better);
  out.order = std::move(order);
  return out;
}

}  // namespace ptsuite::report::compare
