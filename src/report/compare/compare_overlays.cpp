// compare.html's overlays (compare_overlays.hpp): per compared group, the runs on one chart (one
// series per run in the run's legend colour, lines where the points form a curve or steps over a
// rate or time, a run's drives as hairlines per --series / --plot-targets) and its table (the
// values per cell with each run's difference to run 1, or each run's points of a curve).
#include "report/compare/compare_overlays.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/chart/render.hpp>
#include <ptsuite/report/chart/style.hpp>
#include <ptsuite/report/html/markup.hpp>

namespace ptsuite::report::compare {

namespace {

using results::ComparedGroup;
using results::ComparedRun;
using results::ComparedTest;
using results::Comparison;
using namespace ptsuite::report::html;  // the page vocabulary: Page, Block, Table, text() ...
using ptsuite::report::html::text;      // not the report::text namespace (one unity TU sees both)

constexpr size_t k_max_bar_cells = 24;  // more categories than this: table only
constexpr double k_chart_height_px = 400;
const std::vector<results::ComparedPoint> k_no_points;  // a run a series group has no points for

// How a group's unit is shown: the axis label, the chart divisor, the table formatter, the unit
// in table headings. Latency in the unit its largest value calls for (us below 1 ms).
struct View {
  std::string axis;
  std::string unit;
  double divisor = 1;
  LatencyUnit latency;  // for unit "ns"
  bool is_latency = false;

