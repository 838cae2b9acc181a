// compare.html (compare_render.hpp): the overview page (runs and drives, workload differences,
// the rankings, tests), the delta tables at the chosen steps (--at), the settings that differ,
// then per compared group: the runs overlaid on one chart (one series per run in the run's
// legend colour everywhere, lines where the points form a curve or steps over a rate or time,
// a run's drives as hairlines per --series / --plot-targets) and its table (the values per cell,
// or each run's points of a curve), split across pages as they need (html/page_flow.hpp).
#include <ptsuite/report/compare_render.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/chart/render.hpp>
#include <ptsuite/report/chart/style.hpp>
#include <ptsuite/report/html/figures.hpp>
#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/report/html/page.hpp>
#include <ptsuite/report/html/page_flow.hpp>

namespace ptsuite::report::compare {

namespace {

using results::ComparedGroup;
using results::ComparedRun;
using results::ComparedTest;
using results::Comparison;
using results::ComparisonDifference;
using namespace ptsuite::report::html;  // the page vocabulary: Page, Block, Table, text() ...
using ptsuite::report::html::text;      // not the report::text namespace (one unity TU sees both)

constexpr size_t k_rows_per_page = 36;  // rows of a settings page
constexpr size_t k_max_bar_cells = 24;  // more categories than this: table only
constexpr double k_chart_height_px = 400;
const std::vector<results::ComparedPoint> k_no_points;  // a run a series group has no points for

// "FX-3840 (FX0000000001)": the drive of a run.
std::string drive_name(const ComparedRun& run) {
  const std::string model = run.identity.model.value_or("");
  const std::string serial = run.identity.serial.value_or("");
  return (model.empty() ? "unknown model" : model) + (serial.empty() ? "" : " (" + serial + ")");
}

// The legend entry of a run: "Run 1 \u00b7 FX-3840 (FX0000000001)".
std::string run_name(const ComparedRun& run) { return run.label + " \u00b7 " + drive_name(run); }

// IOPS as whole numbers with thousands grouped ("62,294", "0"): differences of IOPS included.
std::string grouped_iops(double v) {
  const std::string digits = fmt::format("{:.0f}", std::fabs(v));
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (v < 0 && digits != "0" ? "-" : "") + out;
}

std::string swatch(size_t index) {
  return fmt::format(
      "<span style=\"display:inline-block;width:0.9em;height:0.9em;margin-right:0.3em;vertical-align:middle;"
      "background:{}\"></span>",
      chart::series_look(index).colour);
}

// The distinct values of a field over the runs, joined with " / ".
std::string distinct(const Comparison& cmp, std::string (*field)(const ComparedRun&)) {
  std::vector<std::string> values;
  for (const ComparedRun& run : cmp.runs) {
    const std::string v = field(run);
    if (!v.empty() && std::find(values.begin(), values.end(), v) == values.end()) {
      values.push_back(v);
    }
  }
  std::string out;
  for (const std::string& v : values) {
    out += (out.empty() ? "" : " / ") + v;
  }
  return out;
}

std::string revision_of(const ComparedRun& run) { return run.revision; }
std::string profile_of(const ComparedRun& run) { return run.profile; }
std::string started_of(const ComparedRun& run) { return run.started_utc; }
std::string vendor_of(const ComparedRun& run) { return run.identity.vendor.value_or(""); }
std::string model_of(const ComparedRun& run) { return run.identity.model.value_or(""); }
std::string tested_by_of(const ComparedRun& run) { return run.tested_by; }

size_t count_differences(const Comparison& cmp, bool workload) {
  return static_cast<size_t>(std::count_if(cmp.differences.begin(), cmp.differences.end(),
                                           [&](const ComparisonDifference& d) { return d.workload == workload; }));
}

PageHeader compare_header(const Comparison& cmp, const std::string& title, const std::string& subtitle) {
  PageHeader h;
  h.title = title;
  h.subtitle = subtitle;
  h.revision = revision_label(distinct(cmp, revision_of));
  h.organisation = {"ptsuite", "Run comparison", "drive by drive"};
  h.profile = distinct(cmp, profile_of);
  const std::vector<ComparedRun>& runs = cmp.runs;
  h.run_dates = runs.empty() ? "" : "runs started " + distinct(cmp, started_of);
  h.vendor = distinct(cmp, vendor_of);
  h.model = distinct(cmp, model_of);
  h.tested_by = distinct(cmp, tested_by_of);
  h.columns[0].title = "Runs";
  h.columns[1].title = "Devices Under Test";
  for (size_t i = 0; i < runs.size(); ++i) {
    h.columns[0].rows.emplace_back(runs[i].label, swatch(i) + text(runs[i].argument));
    h.columns[1].rows.emplace_back(runs[i].label, text(drive_name(runs[i])));
  }
  h.columns[2].title = "Comparison";
  h.columns[2].rows = {{"Results kind", text(cmp.results_kind)},
                       {"Tests compared", text(std::to_string(cmp.compared_tests.size()))},
                       {"Forced", cmp.forced ? "<b class=\"bad\">yes (--force)</b>" : "no"}};
  h.columns[3].title = "Differences";
  const size_t workload = count_differences(cmp, true);
  h.columns[3].rows = {{"Workload", workload == 0 ? "none" : "<b class=\"bad\">" + std::to_string(workload) + "</b>"},
                       {"Settings", text(std::to_string(count_differences(cmp, false)))}};
  return h;
}

std::string difference_text(const Comparison& cmp, const ComparisonDifference& d) {
  std::string out = (d.scope == "run" ? "" : d.scope + " ") + d.field + ":";
  for (size_t i = 0; i < d.values.size() && i < cmp.runs.size(); ++i) {
    const std::string& v = d.values[i];
    out += fmt::format("{} {} = {}", i == 0 ? "" : ";", cmp.runs[i].label, v.empty() ? "(none)" : v);
  }
  return out;
}

// The banner of a forced comparison: every workload difference.
Block workload_banner(const Comparison& cmp) {
  std::string items;
  for (const ComparisonDifference& d : cmp.differences) {
    if (d.workload) {
      items += "<li>" + text(difference_text(cmp, d)) + "</li>";
    }
  }
  return html_block(element("div", "verdict bad",
                            "Workloads differ: these runs did not run the same workload; the overlay was forced "
                            "(--force)<ul class=\"reasons\">" +
                                items + "</ul>"));
}

Block identity_block(const Comparison& cmp) {
  Table t;
  t.css_class = "data";
  t.header = {"Run", "Vendor", "Model", "Serial", "Firmware", "Started (UTC)", "Capacity"};
  t.first_numeric_column = 6;
  for (size_t i = 0; i < cmp.runs.size(); ++i) {
    const ComparedRun& run = cmp.runs[i];
    const results::DriveIdentity& id = run.identity;
    t.rows.push_back({swatch(i) + text(run.label), text(id.vendor.value_or("")), text(id.model.value_or("")),
                      text(id.serial.value_or("")), text(id.firmware.value_or("")), text(run.started_utc),
                      text(id.capacity_bytes ? fmt_bytes(*id.capacity_bytes) : "\u2013")});
  }
  return table_block(render_table(t), "Drives: identity from each run's results.json, legend colour per run");
}

Block sources_block(const Comparison& cmp) {
  Table t;
  t.css_class = "data compact";
  t.header = {"Run", "Run directory", "History ID", "results.json SHA-256"};
  t.first_numeric_column = 9;
  for (const ComparedRun& run : cmp.runs) {
    t.rows.push_back({text(run.label), text(run.dir), text(run.history_id ? std::to_string(*run.history_id) : "\u2013"),
                      "<code>" + text(run.results_sha256) + "</code>"});
  }
  return table_block(render_table(t), "Sources: the results documents compared");
}

Block tests_block(const Comparison& cmp) {
  Table t;
  t.css_class = "data compact";
  t.header = {"Test", "Compared", "Note"};
  t.first_numeric_column = 9;
  for (const ComparedTest& test : cmp.tests) {
    t.rows.push_back({text(test.id + " \u2013 " + test.title), "yes",
                      test.workload_differences.empty() ? "" : "<b class=\"bad\">workloads differ</b>"});
  }
  for (const results::UncomparedTest& missing : cmp.tests_not_in_every_run) {
    t.rows.push_back({text(missing.id), "no", text("only in " + missing.run)});
  }
  return table_block(render_table(t), "Tests: compared when every run has them (matched by test id)");
}

// "Settings that differ between runs", as many pages as needed.
std::vector<Page> settings_pages(const Comparison& cmp, const std::shared_ptr<const PageHeader>& header) {
  Table all;
  all.css_class = "data compact";
  all.header = {"Scope", "Setting"};
  for (const ComparedRun& run : cmp.runs) {
    all.header.push_back(run.label);
  }
  all.first_numeric_column = all.header.size();
  for (const ComparisonDifference& d : cmp.differences) {
    std::vector<std::string> row = {text(d.scope), text(d.field)};
    for (const std::string& v : d.values) {
      row.push_back(text(v.empty() ? "\u2013" : v));
    }
    all.rows.push_back(std::move(row));
    all.row_classes.emplace_back(d.workload ? "fail" : "");
  }
  std::vector<Page> pages;
  for (size_t first = 0; first < all.rows.size() || first == 0; first += k_rows_per_page) {
    Table t = all;
    const size_t last = std::min(all.rows.size(), first + k_rows_per_page);
    t.rows.assign(all.rows.begin() + static_cast<long>(first), all.rows.begin() + static_cast<long>(last));
    t.row_classes.assign(all.row_classes.begin() + static_cast<long>(first),
                         all.row_classes.begin() + static_cast<long>(last));
    std::vector<Block> blocks;
    if (all.rows.empty()) {
      blocks.push_back(html_block(element("p", "note", "Every setting is the same in every run.")));
    } else {
      blocks.push_back(table_block(render_table(t), "Settings that differ between runs (workload fields in red)"));
    }
    pages.push_back({header, "Settings That Differ Between Runs", std::move(blocks)});
    if (all.rows.empty()) {
      break;
    }
  }
  return pages;
}

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
  const std::string x_unit = group.x_unit.empty() ? "" : " (" + group.x_unit + ")";
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
                    : group.x_unit == "IOPS" ? text(grouped_iops(it->x))
                                             : text(fmt::format("{:g}", it->x)));
      row.push_back(it == points.end() ? "\u2013" : text(v.format(it->y)));
    }
    t.rows.push_back(std::move(row));
  }
  (void)x_unit;
  return t;
}

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

