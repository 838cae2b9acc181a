// capture_pages() / capture_html(): the characterization's HTML pages (report/capture_report.hpp).
#include <fmt/format.h>
#include <algorithm>

#include <ptsuite/report/capture_report.hpp>
#include <ptsuite/report/chart/model.hpp>
#include <ptsuite/report/chart/render.hpp>
#include <ptsuite/report/html/markup.hpp>

namespace ptsuite::report {

namespace {

using results::CharacterizationStep;
using results::IoCharacterization;

constexpr double k_capture_ns_per_s = 1e9;

chart::Chart step_chart(const std::string& id, const std::string& title, const std::string& y) {
  chart::Chart c;
  c.id = id;
  c.title = title;
  c.x.label = "Time (s)";
  c.x.include_zero = true;
  c.y.label = y;
  c.y.include_zero = true;
  return c;
}

// One point per step at its end, y = value(step).
template <typename Value>
chart::Series per_step(const IoCharacterization& c, const std::string& name, Value value) {
  chart::Series s;
  s.name = name;
  for (const CharacterizationStep& st : c.steps) {
    s.points.push_back({static_cast<double>(st.start_ns + st.length_ns) / k_capture_ns_per_s, value(st)});
  }
  return s;
}

html::Block capture_figure(const chart::Chart& c, std::string caption) {
  return {html::BlockKind::figure, chart::render_svg(c), std::move(caption), ""};
}

html::Block summary_table(const IoCharacterization& c) {
  html::Rows rows = {
      {"Device", html::text(fmt::format("{} ({})", c.device, html::fmt_bytes(c.capacity_bytes)))},
      {"Captured",
       html::text(fmt::format("{}, {} by {}", c.started_utc, html::fmt_duration_ns(c.duration_ns), c.source))},
      {"IOs", html::text(fmt::format("{} ({} reads, {} writes, {} other); {} ", c.ios, c.read_ios, c.write_ios,
                                     c.other_ios, html::fmt_bytes(c.bytes)))},
      {"Throughput", html::text(fmt::format("{} IOPS, {} MB/s", html::fmt_iops(c.iops), html::fmt_mbps(c.mb_per_s)))},
      {"Queue depth", html::text(fmt::format("mean {:.2f}, max {}", c.qd_mean, c.qd_max))},
      {"Latency (ms)",
       html::text(fmt::format(
           "mean {}, 50 % {}, 99 % {}, 99.9 % {}, max {}", html::fmt_ms(c.latency_mean_ns),
           html::fmt_ms(static_cast<double>(c.latency_p50_ns)), html::fmt_ms(static_cast<double>(c.latency_p99_ns)),
           html::fmt_ms(static_cast<double>(c.latency_p999_ns)), html::fmt_ms(static_cast<double>(c.latency_max_ns))))},
      {"Transfer sizes",
       html::text(fmt::format("{} to {}", html::kib_label(c.min_size_bytes), html::kib_label(c.max_size_bytes)))},
      {"Completeness",
       html::text(fmt::format("lost events {}, issued never completed {}, completions without issue {}{}{}",
                              c.lost_events, c.unmatched_issues, c.unmatched_completions,
                              c.capture_complete ? "" : "; capture file without trailer (writer stopped)",
                              c.stop_reason == "device_vanished" ? "; ended because a captured device vanished" : ""))},
      {"Definitions",
       html::text(fmt::format("step {}; SEQ = starts where one of the last {} IOs of its direction ended; QD = issued, "
                              "not completed (time-weighted mean)",
                              html::fmt_duration_ns(c.step_ns), c.seq_lookback))}};
  return {html::BlockKind::html, html::render_rows(rows, "rows"), "", ""};
}

html::Block streams_table(const IoCharacterization& c) {
  html::Table t;
  t.header = {"Stream", "IOs", "% of IOs", "Cumulative %", "% of bytes", "Mean latency (ms)", "Max latency (ms)"};
  double cumulative = 0;
  const size_t shown = std::min<size_t>(c.streams.size(), std::max<size_t>(c.streams_for_80pct, 10));
  for (size_t i = 0; i < shown; ++i) {
    const results::IoStreamStats& s = c.streams[i];
    cumulative += s.io_share * 100;
    t.rows.push_back({html::text(s.name), html::text(std::to_string(s.ios)), html::fmt_number(s.io_share * 100),
                      html::fmt_number(cumulative), html::fmt_number(s.byte_share * 100),
                      html::fmt_ms(s.latency_mean_ns), html::fmt_ms(static_cast<double>(s.latency_max_ns))});
    t.row_classes.push_back(i < c.streams_for_80pct ? "highlight" : "");
  }
  return {html::BlockKind::table, html::render_table(t),
          fmt::format("Cumulative workload: {} streams in all, the first {} cover at least 80 % of the IOs",
                      c.streams.size(), c.streams_for_80pct),
          ""};
}

html::Block stream_map(const IoCharacterization& c, const std::string& id) {
  chart::Chart ch = step_chart(id + "-map", "IO stream map", "IOs per step");
  for (uint32_t i = 0; i <= c.step_streams && !c.steps.empty(); ++i) {
    const std::string name = i < c.step_streams && i < c.streams.size() ? c.streams[i].name : "other streams";
    chart::Series s = per_step(c, name, [i](const CharacterizationStep& st) {
      return i < st.stream_ios.size() ? static_cast<double>(st.stream_ios[i]) : 0.0;
    });
    s.thin = c.steps.size() > 60;
    ch.series.push_back(std::move(s));
  }
  return capture_figure(ch, "IOs of the top streams in each step (the rest summed as \"other streams\")");
}

html::Block heat_map(const IoCharacterization& c, const std::string& id) {
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
  return {html::BlockKind::figure, chart::render_heatmap(m), "IOs by start LBA and time step", ""};
}

html::Block process_table(const IoCharacterization& c) {
  html::Table t;
  t.header = {"PID", "Command", "IOs", "% of IOs"};
  t.first_numeric_column = 2;
  for (size_t i = 0; i < std::min<size_t>(c.processes.size(), 12); ++i) {
    const results::ProcessShare& p = c.processes[i];
    t.rows.push_back({html::text(std::to_string(p.pid)), html::text(p.comm), html::text(std::to_string(p.ios)),
                      html::fmt_number(p.io_share * 100)});
  }
  return {html::BlockKind::table, html::render_table(t), "Submitting processes (at queue time)", ""};
}

}  // namespace

std::vector<html::Page> capture_pages(const IoCharacterization& c,
                                      const std::shared_ptr<const html::PageHeader>& header, const std::string& id) {
  std::vector<html::Page> pages;
  pages.push_back({header, "Capture: cumulative workload", {summary_table(c), streams_table(c)}});
  chart::Chart iops = step_chart(id + "-iops", "IOPS and MB/s per step", "IOPS");
  iops.series.push_back(per_step(c, "IOPS", [](const CharacterizationStep& s) { return s.iops; }));
  chart::Chart mbps = step_chart(id + "-mbps", "MB/s per step", "MB/s");
  mbps.series.push_back(per_step(c, "MB/s", [](const CharacterizationStep& s) { return s.mb_per_s; }));
  pages.push_back({header,
                   "Capture: IO stream map and throughput",
                   {stream_map(c, id), capture_figure(iops, "Device IOPS in each step"),
                    capture_figure(mbps, "Device MB/s in each step")}});
  chart::Chart qd = step_chart(id + "-qd", "Queue depth per step", "Requests in flight");
  qd.series.push_back(per_step(c, "mean", [](const CharacterizationStep& s) { return s.qd_mean; }));
  qd.series.push_back(per_step(c, "max", [](const CharacterizationStep& s) { return static_cast<double>(s.qd_max); }));
  chart::Chart lat = step_chart(id + "-lat", "Latency per step", "Response time (ms)");
  lat.series.push_back(per_step(c, "mean", [](const CharacterizationStep& s) { return s.latency_mean_ns / 1e6; }));
  lat.series.push_back(
      per_step(c, "99 %", [](const CharacterizationStep& s) { return static_cast<double>(s.latency_p99_ns) / 1e6; }));
  pages.push_back(
      {header,
       "Capture: queue depth and latency",
       {capture_figure(qd, "Time-weighted mean and maximum requests in flight in each step"),
        capture_figure(lat, "Mean and 99th-percentile device latency (issue to completion) in each step")}});
  pages.push_back({header, "Capture: LBA heat map and processes", {heat_map(c, id), process_table(c)}});
  return pages;
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
