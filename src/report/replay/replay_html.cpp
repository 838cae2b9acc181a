// replay_html(): a replay's HTML report (report/replay_report.hpp).
#include <fmt/format.h>
#include <map>
#include <memory>

#include <ptsuite/report/chart/model.hpp>
#include <ptsuite/report/chart/render.hpp>
#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/report/html/page.hpp>
#include <ptsuite/report/html/page_flow.hpp>
#include <ptsuite/report/replay_report.hpp>

#include "report/replay/replay_sections.hpp"

namespace ptsuite::report {

namespace {

using results::ReplayRecord;
using results::ReplayStep;

constexpr double k_replay_ns_per_s = 1e9;
constexpr double k_ns_per_us = 1e3;

std::string us_text(uint64_t ns) { return fmt::format("{:.1f}", static_cast<double>(ns) / k_ns_per_us); }

// "ACME FX-3840 (serial FX01, firmware 1.0)": the drive replayed on; "" when unknown.
std::string drive_text(const results::DriveIdentity& id) {
  std::string out = id.vendor.value_or("");
  const std::string model = id.model.value_or("");
  if (!model.empty()) out += (out.empty() ? "" : " ") + model;
  std::string details;
  if (id.serial && !id.serial->empty()) details += "serial " + *id.serial;
  if (id.firmware && !id.firmware->empty()) details += (details.empty() ? "" : ", ") + ("firmware " + *id.firmware);
  if (id.transport) details += (details.empty() ? "" : ", ") + *id.transport;
  return details.empty() ? out : out + (out.empty() ? "" : " ") + "(" + details + ")";
}

html::Rows summary_rows(const ReplayRecord& r) {
  html::Rows rows = {
      {"Capture", html::text(fmt::format("{} (device {}, {}; source {}{})", r.capture_file, r.capture_device,
                                         html::fmt_bytes(r.capture_capacity_bytes), r.capture_source,
                                         r.capture_complete ? "" : "; no trailer"))},
      {"Target", html::text(fmt::format("{} ({}{})", r.target, html::fmt_bytes(r.target_capacity_bytes),
                                        r.target_note.empty() ? "" : "; " + r.target_note))},
      {"Replay", html::text(fmt::format("{} loop, speed {}x, engine {}, {} queue slots, {} per step, {}", r.mode,
                                        r.speed, r.engine, r.queue_slots, html::fmt_duration_ns(r.step_ns),
                                        html::fmt_duration_ns(r.duration_ns)))},
      {"IOs", html::text(fmt::format("{} captured, {} replayed, {} skipped (not read/write), {} remapped, {} "
                                     "rounded up",
                                     r.capture_ios, r.replayed_ios, r.skipped_ios, r.remapped_ios, r.resized_ios))},
      {"Issue-time error",
       html::text(r.mode == "open" ? fmt::format("p50 {} us, p99 {} us, max {} us; {} of {} steps could not "
                                                 "keep up",
                                                 us_text(r.issue_error_p50_ns), us_text(r.issue_error_p99_ns),
                                                 us_text(r.issue_error_max_ns), r.steps_fell_behind, r.steps.size())
                                   : "closed loop: IOs are issued as completions allow, not at times")},
      {"Ended", html::text(r.stop_reason + (r.error.empty() ? "" : ": " + r.error))}};
  if (!r.capture_id.empty()) rows.emplace(rows.begin() + 1, "Capture id", html::text(r.capture_id));
  const std::string drive = drive_text(r.target_identity);
  if (!drive.empty()) rows.emplace(rows.begin() + 3, "Target drive", html::text(drive));
  if (r.latency) {
    std::string lines;
    for (const replay_detail::DirectionRow& d : replay_detail::directions_of(*r.latency)) {
      lines += (lines.empty() ? "" : "<br>") + html::text(replay_detail::latency_line(*d.figures, d.label, false));
    }
    rows.emplace_back("Response time", lines);
  }
  for (const results::ReplaySetting& s : r.settings) {
    rows.emplace_back(s.name, html::text(fmt::format("{} ({})", s.value, s.note)));
  }
  return rows;
}

html::Block summary(const ReplayRecord& r) {
  return {html::BlockKind::html, html::render_rows(summary_rows(r), "rows"), "", ""};
}

void step_table(html::PageFlow& flow, const ReplayRecord& r) {
  html::Table t;
  t.css_class = "data compact steps";
  t.header = {"Step",
              "IOPS captured",
              "IOPS replayed",
              "MB/s captured",
              "MB/s replayed",
              "Read % captured",
              "Read % replayed",
              "Outstanding captured",
              "Outstanding replayed",
              "Sizes",
              "Issue error p50 / p99 / max (us)",
              "Kept up"};
  for (size_t k = 0; k < r.steps.size(); ++k) {
    const ReplayStep& s = r.steps[k];
    t.rows.push_back(
        {html::text(std::to_string(k + 1)), html::fmt_iops(s.captured.iops), html::fmt_iops(s.replayed.iops),
         html::fmt_mbps(s.captured.mb_per_s), html::fmt_mbps(s.replayed.mb_per_s),
         html::fmt_number(s.captured.read_pct), html::fmt_number(s.replayed.read_pct),
         html::fmt_number(s.captured.outstanding_mean), html::fmt_number(s.replayed.outstanding_mean),
         html::text(sizes_reproduced(s) ? "same" : "differ"),
         html::text(r.mode == "open" ? fmt::format("{} / {} / {}", us_text(s.issue_error_p50_ns),
                                                   us_text(s.issue_error_p99_ns), us_text(s.issue_error_max_ns))
                                     : "-"),
         html::text(s.fell_behind ? "no" : "yes")});
    t.row_classes.emplace_back(s.fell_behind ? "fail" : "");
  }
  flow.add_table(t, r.mode == "open" && r.speed != 1
                        ? fmt::format("Per step: the replay's expected IOPS and MB/s are the capture's x {}", r.speed)
                        : "Per step: the capture's figures next to the replay's");
}

// Block sizes per table row: a step's sizes fill rows of this many (size, captured, replayed)
// triples, so 17 steps x 27 sizes are 119 rows on about three pages, not 459 rows on twelve.
constexpr size_t k_sizes_per_row = 4;

void sizes_table(html::PageFlow& flow, const ReplayRecord& r) {
  html::Table t;
  t.css_class = "data compact steps";
  t.first_numeric_column = 1;
  t.header = {"Step"};
  for (size_t i = 0; i < k_sizes_per_row; ++i) {
    for (const char* h : {"Size", "IOs captured", "IOs replayed"}) t.header.emplace_back(h);
  }
  size_t sizes_in_all = 0;
  size_t differ = 0;
  for (size_t k = 0; k < r.steps.size(); ++k) {
    std::map<uint32_t, std::pair<uint64_t, uint64_t>> sizes;
    for (const results::SizeCount& c : r.steps[k].captured.sizes) sizes[c.size_bytes].first = c.ios;
    for (const results::SizeCount& c : r.steps[k].replayed.sizes) sizes[c.size_bytes].second = c.ios;
    size_t in_row = k_sizes_per_row;
    bool first = true;
    for (const auto& [size, ios] : sizes) {
      if (in_row == k_sizes_per_row) {  // a new row: the step's number on its first one
        t.rows.push_back({first ? std::to_string(k + 1) : ""});
        t.row_classes.emplace_back(first ? "step-first" : "");
        first = false;
        in_row = 0;
      }
      const bool same = ios.first == ios.second;
      const auto count = [same](uint64_t n) {
        return same ? std::to_string(n) : "<b class=\"bad\">" + std::to_string(n) + "</b>";
      };
      std::string label = html::kib_label(size);  // "10 KiB" on one line: a no-break space
      label.replace(label.find(' '), 1, "\u00a0");
      t.rows.back().push_back(html::text(label));
      t.rows.back().push_back(count(ios.first));
      t.rows.back().push_back(count(ios.second));
      ++in_row;
      ++sizes_in_all;
      differ += same ? 0 : 1;
    }
  }
  flow.add_table(t, fmt::format("Block-size distribution per step: {} sizes in all, {} with other counts in the replay "
                                "(in bold red), {} to a row",
                                sizes_in_all, differ, k_sizes_per_row));
}

void add_chart(html::PageFlow& flow, const ReplayRecord& r, bool errors) {
  chart::Chart c;
  c.id = errors ? "replay-error" : "replay-iops";
  c.title = errors ? "Issue-time error per step" : "IOPS per step";
  c.x.label = "Step";
  c.x.include_zero = true;
  c.y.label = errors ? "Replayed - scheduled (us)" : "IOPS";
  c.y.include_zero = true;
  c.height_px = 300;  // both charts on one page, each at its own size
  const double scale = r.mode == "open" ? r.speed : 1.0;
  std::vector<chart::Series> series(errors ? 3 : 2);
  series[0].name = errors ? "p50" : fmt::format("captured{}", scale != 1 ? fmt::format(" x {}", scale) : "");
  series[1].name = errors ? "p99" : "replayed";
  if (errors) series[2].name = "max";
  for (size_t k = 0; k < r.steps.size(); ++k) {
    const ReplayStep& s = r.steps[k];
    const auto x = static_cast<double>(k + 1);
    if (errors) {
      series[0].points.push_back({x, static_cast<double>(s.issue_error_p50_ns) / k_ns_per_us});
      series[1].points.push_back({x, static_cast<double>(s.issue_error_p99_ns) / k_ns_per_us});
      series[2].points.push_back({x, static_cast<double>(s.issue_error_max_ns) / k_ns_per_us});
    } else {
      series[0].points.push_back({x, s.captured.iops * scale});
      series[1].points.push_back({x, s.replayed.iops});
    }
  }
  c.series = std::move(series);
  flow.add_figure(chart::render_svg(c), c.height_px,
                  errors ? "Issue-time error (replayed issue time - scheduled time) per step"
                         : "IOPS the capture asked for and IOPS the replay delivered, per step");
}

}  // namespace

std::string replay_html(const ReplayRecord& r) {
  auto header = std::make_shared<html::PageHeader>();
  header->title = "Replay: " + r.capture_file;
  header->subtitle = "A captured workload replayed on a target, and how faithfully";
  header->revision = "ptsuite replay";
  header->organisation = {"ptsuite", "Workload replay", "modelled on RWSW; not RWSW-compliant"};
  header->run_dates = r.started_utc;
  header->columns[0].title = "Capture";
  header->columns[0].rows.emplace_back("File", html::text(r.capture_file));
  header->columns[0].rows.emplace_back("Device", html::text(r.capture_device));
  header->columns[1].title = "Target";
  header->columns[1].rows.emplace_back("Path", html::text(r.target));
  header->columns[1].rows.emplace_back("Capacity", html::text(html::fmt_bytes(r.target_capacity_bytes)));
  header->columns[2].title = "Replay";
  header->columns[2].rows.emplace_back("Mode", html::text(r.mode + " loop"));
  header->columns[2].rows.emplace_back("Speed", html::text(fmt::format("{}x", r.speed)));
  if (r.ramp) {
    header->columns[2].rows.emplace_back(
        "Ramp", html::text(fmt::format("{} rates, limit {:.0f} IOPS", r.ramp->points.size(), r.ramp->limit_iops)));
  }
  header->columns[3].title = "Units";
  header->columns[3].rows.emplace_back("MB", "10<sup>6</sup> bytes");
  const std::string drive = drive_text(r.target_identity);
  if (!drive.empty()) header->columns[1].rows.emplace_back("Drive", html::text(drive));
  header->vendor = r.target_identity.vendor.value_or("");
  header->model = r.target_identity.model.value_or("");
  std::vector<html::Page> pages;
  {
    html::PageFlow flow(pages, header, "Replay: summary and settings");
    const html::Block s = summary(r);
    flow.add(s, html::rows_height_mm(summary_rows(r)));
    step_table(flow, r);
  }
  {
    html::PageFlow flow(pages, header, "Replay: IOPS and issue-time error");
    add_chart(flow, r, false);
    if (r.mode == "open") add_chart(flow, r, true);
  }
  {
    html::PageFlow flow(pages, header, "Replay: response times of the target");
    replay_detail::latency_section(flow, r);
  }
  if (r.ramp) {
    html::PageFlow flow(pages, header, "Replay: rate ramp (load curve)");
    replay_detail::ramp_section(flow, r);
  }
  {
    html::PageFlow flow(pages, header, "Replay: block-size distribution");
    sizes_table(flow, r);
  }
  return html::render_document(pages, "ptsuite replay " + r.capture_file,
                               "ptsuite - rendered from the replay record only");
}

}  // namespace ptsuite::report