void append(std::vector<Page>& pages, std::vector<Page> more) {
  for (Page& p : more) {
    pages.push_back(std::move(p));
  }
}

std::string delta_value_text(double v, const std::string& unit, bool sign);

// A ranking figure's value in its unit ("412.0 µs", "52,001 IOPS", "0 steps").
std::string rank_value_text(const results::RankFigure& f, double v) {
  if (!std::isfinite(v)) return "\u2013";
  if (f.unit == "ns" || f.unit == "IOPS") return delta_value_text(v, f.unit, false);
  return fmt::format("{:g} {}", v, f.unit);
}

Block ranking_block(const Comparison& cmp, const results::Ranking& ranking) {
  Table t;
  t.css_class = "data";
  t.header = {"Rank", "Drive"};
  for (const results::RankFigure& f : ranking.figures) t.header.push_back(f.label + " (" + f.better + " is better)");
  t.first_numeric_column = 2;
  for (size_t i = 0; i < ranking.order.size(); ++i) {
    const uint32_t r = ranking.order[i];
    if (r >= cmp.runs.size()) continue;
    std::vector<std::string> row = {text(std::to_string(i + 1)),
                                    swatch(r) + text(cmp.runs[r].label + " \u00b7 " + drive_name(cmp.runs[r]))};
    for (const results::RankFigure& f : ranking.figures) {
      row.push_back(text(rank_value_text(f, r < f.values.size() ? f.values[r] : std::nan(""))));
    }
    t.rows.push_back(std::move(row));
  }
  return table_block(render_table(t), "Ranking of the runs in " + ranking.title + ": by " + ranking.basis);
}

