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

using nlohmann::json;
using namespace ptsuite::report::html;  // the page vocabulary: Page, Block, Table, at(), str(), text() ...

constexpr size_t k_rows_with_chart = 14;  // table rows that fit under a chart on one page
constexpr size_t k_rows_per_page = 36;    // table rows of a page without a chart
constexpr size_t k_max_bar_cells = 24;    // more categories than this: table only
constexpr double k_chart_height_px = 400;
constexpr double k_ns_per_ms = 1e6;

const json& runs_of(const json& cmp) { return at(cmp, "runs"); }

// "FX-3840 (FX0000000001)": the drive of a run.
std::string drive_name(const json& run) {
  const std::string model = str(at(run, {"identity", "model"}));
  const std::string serial = str(at(run, {"identity", "serial"}));
  return (model.empty() ? "unknown model" : model) + (serial.empty() ? "" : " (" + serial + ")");
}

// The legend entry of a run: "Run 1 \u00b7 FX-3840 (FX0000000001)".
std::string run_name(const json& run) { return str(at(run, "label")) + " \u00b7 " + drive_name(run); }

std::string swatch(size_t index) {
  return fmt::format(
      "<span style=\"display:inline-block;width:0.9em;height:0.9em;margin-right:0.3em;vertical-align:middle;"
      "background:{}\"></span>",
      chart::series_look(index).colour);
}

