// capture_pages() / capture_html(): the characterization's HTML pages (report/capture_report.hpp).
#include <fmt/format.h>
#include <algorithm>

#include <ptsuite/report/capture_report.hpp>
#include <ptsuite/report/chart/model.hpp>
#include <ptsuite/report/chart/render.hpp>
#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/report/html/page_flow.hpp>

namespace ptsuite::report {

namespace {

using results::CharacterizationStep;
using results::IoCharacterization;

constexpr double k_capture_ns_per_s = 1e9;
// Step charts are drawn at the scenario charts' height: two with their captions on a page.
constexpr double k_step_chart_px = 300;

chart::Chart step_chart(const std::string& id, const std::string& title, const std::string& y) {
  chart::Chart c;
  c.id = id;
  c.title = title;
  c.x.label = "Time (s)";
  c.x.include_zero = true;
  c.y.label = y;
  c.y.include_zero = true;
  c.height_px = k_step_chart_px;
  return c;
}

// One point per drawn step at its end, y = value(step).
template <typename Value>
chart::Series per_step(const IoCharacterization& c, const std::string& name, Value value) {
  chart::Series s;
  s.name = name;
  for (const CharacterizationStep& st : c.steps) {
    if (step_drawn(c, st)) s.points.push_back({step_end_s(c, st), value(st)});
  }
  return s;
}

void add_capture_figure(html::PageFlow& flow, const IoCharacterization& capture, chart::Chart c, std::string caption) {
  caption += stub_note(capture);
  if (c.series.size() > 4) chart::place_legend_below(c);
  flow.add_figure(chart::render_svg(c), c.height_px, std::move(caption));
}

// Where the steps start: the first IO, or the workload's start an app run gave.
std::string origin_text(const IoCharacterization& c) {
  for (const CharacterizationStep& s : c.steps) {
    if (s.ios > 0) return s.start_ns == c.origin_ns ? "the first IO" : "the workload's start";
  }
  return "the capture's start";
}

std::string partial_text(const IoCharacterization& c) {
  if (c.steps.empty() || !c.steps.back().partial) return "";
  return fmt::format(", the last one partial ({})", html::fmt_duration_ns(c.steps.back().length_ns));
}

html::Rows summary_rows(const IoCharacterization& c) {
  const units::LatencyUnit lu = units::latency_unit_for(
      {c.latency_mean_ns, static_cast<double>(c.latency_p50_ns), static_cast<double>(c.latency_p99_ns),
       static_cast<double>(c.latency_p999_ns), static_cast<double>(c.latency_max_ns)});
  html::Rows rows = {
      {"Device", html::text(fmt::format("{} ({})", c.device, html::fmt_bytes(c.capacity_bytes)))},
      {"Captured",
       html::text(fmt::format("{}, {} by {}", c.started_utc, html::fmt_duration_ns(c.duration_ns), c.source))},
      {"IOs", html::text(fmt::format("{} ({} reads, {} writes, {} other); {} ", c.ios, c.read_ios, c.write_ios,
                                     c.other_ios, html::fmt_bytes(c.bytes)))},
      {"Throughput", html::text(fmt::format("{} IOPS, {} MB/s", html::fmt_iops(c.iops), html::fmt_mbps(c.mb_per_s)))},
      {"Queue depth", html::text(fmt::format("mean {:.2f}, max {}", c.qd_mean, c.qd_max))},
      {fmt::format("Latency ({})", units::latency_unit_symbol(lu)),
       html::text(fmt::format("mean {}, 50 % {}, 99 % {}, 99.9 % {}, max {}", html::fmt_latency(c.latency_mean_ns, lu),
                              html::fmt_latency(static_cast<double>(c.latency_p50_ns), lu),
                              html::fmt_latency(static_cast<double>(c.latency_p99_ns), lu),
                              html::fmt_latency(static_cast<double>(c.latency_p999_ns), lu),
                              html::fmt_latency(static_cast<double>(c.latency_max_ns), lu)))},
      {"Transfer sizes",
       html::text(fmt::format("{} to {}", html::kib_label(c.min_size_bytes), html::kib_label(c.max_size_bytes)))},
      {"Completeness",
       html::text(fmt::format("lost events {}, issued never completed {}, completions without issue {}{}{}",
                              c.lost_events, c.unmatched_issues, c.unmatched_completions,
                              c.capture_complete ? "" : "; capture file without trailer (writer stopped)",
                              c.stop_reason == "device_vanished" ? "; ended because a captured device vanished" : ""))},
      {"Definitions",
       html::text(fmt::format("steps of {} from {} (t0 + {}){}; SEQ = starts where one of the last {} IOs of its "
                              "direction ended; QD = issued, not completed (time-weighted mean); rates over the steps' "
                              "span",
                              html::fmt_duration_ns(c.step_ns), origin_text(c), html::fmt_duration_ns(c.origin_ns),
                              partial_text(c), c.seq_lookback))}};
  return rows;
}

void summary_table(html::PageFlow& flow, const IoCharacterization& c) {
  const html::Rows rows = summary_rows(c);
  flow.add({html::BlockKind::html, html::render_rows(rows, "rows"), "", ""}, html::rows_height_mm(rows));
}

void streams_table(html::PageFlow& flow, const IoCharacterization& c) {
  html::Table t;
  t.css_class = "data compact";
  const size_t shown = std::min<size_t>(c.streams.size(), std::max<size_t>(c.streams_for_80pct, 10));
  std::vector<double> latencies;
  for (size_t i = 0; i < shown; ++i) {
    latencies.insert(latencies.end(), {c.streams[i].latency_mean_ns, static_cast<double>(c.streams[i].latency_max_ns)});
  }
  const units::LatencyUnit lu = units::latency_unit_for(std::move(latencies));
  const std::string u = units::latency_unit_symbol(lu);
  t.header = {
      "Stream", "IOs", "% of IOs", "Cumulative %", "% of bytes", "Mean latency (" + u + ")", "Max latency (" + u + ")"};
  double cumulative = 0;
  for (size_t i = 0; i < shown; ++i) {
    const results::IoStreamStats& s = c.streams[i];
    cumulative += s.io_share * 100;
    t.rows.push_back({html::text(s.name), html::text(std::to_string(s.ios)), html::fmt_number(s.io_share * 100),
                      html::fmt_number(cumulative), html::fmt_number(s.byte_share * 100),
                      html::fmt_latency(s.latency_mean_ns, lu),
                      html::fmt_latency(static_cast<double>(s.latency_max_ns), lu)});
    t.row_classes.push_back(i < c.streams_for_80pct ? "highlight" : "");
  }
  flow.add_table(t, fmt::format("Cumulative workload: {} streams in all, the first {} cover at least 80 % of the IOs",
                                c.streams.size(), c.streams_for_80pct));
}

void stream_map(html::PageFlow& flow, const IoCharacterization& c, const std::string& id) {
  chart::Chart ch = step_chart(id + "-map", "IO stream map", "IOs per step");
  for (uint32_t i = 0; i <= c.step_streams && !c.steps.empty(); ++i) {
    const std::string name = i < c.step_streams && i < c.streams.size() ? c.streams[i].name : "other streams";
    chart::Series s = per_step(c, name, [i](const CharacterizationStep& st) {
      return i < st.stream_ios.size() ? static_cast<double>(st.stream_ios[i]) : 0.0;
    });
    s.thin = c.steps.size() > 60;
    ch.series.push_back(std::move(s));
  }
  add_capture_figure(flow, c, std::move(ch),
                     "IOs of the top streams in each step (the rest summed as \"other streams\")");
}

void heat_map(html::PageFlow& flow, const IoCharacterization& c, const std::string& id) {
  chart::MatrixChart m;
  m.id = id + "-heat";
  m.title = "LBA heat map";
  m.row_axis_label = "LBA range (% of capacity)";
  m.column_axis_label = "Step";
  const uint32_t bins = std::max<uint32_t>(c.lba_bins, 1);
  // At most 16 rows x 24 columns stay readable: bins and steps are merged evenly.
  const uint32_t rows = std::min<uint32_t>(bins, 16);
  const size_t cols = std::min<size_t>(c.steps.size(), 24);
  for (uint32_t r = 0; r < rows; ++r)
    m.row_labels.push_back(fmt::format("{:.0f}-{:.0f} %", 100.0 * r / rows, 100.0 * (r + 1) / rows));
  for (size_t k = 0; k < cols; ++k) m.column_labels.push_back(std::to_string(k * c.steps.size() / cols + 1));
  m.values.assign(rows, std::vector<double>(cols, 0.0));
  for (size_t k = 0; k < c.steps.size(); ++k) {
    const size_t col = cols == 0 ? 0 : k * cols / c.steps.size();
    const std::vector<uint64_t>& lba = c.steps[k].lba_ios;
    for (size_t b = 0; b < lba.size(); ++b) m.values[b * rows / bins][col] += static_cast<double>(lba[b]);
  }
  m.value_axis.label = "IOs";
  flow.add_figure(chart::render_heatmap(m), m.height_px, "IOs by start LBA and time step");
}

void process_table(html::PageFlow& flow, const IoCharacterization& c) {
  html::Table t;
  t.css_class = "data compact";
  t.header = {"PID", "Command", "IOs", "% of IOs"};
  t.first_numeric_column = 2;
  for (size_t i = 0; i < std::min<size_t>(c.processes.size(), 12); ++i) {
    const results::ProcessShare& p = c.processes[i];
    t.rows.push_back({html::text(std::to_string(p.pid)), html::text(p.comm), html::text(std::to_string(p.ios)),
                      html::fmt_number(p.io_share * 100)});
  }
  flow.add_table(t, "Submitting processes (at queue time)");
}

}  // namespace

std::vector<html::Page> capture_pages(const IoCharacterization& c,
                                      const std::shared_ptr<const html::PageHeader>& header, const std::string& id) {
  std::vector<html::Page> pages;
  {
    html::PageFlow flow(pages, header, "Capture: cumulative workload");
    summary_table(flow, c);
    streams_table(flow, c);
  }
  {
    html::PageFlow flow(pages, header, "Capture: IO stream map and throughput");
    stream_map(flow, c, id);
    chart::Chart iops = step_chart(id + "-iops", "IOPS per step", "IOPS");
    iops.series.push_back(per_step(c, "IOPS", [](const CharacterizationStep& s) { return s.iops; }));
    add_capture_figure(flow, c, std::move(iops), "Device IOPS in each step");
    chart::Chart mbps = step_chart(id + "-mbps", "MB/s per step", "MB/s");
    mbps.series.push_back(per_step(c, "MB/s", [](const CharacterizationStep& s) { return s.mb_per_s; }));
    add_capture_figure(flow, c, std::move(mbps), "Device MB/s in each step");
  }
  {
    html::PageFlow flow(pages, header, "Capture: queue depth and latency");
    chart::Chart qd = step_chart(id + "-qd", "Queue depth per step", "Requests in flight");
    qd.series.push_back(per_step(c, "mean", [](const CharacterizationStep& s) { return s.qd_mean; }));
    qd.series.push_back(
        per_step(c, "max", [](const CharacterizationStep& s) { return static_cast<double>(s.qd_max); }));
    add_capture_figure(flow, c, std::move(qd), "Time-weighted mean and maximum requests in flight in each step");
    std::vector<double> step_latencies;
    for (const CharacterizationStep& s : c.steps) {
      step_latencies.insert(step_latencies.end(), {s.latency_mean_ns, static_cast<double>(s.latency_p99_ns)});
    }
    const units::LatencyUnit lu = units::latency_unit_for(std::move(step_latencies));
    chart::Chart lat =
        step_chart(id + "-lat", "Latency per step", fmt::format("Response time ({})", units::latency_unit_symbol(lu)));
    lat.series.push_back(per_step(
        c, "mean", [lu](const CharacterizationStep& s) { return units::in_latency_unit(s.latency_mean_ns, lu); }));
    lat.series.push_back(per_step(c, "99 %", [lu](const CharacterizationStep& s) {
      return units::in_latency_unit(static_cast<double>(s.latency_p99_ns), lu);
    }));
    add_capture_figure(flow, c, std::move(lat),
                       "Mean and 99th-percentile device latency (issue to completion) in each step");
  }
  {
    html::PageFlow flow(pages, header, "Capture: LBA heat map and processes");
    heat_map(flow, c, id);
    process_table(flow, c);
  }
  return pages;
}

double step_end_s(const IoCharacterization& c, const CharacterizationStep& s) {
  const uint64_t end = s.start_ns + s.length_ns;
  return static_cast<double>(end > c.origin_ns ? end - c.origin_ns : 0) / k_capture_ns_per_s;
}

bool step_drawn(const IoCharacterization& c, const CharacterizationStep& s) {
  return !s.partial || 2 * s.length_ns >= c.step_ns;
}

std::string stub_note(const IoCharacterization& c) {
  for (const CharacterizationStep& s : c.steps) {
    if (!step_drawn(c, s)) {
      return fmt::format(". The last step, a {} stub, is not drawn (its IOs are in the totals)",
                         html::fmt_duration_ns(s.length_ns));
    }
  }
  return "";
}

std::string capture_html(const IoCharacterization& c) {
  auto header = std::make_shared<html::PageHeader>();
  header->title = "Block IO capture: " + c.device;
  header->subtitle = "IO streams, queue depth, latency and LBA heat map";
  header->revision = "ptsuite capture";
  header->organisation = {"ptsuite", "Block IO capture", "characterized as RWSW IO streams"};
  header->run_dates = c.started_utc;
  header->columns[0].title = "Capture";
  header->columns[0].rows.emplace_back("File", html::text(c.capture_file));
  header->columns[0].rows.emplace_back("Source", html::text(c.source));
  header->columns[1].title = "Device";
  header->columns[1].rows.emplace_back("Path", html::text(c.device));
  header->columns[1].rows.emplace_back("Capacity", html::text(html::fmt_bytes(c.capacity_bytes)));
  header->columns[2].title = "Characterization";
  header->columns[2].rows.emplace_back("Step", html::text(html::fmt_duration_ns(c.step_ns)));
  header->columns[2].rows.emplace_back("SEQ look-back", html::text(std::to_string(c.seq_lookback)));
  header->columns[3].title = "Units";
  header->columns[3].rows.emplace_back("MB", "10<sup>6</sup> bytes");
  return html::render_document(capture_pages(c, header, "cap"), "ptsuite capture " + c.device,
                               "ptsuite - rendered from the capture characterization only");
}

}  // namespace ptsuite::report