std::vector<Page> overview_pages(const Comparison& cmp, const std::shared_ptr<const PageHeader>& header) {
  std::vector<Page> pages;
  PageFlow flow(pages, header, "Runs and Drives");
  if (cmp.workloads_differ) flow.add(workload_banner(cmp), 30);
  const double run_rows = static_cast<double>(cmp.runs.size());
  flow.add(identity_block(cmp), 14 + 5 * run_rows);
  for (const results::Ranking& r : cmp.rankings) flow.add(ranking_block(cmp, r), 18 + 5 * run_rows);
  flow.add(sources_block(cmp), 14 + 6 * run_rows);
  flow.add(tests_block(cmp), 14 + 5 * static_cast<double>(cmp.tests.size() + cmp.tests_not_in_every_run.size()));
  return pages;
}

// A value of a delta table with its unit ("412.0 µs", "1.250 ms", "52,001 IOPS").
std::string delta_value_text(double v, const std::string& unit, bool sign) {
  if (!std::isfinite(v)) return "\u2013";
  const std::string plus = sign && v >= 0 ? "+" : "";
  if (unit == "ns") {
    const LatencyUnit u = latency_unit(std::fabs(v));
    return plus + fmt_latency(v, u) + " " + u.name;
  }
  if (unit == "IOPS") return plus + (std::fabs(v) >= 10 || v == 0 ? grouped_iops(v) : fmt_iops(v)) + " IOPS";
  if (unit == "MB/s") return plus + fmt_mbps(v) + " MB/s";
  return plus + fmt_number(v) + " " + unit;
}

