// Write Saturation report pages (PTS 2.0.2 §10; pts-spec.md §3.4).
#include <ptsuite/report/html/test_pages.hpp>

#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <optional>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/html/header.hpp>
#include <ptsuite/results/capture.hpp>
#include <ptsuite/results/segment_result.hpp>
#include <ptsuite/results/write_stream.hpp>

namespace ptsuite::report::html {

namespace {

using results::WriteStreamSample;
using SampleValue = double (*)(const WriteStreamSample&);

double end_time_s(const WriteStreamSample& s) { return s.end_time_s; }
double tgbw_gb(const WriteStreamSample& s) { return s.tgbw_gb; }
double drive_fills(const WriteStreamSample& s) { return s.drive_fills; }
double iops(const WriteStreamSample& s) { return s.iops; }
double art_ns(const WriteStreamSample& s) { return s.latency.latency_mean_ns; }
double p99_ns(const WriteStreamSample& s) { return static_cast<double>(s.latency.latency_p99_ns); }
double p99_9_ns(const WriteStreamSample& s) { return static_cast<double>(s.latency.latency_p99_9_ns); }
double p99_99_ns(const WriteStreamSample& s) { return static_cast<double>(s.latency.latency_p99_99_ns); }
double p99_999_ns(const WriteStreamSample& s) { return static_cast<double>(s.latency.latency_p99_999_ns); }
double mrt_ns(const WriteStreamSample& s) { return static_cast<double>(s.latency.latency_max_ns); }

// One sample value against another, as a single named series.
std::vector<chart::Point> sample_series(const std::vector<WriteStreamSample>& samples, SampleValue x, double x_div,
                                        SampleValue y, double y_div) {
  std::vector<chart::Point> out;
  out.reserve(samples.size());
  for (const WriteStreamSample& s : samples) {
    out.push_back({x(s) / x_div, y(s) / y_div});
  }
  return out;
}

// An x axis of the per-sample charts: the value, its divisor, its label, its name in titles and
// the id part of its charts.
struct XAxis {
  SampleValue value;
  double divisor;
  std::string label;
  std::string what;
  std::string id;
};

// WSAT and endurance-write share these pages over their own record block, titled `name`, with
// chart ids starting `prefix`.
struct StreamView {
  const results::TestRecord& test;
  const results::WriteStreamBlock& block;  // the record's wsat / endurance block
  std::string name;                        // "WSAT", "Endurance"
  std::string prefix;                      // "wsat", "endurance"
  std::string workload;
  double t_div = 1;
  std::string t_label;
  std::shared_ptr<const PageHeader> header;
};

// Two charts, linear and log y, of IOPS against one x.
std::vector<Block> iops_pair(const StreamView& v, const XAxis& x, IdSource& ids) {
  const std::string& what = x.what;
  const std::string& x_label = x.label;
  std::vector<Block> out;
  const std::vector<chart::NamedSeries> s = {{"IOPS", sample_series(v.block.samples, x.value, x.divisor, iops, 1)}};
  for (const bool log : {false, true}) {
    const std::string scale = log ? "log" : "linear";
    out.push_back(
        chart_block(chart::time_series_chart(
                        {v.name + " IOPS vs " + what + " (" + scale + " y)", v.workload, v.prefix + "-iops-" + scale},
                        x_label, "IOPS", s, log ? chart::ScaleKind::log10 : chart::ScaleKind::linear),
                    v.name + ": IOPS vs " + what + ", " + scale + " IOPS axis", ids, 320));
  }
  return out;
}

std::string stop_reason_text(const std::string& reason) {
  if (reason == "capacity") {
    return "capacity multiple written";
  }
  if (reason == "time_limit") {
    return "time limit reached";
  }
  if (reason == "steady_state") {
    return "steady state of the check samples";
  }
  if (reason == "round_cap") {
    return "Round cap without steady state (SS NOT ACHIEVED)";
  }
  return reason.empty() ? "\u2013" : reason;
}

std::string ns_text(const std::optional<uint64_t>& ns) { return ns ? fmt_duration_ns(*ns) : "\u2013"; }

Rows stream_params(const StreamView& v, const results::CaptureRecord* capture) {
  const results::WriteStreamBlock& w = v.block;
  Rows params;
  params.emplace_back("Stimulus", text(v.workload + " (" + w.workload + "), continuous"));
  params.emplace_back("TOIO", text(toio_text(v.test.header.toio)));
  params.emplace_back("Sample", text(ns_text(results::read_segment_spec(w.segment).duration_ns)));
  params.emplace_back(
      "Stop rule", text(w.steady_state       ? fmt::format("steady state of every {}th sample's IOPS (Round cap {}); "
                                                                 "no capacity or time stop",
                                                           w.steady_state->round_samples, w.steady_state->max_rounds)
                        : w.target_bytes > 0 ? fmt::format("{} written or {}, whichever first",
                                                           fmt_bytes(w.target_bytes), fmt_duration_ns(w.time_limit_ns))
                                             : "after " + fmt_duration_ns(w.time_limit_ns) + " (no capacity stop)"));
  params.emplace_back("Stopped by",
                      text(stop_reason_text(w.stop_reason) +
                           fmt::format(" after {} samples, {} written", w.samples.size(), fmt_bytes(w.written_bytes))));
  if (capture != nullptr) {
    params.emplace_back("RT capture",
                        text(capture->label + ", " + ns_text(results::read_segment_spec(capture->spec).duration_ns)));
  }
  params.emplace_back("Steady state", w.steady_state
                                          ? "Rounds of samples; each Round's last (check) sample's IOPS judged by "
                                            "the common 5-Round rule"
                                          : "not a round loop: every sample is recorded until the stop rule");
  return params;
}

Block stop_table(const StreamView& v) {
  const results::WriteStreamBlock& w = v.block;
  Table t;
  t.css_class = "data compact";
  t.header = {"Stop reason", "Samples", "Elapsed", "Written", "Drive fills", "Capacity"};
  const double fills = w.samples.empty() ? std::nan("") : w.samples.back().drive_fills;
  t.rows.push_back({text(stop_reason_text(w.stop_reason)), text(std::to_string(w.samples.size())),
                    text(fmt_duration_ns(w.elapsed_ns)), text(fmt_bytes(w.written_bytes)), text(grouped(fills, 2)),
                    text(fmt_bytes(w.capacity_bytes))});
  return table_block(render_table(t), v.name + " run: how it stopped");
}

// wsat.stop_rule=steady-state: the check samples' window and verdict, as recorded.
Block check_sample_block(const results::WriteStreamSteadyState& ss) {
  const results::SteadyStateVerdictRecord& verdict = ss.verdict;
  std::string values;
  for (double x : verdict.window_values) {
    values += (values.empty() ? "" : ", ") + fmt_iops(x);
  }
  const std::string line = fmt::format(
      "Check samples {} (every {}th sample). Window Rounds {}\u2013{}: IOPS {}; average {}; data excursion {} "
      "(allowed {}); slope excursion {} (allowed {}): ",
      [&ss] {
        std::string s;
        for (uint32_t n : ss.check_samples) s += (s.empty() ? "" : ", ") + std::to_string(n);
        return s;
      }(),
      ss.round_samples, verdict.window_first_round, verdict.window_last_round, values, fmt_iops(verdict.average),
      fmt_iops(verdict.data_excursion.measured), fmt_iops(verdict.data_excursion.allowed),
      fmt_iops(verdict.slope_excursion.measured), fmt_iops(verdict.slope_excursion.allowed));
  return html_block(element(
      "p", "note", text(line) + (ss.attained ? "<b>ATTAINED</b>" : "<span class=\"bad\">SS NOT ACHIEVED</span>")));
}

// ART, 99.999 % and MRT per sample against `x_key` (time or drive fills).
Block latency_block(const StreamView& v, const XAxis& x, IdSource& ids) {
  const std::vector<WriteStreamSample>& samples = v.block.samples;
  const std::vector<chart::NamedSeries> lat = {{"ART", sample_series(samples, x.value, x.divisor, art_ns, 1e6)},
                                               {"99.999%", sample_series(samples, x.value, x.divisor, p99_999_ns, 1e6)},
                                               {"MRT", sample_series(samples, x.value, x.divisor, mrt_ns, 1e6)}};
  return chart_block(chart::time_series_chart({v.name + " Response Times vs " + x.what, v.workload + ", per sample",
                                               v.prefix + "-rt-" + x.id},
                                              x.label, "Response time (ms)", lat, chart::ScaleKind::log10),
                     v.name + ": ART, 99.999 % and MRT per sample vs " + x.what + " (log y)", ids, 480);
}

// The per-sample QoS percentiles the seeds report: 99, 99.9, 99.99 % and MRT vs time.
Block percentile_block(const StreamView& v, IdSource& ids) {
  const std::vector<WriteStreamSample>& samples = v.block.samples;
  const std::vector<chart::NamedSeries> lat = {{"99%", sample_series(samples, end_time_s, v.t_div, p99_ns, 1e6)},
                                               {"99.9%", sample_series(samples, end_time_s, v.t_div, p99_9_ns, 1e6)},
                                               {"99.99%", sample_series(samples, end_time_s, v.t_div, p99_99_ns, 1e6)},
                                               {"MRT", sample_series(samples, end_time_s, v.t_div, mrt_ns, 1e6)}};
  return chart_block(chart::time_series_chart(
                         {v.name + " Latency Percentiles vs Time", v.workload + ", per sample", v.prefix + "-qos"},
                         v.t_label, "Response time (ms)", lat, chart::ScaleKind::log10),
                     v.name + ": 99, 99.9, 99.99 % and MRT per sample vs time (log y)", ids, 480);
}

std::vector<Page> write_stream_pages(const results::RunDocument& doc, const results::TestRecord& test, IdSource& ids,
                                     const char* prefix, const std::string& name) {
  const results::WriteStreamBlock& w = block_or_empty<results::WriteStreamBlock>(test);
  const std::vector<results::CaptureRecord>& captures = test.captures;
  const results::CaptureRecord* capture = captures.empty() ? nullptr : &captures.front();
  const bool minutes = !(static_cast<double>(w.elapsed_ns) / 1e9 < 600);
  StreamView v{test,
               w,
               name,
               prefix,
               results::read_segment_spec(w.segment).label,
               minutes ? 60.0 : 1.0,
               minutes ? "Time (min)" : "Time (s)",
               nullptr};
  const XAxis time{end_time_s, v.t_div, v.t_label, "Time", "end_time_s"};
  const XAxis tgbw{tgbw_gb, 1, "Total GB written (TGBW, 10^9 bytes)", "TGBW", "tgbw_gb"};
  const XAxis fills{drive_fills, 1, "Drive fills (TGBW / user capacity)", "Drive Fills", "drive_fills"};
  v.header = std::make_shared<const PageHeader>(
      test_header(doc.header, test, common_setup_rows(doc.header, test, ""), stream_params(v, capture)));
  const auto& header = v.header;
  std::vector<Page> pages;
  pages.push_back({header, name + " \u2013 IOPS vs Time", iops_pair(v, time, ids)});
  pages.push_back({header, name + " \u2013 IOPS vs Total GB Written (TGBW)", iops_pair(v, tgbw, ids)});
  pages.push_back({header, name + " \u2013 IOPS vs Drive Fills", iops_pair(v, fills, ids)});
  std::vector<Block> rt = {latency_block(v, time, ids), stop_table(v)};
  if (w.steady_state) {
    rt.push_back(check_sample_block(*w.steady_state));
  }
  pages.push_back({header, name + " \u2013 Response Times vs Time (ART, 99.999 %, MRT)", std::move(rt)});
  pages.push_back(
      {header, name + " \u2013 Response Times vs Drive Fills (ART, 99.999 %, MRT)", {latency_block(v, fills, ids)}});
  if (name != "WSAT") {
    pages.push_back(
        {header, name + " \u2013 Latency Percentiles vs Time (99, 99.9, 99.99 %, MRT)", {percentile_block(v, ids)}});
  }
  if (capture != nullptr) {
    pages.push_back({header,
                     name + " \u2013 Response Time Histogram",
                     {histogram_block(*capture, name + " Response Time Histogram", ids, 520),
                      capture_table_block({capture}, {"RT capture"}, "Response-time capture statistics")}});
    pages.push_back({header,
                     name + " \u2013 Response Time Confidence Level Plot",
                     {confidence_block(*capture, name + " Response Time Confidence Levels", ids, 600)}});
  }
  for (Page& p : compliance_pages(header, test, name)) {
    pages.push_back(std::move(p));
  }
  return pages;
}

}  // namespace

std::vector<Page> wsat_pages(const results::RunDocument& doc, const results::TestRecord& test, IdSource& ids) {
  return write_stream_pages(doc, test, ids, "wsat", "WSAT");
}

std::vector<Page> endurance_write_pages(const results::RunDocument& doc, const results::TestRecord& test,
                                        IdSource& ids) {
  return write_stream_pages(doc, test, ids, "endurance", "Endurance");
}

}  // namespace ptsuite::report::html