  [[nodiscard]] std::string format(double stored) const {
    if (is_latency) return fmt_latency(stored, latency);
    if (unit == "IOPS") return fmt_iops(stored);
    if (unit == "MB/s") return fmt_mbps(stored);
    return fmt_number(stored);
  }
};

double largest_value(const ComparedGroup& g) {
  double m = 0;
  const auto see = [&m](double v) {
    if (std::isfinite(v)) m = std::max(m, std::fabs(v));
  };
  for (const auto& run : g.values) std::for_each(run.begin(), run.end(), see);
  for (const auto& run : g.series) {
    for (const results::ComparedPoint& p : run) see(p.y);
  }
  for (const auto& run : g.drives) {
    for (const results::ComparedDrive& d : run) {
      std::for_each(d.values.begin(), d.values.end(), see);
      for (const results::ComparedPoint& p : d.points) see(p.y);
    }
  }
  return m;
}

View view_of(const ComparedGroup& g) {
  if (g.unit == "IOPS") return {"IOPS", "IOPS", 1, {}, false};
  if (g.unit == "MB/s") return {"Throughput (MB/s, decimal)", "MB/s", 1, {}, false};
  if (g.unit == "ns") {
    const LatencyUnit u = latency_unit(largest_value(g));
    return {"Response time (" + u.name + ")", u.name, u.divisor, u, true};
  }
  return {g.unit, g.unit, 1, {}, false};
}

// "Latency \u2013 ART ...": the group's title, prefixed with the test's unless it starts with it.
std::string group_title(const ComparedTest& test, const ComparedGroup& group) {
  return group.title.rfind(test.title, 0) == 0 ? group.title : test.title + " \u2013 " + group.title;
}

// The value at [run][cell] of a values or delta_pct table; NaN when the table has none.
double table_cell_value(const std::vector<std::vector<double>>& table, size_t run, size_t cell) {
  return run < table.size() && cell < table[run].size() ? table[run][cell] : std::nan("");
}

// Which series a chart of runs of several drives draws (Comparison::report).
struct DrivePlan {
  bool aggregate = true;
  bool drives = false;
  std::vector<uint32_t> targets;  // empty: all
  [[nodiscard]] bool plotted(uint32_t t) const {
    return targets.empty() || std::find(targets.begin(), targets.end(), t) != targets.end();
  }
};

// Up to this many plotted drives per run "auto" draws each drive and the group, above the group.
constexpr size_t k_auto_drive_limit = 4;

DrivePlan drive_plan(const Comparison& cmp, const ComparedGroup& group) {
  DrivePlan plan;
  plan.targets = cmp.report.plot_targets;
  size_t most = 0;
  for (const auto& run : group.drives) {
    size_t n = 0;
    for (const results::ComparedDrive& d : run) n += plan.plotted(d.target) ? 1 : 0;
    most = std::max(most, n);
  }
  if (most == 0) return plan;
  const std::string& mode = cmp.report.series;
  plan.drives = mode == "drives" || mode == "both" || (mode == "auto" && most <= k_auto_drive_limit);
  plan.aggregate = mode != "drives";
  // A group whose runs have no group values (replay percentiles do not merge) draws its drives.
  bool any = false;
  for (const auto& run : group.values)
    any = any || std::any_of(run.begin(), run.end(), [](double v) { return std::isfinite(v); });
  for (const auto& run : group.series) any = any || !run.empty();
  if (!any) {
    plan.drives = true;
    plan.aggregate = false;
  }
  return plan;
}

// Points of a cells group over its cells: block sizes / linear x as x, else the cell's index.
std::vector<chart::Point> cell_points(const ComparedGroup& group, const std::vector<double>& values, double divisor) {
  std::vector<chart::Point> points;
  const bool numeric_x = group.x_axis != results::XAxis::category;
  for (size_t i = 0; i < group.cells.size(); ++i) {
    if (numeric_x && !std::isfinite(group.cells[i].x)) continue;
    const double y = i < values.size() ? values[i] : std::nan("");
    points.push_back({numeric_x ? group.cells[i].x : static_cast<double>(i), y / divisor});
  }
  return points;
}

std::vector<chart::Point> own_points(const std::vector<results::ComparedPoint>& in, double divisor) {
  std::vector<chart::Point> out;
  for (const results::ComparedPoint& p : in) out.push_back({p.x, p.y / divisor});
  return out;
}

// One series per run (its group), and per plotted drive of a run of several drives a hairline in
// the run's colour.
void add_run_series(chart::Chart& c, const Comparison& cmp, const ComparedGroup& group, const View& v,
                    chart::SeriesStyle style) {
  const DrivePlan plan = drive_plan(cmp, group);
  const bool series = group.kind == results::GroupKind::series;
  for (size_t r = 0; r < cmp.runs.size(); ++r) {
    if (plan.aggregate) {
      chart::Series s;
      s.name = run_name(cmp.runs[r]) + (group.drives.empty() ? "" : " (group)");
      s.style = style;
      s.look = r;
      s.points = series
                     ? own_points(r < group.series.size() ? group.series[r] : k_no_points, v.divisor)
                     : cell_points(group, r < group.values.size() ? group.values[r] : std::vector<double>{}, v.divisor);
      s.thin = series && !group.lines;
      c.series.push_back(std::move(s));
    }
    if (!plan.drives || r >= group.drives.size()) continue;
    for (const results::ComparedDrive& d : group.drives[r]) {
      if (!plan.plotted(d.target)) continue;
      chart::Series s;
      s.name = cmp.runs[r].label + " \u00b7 " + d.name;
      s.style = group.lines || !series ? chart::SeriesStyle::line : chart::SeriesStyle::markers;
      s.look = r;
      s.thin = true;
      s.points = series ? own_points(d.points, v.divisor) : cell_points(group, d.values, v.divisor);
      c.series.push_back(std::move(s));
    }
  }
}

std::string plan_caption(const Comparison& cmp, const ComparedGroup& group) {
  if (group.drives.empty()) return ", one series per run";
  const DrivePlan plan = drive_plan(cmp, group);
  std::string drawn = plan.aggregate && plan.drives ? "each run's group (thick) and its drives (hairlines)"
                      : plan.drives                 ? "each run's drives (hairlines)"
                                                    : "each run's group (all its drives: IOPS summed, latency merged)";
  if (!plan.targets.empty()) {
    std::string list;
    for (const uint32_t t : plan.targets) list += (list.empty() ? "" : ", ") + std::to_string(t);
    drawn += "; drives drawn: targets " + list;
  }
  return "; " + drawn + " (--series " + cmp.report.series + "; every drive is in compare.csv)";
}

chart::Chart group_chart(const Comparison& cmp, const ComparedTest& test, const ComparedGroup& group, const View& v) {
  const chart::Titles titles{group_title(test, group), "one series per run", "cmp-" + test.id + "-" + group.id};
  const chart::ScaleKind scale = group.y_log ? chart::ScaleKind::log10 : chart::ScaleKind::linear;
  chart::Chart c;
  const bool category = group.kind == results::GroupKind::cells && group.x_axis == results::XAxis::category;
  if (category) {
    std::vector<std::string> categories;
    for (const results::ComparedCell& cell : group.cells) categories.push_back(cell.label);
    std::vector<chart::NamedSeries> bars;
    for (size_t r = 0; r < cmp.runs.size(); ++r) {
      bars.push_back(
          {run_name(cmp.runs[r]),
           cell_points(group, r < group.values.size() ? group.values[r] : std::vector<double>{}, v.divisor)});
    }
    c = chart::grouped_bar_chart(titles, group.x_label, categories, v.axis, bars, scale);
    for (size_t i = 0; i < c.series.size(); ++i) c.series[i].look = i;
  } else if (group.x_axis == results::XAxis::block_size) {
    c = chart::block_size_chart(titles, v.axis, {}, scale);
    add_run_series(c, cmp, group, v, chart::SeriesStyle::line_markers);
    for (const chart::Series& s : c.series) {
      for (const chart::Point& p : s.points) c.x.ticks.push_back(p.x);
    }
  } else {
    c = chart::time_series_chart(titles, group.x_label, v.axis, {}, scale);
    if (group.x_axis == results::XAxis::log) {
      c.x.scale = chart::ScaleKind::log10;
      c.x.include_zero = false;
    }
    const bool lines = group.lines || group.kind == results::GroupKind::cells;
    add_run_series(c, cmp, group, v, lines ? chart::SeriesStyle::line_markers : chart::SeriesStyle::markers);
  }
  chart::place_legend_below(c);
  return c;
}

// The values table of a cells group: one row per cell, each run's value, each run's difference
// to run 1.
Table cells_table(const Comparison& cmp, const ComparedGroup& group, const View& v) {
  const size_t runs = cmp.runs.size();
  Table t;
  t.css_class = "data compact";
  // Cells over a numeric axis with a unit (a stepped rate, time, %) show that x beside the label.
  const bool x_column = group.x_axis == results::XAxis::linear && !group.x_unit.empty();
  t.header = {x_column ? "Step" : group.x_label};
  if (x_column) t.header.push_back(group.x_label);
  for (const ComparedRun& run : cmp.runs) t.header.push_back(run.label + " (" + v.unit + ")");
  for (size_t r = 1; r < runs; ++r) t.header.push_back(fmt::format("Run {} vs 1", r + 1));
  for (size_t i = 0; i < group.cells.size(); ++i) {
    std::vector<std::string> row = {text(group.cells[i].label)};
    if (x_column) row.push_back(text(fmt::format("{:g}", group.cells[i].x)));
    for (size_t r = 0; r < runs; ++r) row.push_back(text(v.format(table_cell_value(group.values, r, i))));
    for (size_t r = 1; r < runs; ++r) {
      const double d = table_cell_value(group.delta_pct, r, i);
      row.push_back(std::isfinite(d) ? text(fmt::format("{:+.1f} %", d)) : "\u2013");
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

// The table of a series group drawn as lines (a load curve): per point label, each run's x and y.
Table series_table(const Comparison& cmp, const ComparedGroup& group, const View& v) {
  std::vector<std::string> cells;
  for (const auto& run : group.series) {
    for (const results::ComparedPoint& p : run) {
      if (std::find(cells.begin(), cells.end(), p.cell) == cells.end()) cells.push_back(p.cell);
    }
  }
  Table t;
  t.css_class = "data compact";
  t.header = {"Point"};
  for (const ComparedRun& run : cmp.runs) {
    t.header.push_back(run.label + " " + (group.x_unit.empty() ? std::string("x") : group.x_unit));
    t.header.push_back(run.label + " (" + v.unit + ")");
  }
  for (const std::string& cell : cells) {
    std::vector<std::string> row = {text(cell)};
    for (size_t r = 0; r < cmp.runs.size(); ++r) {
      const std::vector<results::ComparedPoint>& points = r < group.series.size() ? group.series[r] : k_no_points;
      const auto it = std::find_if(points.begin(), points.end(), [&](const auto& p) { return p.cell == cell; });
      row.push_back(it == points.end()       ? "\u2013"
                    : group.x_unit == "IOPS" ? text(html::grouped(it->x, 0))
                                             : text(fmt::format("{:g}", it->x)));
      row.push_back(it == points.end() ? "\u2013" : text(v.format(it->y)));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace

void group_section(PageFlow& flow, const Comparison& cmp, const ComparedTest& test, const ComparedGroup& group,
                   IdSource& ids) {
  const std::string title = group_title(test, group);
  const View v = view_of(group);
  if (!test.workload_differences.empty()) {
    std::string fields;
    for (const std::string& f : test.workload_differences) fields += (fields.empty() ? "" : ", ") + f;
    flow.add(html_block(element("div", "verdict bad",
                                text("Workloads differ for this test (" + fields + "): the overlay was forced"))),
             10);
  }
  const bool cells = group.kind == results::GroupKind::cells;
  const bool with_chart = !cells || group.x_axis != results::XAxis::category || group.cells.size() <= k_max_bar_cells;
  if (with_chart) {
    chart::Chart c = group_chart(cmp, test, group, v);
    const double height_px = std::max(c.height_px, k_chart_height_px);
    const std::string caption = title + plan_caption(cmp, group);
    flow.add(chart_block(std::move(c), caption, ids, height_px), figure_height_mm(height_px, caption));
  }
  if (cells) {
    flow.add_table(cells_table(cmp, group, v), title + ": each run's value and its difference to run 1");
  } else if (group.lines) {
    flow.add_table(series_table(cmp, group, v), title + ": each run's points (its own x: x and y per run)");
  } else {
    flow.add(html_block(element("p", "note", "Every point of every run, with its sample or cell, is in compare.csv.")),
             6);
  }
}

}  // namespace ptsuite::report::compare