// The title of a delta's group without its test's (the table names the test once).
std::string delta_metric(const Comparison& cmp, const results::ComparedDelta& d) {
  for (const ComparedTest& t : cmp.tests) {
    const std::string prefix = t.title + " \u2013 ";
    if (t.id == d.test && d.title.rfind(prefix, 0) == 0) return d.title.substr(prefix.size());
  }
  return d.title;
}

// The delta tables of one test at one x: per group a row of each run's group (or its one drive)
// and a row per drive index, each run's value and its difference to run 1 in the group's unit
// and in %; the sentences that quote the leads under the table.
void delta_table(PageFlow& flow, const Comparison& cmp, const std::vector<const results::ComparedDelta*>& deltas) {
  const results::ComparedDelta& first = *deltas.front();
  Table t;
  t.css_class = "data compact";
  t.header = {"At " + first.at_label, "Scope"};
  for (const ComparedRun& run : cmp.runs) t.header.push_back(run.label);
  for (size_t r = 1; r < cmp.runs.size(); ++r) {
    t.header.push_back(fmt::format("Run {} vs 1", r + 1));
    t.header.push_back(fmt::format("Run {} vs 1 (%)", r + 1));
  }
  t.first_numeric_column = 2;
  bool interpolated = false;
  std::vector<size_t> lines;
  std::string sentences;
  size_t sentence_lines = 0;
  for (const results::ComparedDelta* d : deltas) {
    const std::string metric = delta_metric(cmp, *d) + " (" + d->better + " is better)";
    const bool drives = d->rows.size() > 1;
    for (size_t i = 0; i < d->rows.size(); ++i) {
      const results::DeltaRow& row = d->rows[i];
      std::vector<std::string> cells = {
          i == 0 ? text(metric) : "", text(row.scope == "group" ? (drives ? "group (all drives)" : "run") : row.label)};
      for (size_t r = 0; r < cmp.runs.size(); ++r) {
        const bool between = r < row.how.size() && row.how[r] == "interpolated";
        interpolated = interpolated || between;
        cells.push_back((between ? "\u2248 " : "") +
                        text(delta_value_text(r < row.values.size() ? row.values[r] : std::nan(""), d->unit, false)));
      }
      for (size_t r = 1; r < cmp.runs.size(); ++r) {
        const double pct = r < row.delta_pct.size() ? row.delta_pct[r] : std::nan("");
        cells.push_back(text(delta_value_text(r < row.delta.size() ? row.delta[r] : std::nan(""), d->unit, true)));
        cells.push_back(std::isfinite(pct) ? text(fmt::format("{:+.1f} %", pct)) : "\u2013");
      }
      t.rows.push_back(std::move(cells));
      t.row_classes.emplace_back(i == 0 ? "step-first" : "");
      lines.push_back(i == 0 ? text_lines(metric.size(), 34) : 1);
    }
    sentences += "<li>" + text(d->summary) + "</li>";
    sentence_lines += text_lines(d->summary.size(), 150);
  }
  std::string test_title = first.test;
  for (const ComparedTest& test : cmp.tests) {
    if (test.id == first.test) test_title = test.title;
  }
  flow.add_table(t, lines,
                 test_title + " at " + first.at_label + ": each run's value and its difference to run 1" +
                     (interpolated ? " (\u2248: between two steps, interpolated linearly)" : ""));
  constexpr double k_sentence_line_mm = 4.4;
  flow.add(html_block(element("ul", "reasons", sentences)),
           static_cast<double>(sentence_lines) * k_sentence_line_mm + 4);
}

