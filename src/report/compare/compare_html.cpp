// compare.html (compare_render.hpp): the overview page (runs and drives, workload differences,
// tests), the settings that differ, then one page per compared group: the runs overlaid on one
// chart (one series per run, the run's legend colour everywhere) and the values per cell.
#include <ptsuite/report/compare_render.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/chart/style.hpp>
#include <ptsuite/report/html/figures.hpp>
#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/report/html/page.hpp>

namespace ptsuite::report::compare {

namespace {

using results::ComparedGroup;
using results::ComparedRun;
using results::ComparedTest;
using results::Comparison;
using results::ComparisonDifference;
using namespace ptsuite::report::html;  // the page vocabulary: Page, Block, Table, text() ...
using ptsuite::report::html::text;      // not the report::text namespace (one unity TU sees both)

constexpr size_t k_rows_with_chart = 14;  // table rows that fit under a chart on one page
constexpr size_t k_rows_per_page = 36;    // table rows of a page without a chart
constexpr size_t k_max_bar_cells = 24;    // more categories than this: table only
constexpr double k_chart_height_px = 400;
constexpr double k_ns_per_ms = 1e6;
const std::vector<results::ComparedPoint> k_no_points;  // a run a series group has no points for

// "FX-3840 (FX0000000001)": the drive of a run.
std::string drive_name(const ComparedRun& run) {
  const std::string model = run.identity.model.value_or("");
  const std::string serial = run.identity.serial.value_or("");
  return (model.empty() ? "unknown model" : model) + (serial.empty() ? "" : " (" + serial + ")");
}

// The legend entry of a run: "Run 1 \u00b7 FX-3840 (FX0000000001)".
std::string run_name(const ComparedRun& run) { return run.label + " \u00b7 " + drive_name(run); }

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

// How a group's unit is shown: the axis label, the chart divisor, the table formatter (which
// takes the stored value).
struct View {
  std::string axis;
  double divisor = 1;
  std::string (*format)(double) = fmt_number;
};

View view_of(const std::string& unit) {
  if (unit == "IOPS") {
    return {"IOPS", 1, fmt_iops};
  }
  if (unit == "MB/s") {
    return {"Throughput (MB/s, decimal)", 1, fmt_mbps};
  }
  if (unit == "ns") {
    return {"Response time (ms)", k_ns_per_ms, fmt_ms};
  }
  return {unit, 1, fmt_number};
}

// "Latency \u2013 ART ...": the group's title, prefixed with the test's unless it starts with it.
std::string group_title(const ComparedTest& test, const ComparedGroup& group) {
  return group.title.rfind(test.title, 0) == 0 ? group.title : test.title + " \u2013 " + group.title;
}

// The value at [run][cell] of a values or delta_pct table; NaN when the table has none.
double table_cell_value(const std::vector<std::vector<double>>& table, size_t run, size_t cell) {
  return run < table.size() && cell < table[run].size() ? table[run][cell] : std::nan("");
}

// One series per run: a series group's own points, or a cells group's values over its cells
// (block sizes as x, else the cell's index for a bar chart).
std::vector<chart::NamedSeries> run_series(const Comparison& cmp, const ComparedGroup& group, double divisor) {
  std::vector<chart::NamedSeries> series;
  const bool sizes = group.x_axis == results::XAxis::block_size;
  for (size_t r = 0; r < cmp.runs.size(); ++r) {
    series.push_back({run_name(cmp.runs[r]), {}});
    if (group.kind == results::GroupKind::series) {
      for (const results::ComparedPoint& p : r < group.series.size() ? group.series[r] : k_no_points) {
        series.back().points.push_back({p.x, p.y / divisor});
      }
      continue;
    }
    for (size_t i = 0; i < group.cells.size(); ++i) {
      if (!sizes || std::isfinite(group.cells[i].x)) {
        series.back().points.push_back(
            {sizes ? group.cells[i].x : static_cast<double>(i), table_cell_value(group.values, r, i) / divisor});
      }
    }
  }
  return series;
}

chart::Chart group_chart(const Comparison& cmp, const ComparedTest& test, const ComparedGroup& group) {
  const View v = view_of(group.unit);
  const chart::Titles titles{group_title(test, group), "one series per run", "cmp-" + test.id + "-" + group.id};
  const chart::ScaleKind scale = group.y_log ? chart::ScaleKind::log10 : chart::ScaleKind::linear;
  const std::vector<chart::NamedSeries> series = run_series(cmp, group, v.divisor);
  chart::Chart c;
  if (group.kind == results::GroupKind::series) {
    c = chart::time_series_chart(titles, group.x_label, v.axis, series, scale);
  } else if (group.x_axis == results::XAxis::block_size) {
    c = chart::block_size_chart(titles, v.axis, series, scale);
  } else {
    std::vector<std::string> categories;
    for (const results::ComparedCell& cell : group.cells) {
      categories.push_back(cell.label);
    }
    c = chart::grouped_bar_chart(titles, group.x_label, categories, v.axis, series, scale);
  }
  for (size_t i = 0; i < c.series.size(); ++i) {
    c.series[i].look = i;
  }
  c.legend = chart::LegendPlacement::bottom;
  return c;
}

// The values table of a cells group: one row per cell, each run's value, each run's difference
// to run 1.
Table group_table(const Comparison& cmp, const ComparedGroup& group) {
  const View v = view_of(group.unit);
  const size_t runs = cmp.runs.size();
  Table t;
  t.css_class = "data compact";
  t.header = {group.x_label};
  for (const ComparedRun& run : cmp.runs) {
    t.header.push_back(run.label + " (" + (group.unit == "ns" ? "ms" : group.unit) + ")");
  }
  for (size_t r = 1; r < runs; ++r) {
    t.header.push_back(fmt::format("Run {} vs 1", r + 1));
  }
  for (size_t i = 0; i < group.cells.size(); ++i) {
    std::vector<std::string> row = {text(group.cells[i].label)};
    for (size_t r = 0; r < runs; ++r) {
      row.push_back(text(v.format(table_cell_value(group.values, r, i))));
    }
    for (size_t r = 1; r < runs; ++r) {
      const double d = table_cell_value(group.delta_pct, r, i);
      row.push_back(std::isfinite(d) ? text(fmt::format("{:+.1f} %", d)) : "\u2013");
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::vector<Page> group_pages(const Comparison& cmp, const ComparedTest& test, const ComparedGroup& group,
                              const std::shared_ptr<const PageHeader>& header, IdSource& ids) {
  const std::string title = group_title(test, group);
  std::vector<Block> blocks;
  if (!test.workload_differences.empty()) {
    std::string fields;
    for (const std::string& f : test.workload_differences) {
      fields += (fields.empty() ? "" : ", ") + f;
    }
    blocks.push_back(html_block(element(
        "div", "verdict bad", text("Workloads differ for this test (" + fields + "): the overlay was forced"))));
  }
  const bool cells = group.kind == results::GroupKind::cells;
  const size_t n = cells ? group.cells.size() : 0;
  const bool with_chart = !cells || group.x_axis == results::XAxis::block_size || n <= k_max_bar_cells;
  if (with_chart) {
    blocks.push_back(
        chart_block(group_chart(cmp, test, group), title + ", one series per run", ids, k_chart_height_px));
  }
  std::vector<Page> pages;
  if (!cells) {
    blocks.push_back(
        html_block(element("p", "note", "Every point of every run, with its sample or cell, is in compare.csv.")));
    pages.push_back({header, title, std::move(blocks)});
    return pages;
  }
  const Table all = group_table(cmp, group);
  size_t first = 0;
  size_t room = with_chart ? k_rows_with_chart : k_rows_per_page;
  do {
    Table t = all;
    const size_t last = std::min(all.rows.size(), first + room);
    t.rows.assign(all.rows.begin() + static_cast<long>(first), all.rows.begin() + static_cast<long>(last));
    blocks.push_back(table_block(render_table(t), title + ": each run's value and its difference to run 1"));
    pages.push_back({header, title, std::move(blocks)});
    blocks.clear();
    first = last;
    room = k_rows_per_page;
  } while (first < all.rows.size());
  return pages;
}

void append(std::vector<Page>& pages, std::vector<Page> more) {
  for (Page& p : more) {
    pages.push_back(std::move(p));
  }
}

std::vector<Page> overview_pages(const Comparison& cmp, const std::shared_ptr<const PageHeader>& header) {
  std::vector<Block> blocks;
  if (cmp.workloads_differ) {
    blocks.push_back(workload_banner(cmp));
  }
  blocks.push_back(identity_block(cmp));
  std::vector<Page> pages;
  if (cmp.runs.size() > 4) {  // a long identity table: sources and tests on the next page
    pages.push_back({header, "Runs and Drives", std::move(blocks)});
    blocks.clear();
  }
  blocks.push_back(sources_block(cmp));
  blocks.push_back(tests_block(cmp));
  pages.push_back({header, "Runs and Drives", std::move(blocks)});
  return pages;
}

}  // namespace

std::string render_compare_html(const Comparison& cmp) {
  IdSource ids;
  const auto overview = std::make_shared<const PageHeader>(
      compare_header(cmp, "Run Comparison \u2013 Report Page", "Runs, drives and settings"));
  std::vector<Page> pages = overview_pages(cmp, overview);
  append(pages, settings_pages(cmp, overview));
  for (const ComparedTest& test : cmp.tests) {
    const auto header = std::make_shared<const PageHeader>(
        compare_header(cmp, test.title + " \u2013 Comparison", "Runs overlaid, one series per run"));
    if (test.groups.empty()) {
      pages.push_back({header, test.title, {html_block(element("p", "note", "This test has no values to overlay."))}});
    }
    for (const ComparedGroup& group : test.groups) {
      append(pages, group_pages(cmp, test, group, header, ids));
    }
  }
  const std::string models = distinct(cmp, model_of);
  const std::string footer =
      fmt::format("{} {} (git {}) \u00b7 compare schema {} \u00b7 rendered from compare.json only", cmp.tool.name,
                  cmp.tool.version, cmp.tool.git_revision, cmp.schema_version);
  return render_document(pages, "SNIA PTS run comparison \u2013 " + (models.empty() ? "devices" : models), footer);
}

}  // namespace ptsuite::report::compare