// The distinct values of a field over the runs, joined with " / ".
std::string distinct(const json& cmp, std::initializer_list<std::string_view> path) {
  std::vector<std::string> values;
  for (const json& run : runs_of(cmp)) {
    const std::string v = str(at(run, path));
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

size_t count_differences(const json& cmp, bool workload) {
  size_t n = 0;
  for (const json& d : at(cmp, "differences")) {
    n += at(d, "workload").is_boolean() && at(d, "workload").get<bool>() == workload ? 1 : 0;
  }
  return n;
}

PageHeader compare_header(const json& cmp, const std::string& title, const std::string& subtitle) {
  PageHeader h;
  h.title = title;
  h.subtitle = subtitle;
  h.revision = revision_label(distinct(cmp, {"spec", "revision"}));
  h.organisation = {"ptsuite", "Run comparison", "drive by drive"};
  h.profile = distinct(cmp, {"spec", "profile"});
  const json& runs = runs_of(cmp);
  h.run_dates = runs.empty() ? "" : "runs started " + distinct(cmp, {"started_utc"});
  h.vendor = distinct(cmp, {"identity", "vendor"});
  h.model = distinct(cmp, {"identity", "model"});
  h.tested_by = distinct(cmp, {"tested_by"});
  h.columns[0].title = "Runs";
  h.columns[1].title = "Devices Under Test";
  for (size_t i = 0; i < runs.size(); ++i) {
    const std::string label = str(at(runs[i], "label"));
    h.columns[0].rows.emplace_back(label, swatch(i) + text(str(at(runs[i], "argument"))));
    h.columns[1].rows.emplace_back(label, text(drive_name(runs[i])));
  }
  h.columns[2].title = "Comparison";
  h.columns[2].rows = {{"Results kind", text(str(at(cmp, "results_kind")))},
                       {"Tests compared", text(std::to_string(at(cmp, "compared_tests").size()))},
                       {"Forced", at(cmp, "forced") == true ? "<b class=\"bad\">yes (--force)</b>" : "no"}};
  h.columns[3].title = "Differences";
  const size_t workload = count_differences(cmp, true);
  h.columns[3].rows = {{"Workload", workload == 0 ? "none" : "<b class=\"bad\">" + std::to_string(workload) + "</b>"},
                       {"Settings", text(std::to_string(count_differences(cmp, false)))}};
  return h;
}

std::string difference_text(const json& cmp, const json& d) {
  const std::string scope = str(at(d, "scope"));
  std::string out = (scope == "run" ? "" : scope + " ") + str(at(d, "field")) + ":";
  const json& values = at(d, "values");
  const json& runs = runs_of(cmp);
  for (size_t i = 0; values.is_array() && i < values.size() && i < runs.size(); ++i) {
    const std::string v = values[i].is_string() ? values[i].get<std::string>() : "";
    out += fmt::format("{} {} = {}", i == 0 ? "" : ";", str(at(runs[i], "label")), v.empty() ? "(none)" : v);
  }
  return out;
}

// The banner of a forced comparison: every workload difference.
Block workload_banner(const json& cmp) {
  std::string items;
  for (const json& d : at(cmp, "differences")) {
    if (at(d, "workload") == true) {
      items += "<li>" + text(difference_text(cmp, d)) + "</li>";
    }
  }
  return html_block(element("div", "verdict bad",
                            "Workloads differ: these runs did not run the same workload; the overlay was forced "
                            "(--force)<ul class=\"reasons\">" +
                                items + "</ul>"));
}

Block identity_block(const json& cmp) {
  Table t;
  t.css_class = "data";
  t.header = {"Run", "Vendor", "Model", "Serial", "Firmware", "Started (UTC)", "Capacity"};
  t.first_numeric_column = 6;
  const json& runs = runs_of(cmp);
  for (size_t i = 0; i < runs.size(); ++i) {
    const json& id = at(runs[i], "identity");
    const json& cap = at(id, "capacity_bytes");
    t.rows.push_back({swatch(i) + text(str(at(runs[i], "label"))), text(str(at(id, "vendor"))),
                      text(str(at(id, "model"))), text(str(at(id, "serial"))), text(str(at(id, "firmware"))),
                      text(str(at(runs[i], "started_utc"))),
                      text(cap.is_number_unsigned() ? fmt_bytes(cap.get<uint64_t>()) : "\u2013")});
  }
  return table_block(render_table(t), "Drives: identity from each run's results.json, legend colour per run");
}

Block sources_block(const json& cmp) {
  Table t;
  t.css_class = "data compact";
  t.header = {"Run", "Run directory", "History ID", "results.json SHA-256"};
  t.first_numeric_column = 9;
  for (const json& run : runs_of(cmp)) {
    const json& hid = at(run, "history_id");
    t.rows.push_back({text(str(at(run, "label"))), text(str(at(run, "dir"))), text(hid.is_null() ? "\u2013" : str(hid)),
                      "<code>" + text(str(at(run, "results_sha256"))) + "</code>"});
  }
  return table_block(render_table(t), "Sources: the results documents compared");
}

Block tests_block(const json& cmp) {
  Table t;
  t.css_class = "data compact";
  t.header = {"Test", "Compared", "Note"};
  t.first_numeric_column = 9;
  for (const json& test : at(cmp, "tests")) {
    const size_t n = at(test, "workload_differences").size();
    t.rows.push_back({text(str(at(test, "id")) + " \u2013 " + str(at(test, "title"))), "yes",
                      n == 0 ? "" : "<b class=\"bad\">workloads differ</b>"});
  }
  for (const json& missing : at(cmp, "tests_not_in_every_run")) {
    t.rows.push_back({text(str(at(missing, "id"))), "no", text("only in " + str(at(missing, "run")))});
  }
  return table_block(render_table(t), "Tests: compared when every run has them (matched by test id)");
}

// "Settings that differ between runs", as many pages as needed.
std::vector<Page> settings_pages(const json& cmp, const std::shared_ptr<const PageHeader>& header) {
  Table all;
  all.css_class = "data compact";
  all.header = {"Scope", "Setting"};
  for (const json& run : runs_of(cmp)) {
    all.header.push_back(str(at(run, "label")));
  }
  all.first_numeric_column = all.header.size();
  for (const json& d : at(cmp, "differences")) {
    std::vector<std::string> row = {text(str(at(d, "scope"))), text(str(at(d, "field")))};
    for (const json& v : at(d, "values")) {
      row.push_back(text(v.is_string() && !v.get<std::string>().empty() ? v.get<std::string>() : "\u2013"));
    }
    all.rows.push_back(std::move(row));
    all.row_classes.emplace_back(at(d, "workload") == true ? "fail" : "");
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
std::string group_title(const json& test, const json& group) {
  const std::string test_title = str(at(test, "title"));
  const std::string title = str(at(group, "title"));
  return title.rfind(test_title, 0) == 0 ? title : test_title + " \u2013 " + title;
}

chart::Chart group_chart(const json& cmp, const json& test, const json& group) {
  const View v = view_of(str(at(group, "unit")));
  const chart::Titles titles{group_title(test, group), "one series per run",
                             "cmp-" + str(at(test, "id")) + "-" + str(at(group, "id"))};
  const chart::ScaleKind scale =
      str(at(group, "y_scale")) == "log" ? chart::ScaleKind::log10 : chart::ScaleKind::linear;
  const json& runs = runs_of(cmp);
  std::vector<chart::NamedSeries> series;
  chart::Chart c;
  if (str(at(group, "kind")) == "series") {
    for (size_t r = 0; r < runs.size(); ++r) {
      series.push_back({run_name(runs[r]), {}});
      for (const json& p : r < at(group, "series").size() ? at(group, "series")[r] : json::array()) {
        series.back().points.push_back({num(at(p, "x")), num(at(p, "y")) / v.divisor});
      }
    }
    c = chart::time_series_chart(titles, str(at(group, "x_label")), v.axis, series, scale);
  } else {
    const json& cells = at(group, "cells");
    const json& values = at(group, "values");
    std::vector<std::string> categories;
    for (const json& cell : cells) {
      categories.push_back(str(at(cell, "label")));
    }
    const bool sizes = str(at(group, "x_axis")) == "block_size";
    for (size_t r = 0; r < runs.size(); ++r) {
      series.push_back({run_name(runs[r]), {}});
      for (size_t i = 0; i < cells.size(); ++i) {
        const double y = r < values.size() && i < values[r].size() ? num(values[r][i]) / v.divisor : std::nan("");
        if (!sizes || std::isfinite(num(at(cells[i], "x")))) {
          series.back().points.push_back({sizes ? num(at(cells[i], "x")) : static_cast<double>(i), y});
        }
      }
    }
    c = sizes ? chart::block_size_chart(titles, v.axis, series, scale)
              : chart::grouped_bar_chart(titles, str(at(group, "x_label")), categories, v.axis, series, scale);
  }
  for (size_t i = 0; i < c.series.size(); ++i) {
    c.series[i].look = i;
  }
  c.legend = chart::LegendPlacement::bottom;
  return c;
}

// The values table of a cells group: one row per cell, each run's value, each run's difference
// to run 1.
Table group_table(const json& cmp, const json& group) {
  const View v = view_of(str(at(group, "unit")));
  const json& runs = runs_of(cmp);
  Table t;
  t.css_class = "data compact";
  t.header = {str(at(group, "x_label"))};
  for (const json& run : runs) {
    t.header.push_back(str(at(run, "label")) + " (" + str(at(group, "unit") == "ns" ? "ms" : str(at(group, "unit"))) +
                       ")");
  }
  for (size_t r = 1; r < runs.size(); ++r) {
    t.header.push_back(fmt::format("Run {} vs 1", r + 1));
  }
  const json& values = at(group, "values");
  const json& delta = at(group, "delta_pct");
  const json& cells = at(group, "cells");
  for (size_t i = 0; i < cells.size(); ++i) {
    std::vector<std::string> row = {text(str(at(cells[i], "label")))};
    for (size_t r = 0; r < runs.size(); ++r) {
      const double y = r < values.size() && i < values[r].size() ? num(values[r][i]) : std::nan("");
      row.push_back(text(v.format(y)));
    }
    for (size_t r = 1; r < runs.size(); ++r) {
      const double d = r < delta.size() && i < delta[r].size() ? num(delta[r][i]) : std::nan("");
      row.push_back(std::isfinite(d) ? text(fmt::format("{:+.1f} %", d)) : "\u2013");
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::vector<Page> group_pages(const json& cmp, const json& test, const json& group,
                              const std::shared_ptr<const PageHeader>& header, IdSource& ids) {
  const std::string title = group_title(test, group);
  std::vector<Block> blocks;
  const json& workload = at(test, "workload_differences");
  if (workload.is_array() && !workload.empty()) {
    std::string fields;
    for (const json& f : workload) {
      fields += (fields.empty() ? "" : ", ") + str(f);
    }
    blocks.push_back(html_block(element(
        "div", "verdict bad", text("Workloads differ for this test (" + fields + "): the overlay was forced"))));
  }
  const bool cells = str(at(group, "kind")) == "cells";
  const size_t n = cells ? at(group, "cells").size() : 0;
  const bool with_chart = !cells || str(at(group, "x_axis")) == "block_size" || n <= k_max_bar_cells;
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

std::vector<Page> overview_pages(const json& cmp, const std::shared_ptr<const PageHeader>& header) {
  std::vector<Block> blocks;
  if (at(cmp, "workloads_differ") == true) {
    blocks.push_back(workload_banner(cmp));
  }
  blocks.push_back(identity_block(cmp));
  std::vector<Page> pages;
  if (runs_of(cmp).size() > 4) {  // a long identity table: sources and tests on the next page
    pages.push_back({header, "Runs and Drives", std::move(blocks)});
    blocks.clear();
  }
  blocks.push_back(sources_block(cmp));
  blocks.push_back(tests_block(cmp));
  pages.push_back({header, "Runs and Drives", std::move(blocks)});
  return pages;
}

}  // namespace

std::string render_compare_html(const json& cmp) {
  IdSource ids;
  const auto overview = std::make_shared<const PageHeader>(
      compare_header(cmp, "Run Comparison \u2013 Report Page", "Runs, drives and settings"));
  std::vector<Page> pages = overview_pages(cmp, overview);
  append(pages, settings_pages(cmp, overview));
  for (const json& test : at(cmp, "tests")) {
    const std::string title = str(at(test, "title"));
    const auto header = std::make_shared<const PageHeader>(
        compare_header(cmp, title + " \u2013 Comparison", "Runs overlaid, one series per run"));
    const json& groups = at(test, "groups");
    if (!groups.is_array() || groups.empty()) {
      pages.push_back({header, title, {html_block(element("p", "note", "This test has no values to overlay."))}});
    }
    for (const json& group : groups) {
      append(pages, group_pages(cmp, test, group, header, ids));
    }
  }
  const std::string models = distinct(cmp, {"identity", "model"});
  const std::string footer = fmt::format(
      "{} {} (git {}) \u00b7 compare schema {} \u00b7 rendered from compare.json only", str(at(cmp, {"tool", "name"})),
      str(at(cmp, {"tool", "version"})), str(at(cmp, {"tool", "git_revision"})), str(at(cmp, "schema_version")));
  return render_document(pages, "SNIA PTS run comparison \u2013 " + (models.empty() ? "devices" : models), footer);
}

}  // namespace ptsuite::report::compare