std::vector<Page> delta_pages(const Comparison& cmp, const std::shared_ptr<const PageHeader>& header) {
  std::vector<Page> pages;
  if (cmp.deltas.empty()) return pages;
  std::string asked;
  for (const std::string& a : cmp.at) asked += (asked.empty() ? "" : ", ") + a;
  PageFlow flow(pages, header, "Differences at the chosen steps (--at " + asked + ")");
  // One table per (x, test), in the order the deltas were made (--at order, then test order).
  std::vector<const results::ComparedDelta*> part;
  for (const results::ComparedDelta& d : cmp.deltas) {
    if (!part.empty() && (part.front()->at_label != d.at_label || part.front()->test != d.test)) {
      delta_table(flow, cmp, part);
      part.clear();
    }
    part.push_back(&d);
  }
  delta_table(flow, cmp, part);
  return pages;
}

}  // namespace

std::string render_compare_html(const Comparison& cmp) {
  IdSource ids;
  const auto overview = std::make_shared<const PageHeader>(
      compare_header(cmp, "Run Comparison \u2013 Report Page", "Runs, drives and settings"));
  std::vector<Page> pages = overview_pages(cmp, overview);
  append(pages, delta_pages(cmp, overview));
  append(pages, settings_pages(cmp, overview));
  for (const ComparedTest& test : cmp.tests) {
    const auto header = std::make_shared<const PageHeader>(
        compare_header(cmp, test.title + " \u2013 Comparison", "Runs overlaid, one series per run"));
    if (test.groups.empty()) {
      pages.push_back({header, test.title, {html_block(element("p", "note", "This test has no values to overlay."))}});
    }
    PageFlow flow(pages, header, test.title);  // the groups one after the other, each chart titled
    for (const ComparedGroup& group : test.groups) group_section(flow, cmp, test, group, ids);
  }
  const std::string models = distinct(cmp, model_of);
  const std::string footer =
      fmt::format("{} {} (git {}) \u00b7 compare schema {} \u00b7 rendered from compare.json only", cmp.tool.name,
                  cmp.tool.version, cmp.tool.git_revision, cmp.schema_version);
  return render_document(pages, "SNIA PTS run comparison \u2013 " + (models.empty() ? "devices" : models), footer);
}

}  // namespace ptsuite::report::compare
