// compare.html (compare_render.hpp): the overview page (runs and drives, workload differences,
// the rankings, tests), the delta tables at the chosen steps (--at), the settings that differ,
// then per compared group its overlay (compare_overlays.hpp: the runs on one chart and its
// table), split across pages as they need (html/page_flow.hpp).
#include <ptsuite/report/compare_render.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include <ptsuite/report/chart/style.hpp>
#include <ptsuite/report/html/figures.hpp>
#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/report/html/page.hpp>
#include <ptsuite/report/html/page_flow.hpp>

#include "report/compare/compare_overlays.hpp"

namespace ptsuite::report::compare {

// "FX-3840 (FX0000000001)": the drive of a run.
std::string drive_name(const results::ComparedRun& run) {
  const std::string model = run.identity.model.value_or("");
  const std::string serial = run.identity.serial.value_or("");
  return (model.empty() ? "unknown model" : model) + (serial.empty() ? "" : " (" + serial + ")");
}

// The legend entry of a run: "Run 1 \u00b7 FX-3840 (FX0000000001)".
std::string run_name(const results::ComparedRun& run) { return run.label + " \u00b7 " + drive_name(run); }

namespace {

using results::ComparedGroup;
using results::ComparedRun;
using results::ComparedTest;
using results::Comparison;
using results::ComparisonDifference;
using namespace ptsuite::report::html;  // the page vocabulary: Page, Block, Table, text() ...
using ptsuite::report::html::text;      // not the report::text namespace (one unity TU sees both)

constexpr size_t k_rows_per_page = 36;  // rows of a settings page

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
  h.simulated = results::simulation_banner(cmp.runs);
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
  if (unit == "IOPS") return plus + (std::fabs(v) >= 10 || v == 0 ? html::grouped(v, 0) : fmt_iops(v)) + " IOPS";
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
