// Write Saturation report pages (PTS 2.0.2 §10; pts-spec.md §3.4).
#include <ptsuite/report/html/test_pages.hpp>

#include <fmt/format.h>

#include <cmath>
#include <memory>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/html/header.hpp>

namespace ptsuite::report::html {

using nlohmann::json;

namespace {

// One sample field against another, as a single named series.
std::vector<chart::Point> sample_series(const json& samples, const char* x_key, double x_div, const char* y_key,
                                        double y_div) {
  std::vector<chart::Point> out;
  for (const json& s : samples) {
    out.push_back({num(at(s, x_key)) / x_div, num(at(s, y_key)) / y_div});
  }
  return out;
}

// WSAT and endurance-write share these pages over their own record block, titled `name`, with
// chart ids starting `prefix`.
struct StreamView {
  const json& test;
  const json& block;  // test.wsat / test.endurance
  const json& samples;
  std::string name;    // "WSAT", "Endurance"
  std::string prefix;  // "wsat", "endurance"
  std::string workload;
  double t_div = 1;
  std::string t_label;
  std::shared_ptr<const PageHeader> header;
};

// Two charts, linear and log y, of IOPS against one x.
std::vector<Block> iops_pair(const StreamView& v, const char* x_key, double x_div, const std::string& x_label,
                             const std::string& what, IdSource& ids) {
  std::vector<Block> out;
  const std::vector<chart::NamedSeries> s = {{"IOPS", sample_series(v.samples, x_key, x_div, "iops", 1)}};
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

std::string bytes_text(const json& v) { return v.is_number() ? fmt_bytes(v.get<uint64_t>()) : "\u2013"; }
std::string ns_text(const json& v) { return v.is_number() ? fmt_duration_ns(v.get<uint64_t>()) : "\u2013"; }

Rows stream_params(const StreamView& v, const json& capture) {
  const json& w = v.block;
  Rows params;
  params.emplace_back("Stimulus", text(v.workload + " (" + str(at(w, "workload")) + "), continuous"));
  params.emplace_back("TOIO", text(toio_text(at(v.test, "toio"))));
  params.emplace_back("Sample", text(ns_text(at(w, {"segment", "duration_ns"}))));
  const json& target = at(w, "target_bytes");
  const json& ss = at(w, "steady_state");
  params.emplace_back(
      "Stop rule",
      text(ss.is_object() ? fmt::format("steady state of every {}th sample's IOPS (Round cap {}); "
                                        "no capacity or time stop",
                                        str(at(ss, "round_samples")), str(at(ss, "max_rounds")))
           : target.is_number() && target.get<uint64_t>() > 0
               ? fmt::format("{} written or {}, whichever first", bytes_text(target), ns_text(at(w, "time_limit_ns")))
               : "after " + ns_text(at(w, "time_limit_ns")) + " (no capacity stop)"));
  params.emplace_back("Stopped by",
                      text(stop_reason_text(str(at(w, "stop_reason"))) +
                           fmt::format(" after {} samples, {} written", v.samples.is_array() ? v.samples.size() : 0,
                                       bytes_text(at(w, "written_bytes")))));
  if (!capture.is_null()) {
    params.emplace_back("RT capture",
                        text(str(at(capture, "label")) + ", " + ns_text(at(capture, {"spec", "duration_ns"}))));
  }
  params.emplace_back("Steady state", at(w, "steady_state").is_object()
                                          ? "Rounds of samples; each Round's last (check) sample's IOPS judged by "
                                            "the common 5-Round rule"
                                          : "not a round loop: every sample is recorded until the stop rule");
  return params;
}

Block stop_table(const StreamView& v) {
  const json& w = v.block;
  Table t;
  t.css_class = "data compact";
  t.header = {"Stop reason", "Samples", "Elapsed", "Written", "Drive fills", "Capacity"};
  const json none;
  const json& last = v.samples.is_array() && !v.samples.empty() ? v.samples.back() : none;
  t.rows.push_back({text(stop_reason_text(str(at(w, "stop_reason")))),
                    text(std::to_string(v.samples.is_array() ? v.samples.size() : 0)),
                    text(ns_text(at(w, "elapsed_ns"))), text(bytes_text(at(w, "written_bytes"))),
                    text(grouped(num(at(last, "drive_fills")), 2)), text(bytes_text(at(w, "capacity_bytes")))});
  return table_block(render_table(t), v.name + " run: how it stopped");
}

// wsat.stop_rule=steady-state: the check samples' window and verdict, as recorded.
Block check_sample_block(const json& ss) {
  const json& verdict = at(ss, "verdict");
  std::string values;
  for (const json& x : at(at(verdict, "window"), "values")) {
    values += (values.empty() ? "" : ", ") + fmt_iops(num(x));
  }
  const std::string line = fmt::format(
      "Check samples {} (every {}th sample). Window Rounds {}\u2013{}: IOPS {}; average {}; data excursion {} "
      "(allowed {}); slope excursion {} (allowed {}): ",
      [&ss] {
        std::string s;
        for (const json& n : at(ss, "check_samples")) s += (s.empty() ? "" : ", ") + str(n);
        return s;
      }(),
      str(at(ss, "round_samples")), str(at(at(verdict, "window"), "first_round")),
      str(at(at(verdict, "window"), "last_round")), values, fmt_iops(num(at(verdict, "average"))),
      fmt_iops(num(at(at(verdict, "data_excursion"), "measured"))),
      fmt_iops(num(at(at(verdict, "data_excursion"), "allowed"))),
      fmt_iops(num(at(at(verdict, "slope_excursion"), "measured"))),
      fmt_iops(num(at(at(verdict, "slope_excursion"), "allowed"))));
  return html_block(element(
      "p", "note",
      text(line) + (at(ss, "attained") == true ? "<b>ATTAINED</b>" : "<span class=\"bad\">SS NOT ACHIEVED</span>")));
}

// ART, 99.999 % and MRT per sample against `x_key` (time or drive fills).
Block latency_block(const StreamView& v, const char* x_key, double x_div, const std::string& x_label,
                    const std::string& what, IdSource& ids) {
  const std::vector<chart::NamedSeries> lat = {
      {"ART", sample_series(v.samples, x_key, x_div, "latency_mean_ns", 1e6)},
      {"99.999%", sample_series(v.samples, x_key, x_div, "latency_p99_999_ns", 1e6)},
      {"MRT", sample_series(v.samples, x_key, x_div, "latency_max_ns", 1e6)}};
  return chart_block(chart::time_series_chart({v.name + " Response Times vs " + what, v.workload + ", per sample",
                                               v.prefix + "-rt-" + x_key},
                                              x_label, "Response time (ms)", lat, chart::ScaleKind::log10),
                     v.name + ": ART, 99.999 % and MRT per sample vs " + what + " (log y)", ids, 480);
}

// The per-sample QoS percentiles the seeds report: 99, 99.9, 99.99 % and MRT vs time.
Block percentile_block(const StreamView& v, IdSource& ids) {
  const std::vector<chart::NamedSeries> lat = {
      {"99%", sample_series(v.samples, "end_time_s", v.t_div, "latency_p99_ns", 1e6)},
      {"99.9%", sample_series(v.samples, "end_time_s", v.t_div, "latency_p99_9_ns", 1e6)},
      {"99.99%", sample_series(v.samples, "end_time_s", v.t_div, "latency_p99_99_ns", 1e6)},
      {"MRT", sample_series(v.samples, "end_time_s", v.t_div, "latency_max_ns", 1e6)}};
  return chart_block(chart::time_series_chart(
                         {v.name + " Latency Percentiles vs Time", v.workload + ", per sample", v.prefix + "-qos"},
                         v.t_label, "Response time (ms)", lat, chart::ScaleKind::log10),
                     v.name + ": 99, 99.9, 99.99 % and MRT per sample vs time (log y)", ids, 480);
}

std::vector<Page> write_stream_pages(const json& results, const json& test, IdSource& ids, const char* key,
                                     const std::string& name) {
  const json& w = at(test, key);
  const json none;
  const json& captures = at(test, "captures");
  const json& capture = captures.is_array() && !captures.empty() ? captures.front() : none;
  const bool minutes = !(num(at(w, "elapsed_ns")) / 1e9 < 600);
  StreamView v{test,
               w,
               at(w, "samples"),
               name,
               key,
               str(at(w, {"segment", "label"})),
               minutes ? 60.0 : 1.0,
               minutes ? "Time (min)" : "Time (s)",
               nullptr};
  v.header = std::make_shared<const PageHeader>(
      test_header(results, test, common_setup_rows(results, test, ""), stream_params(v, capture)));
  const auto& header = v.header;
  std::vector<Page> pages;
  pages.push_back({header, name + " \u2013 IOPS vs Time", iops_pair(v, "end_time_s", v.t_div, v.t_label, "Time", ids)});
  pages.push_back({header, name + " \u2013 IOPS vs Total GB Written (TGBW)",
                   iops_pair(v, "tgbw_gb", 1, "Total GB written (TGBW, 10^9 bytes)", "TGBW", ids)});
  pages.push_back({header, name + " \u2013 IOPS vs Drive Fills",
                   iops_pair(v, "drive_fills", 1, "Drive fills (TGBW / user capacity)", "Drive Fills", ids)});
  std::vector<Block> rt = {latency_block(v, "end_time_s", v.t_div, v.t_label, "Time", ids), stop_table(v)};
  if (at(w, "steady_state").is_object()) {
    rt.push_back(check_sample_block(at(w, "steady_state")));
  }
  pages.push_back({header, name + " \u2013 Response Times vs Time (ART, 99.999 %, MRT)", std::move(rt)});
  pages.push_back({header,
                   name + " \u2013 Response Times vs Drive Fills (ART, 99.999 %, MRT)",
                   {latency_block(v, "drive_fills", 1, "Drive fills (TGBW / user capacity)", "Drive Fills", ids)}});
  if (name != "WSAT") {
    pages.push_back(
        {header, name + " \u2013 Latency Percentiles vs Time (99, 99.9, 99.99 %, MRT)", {percentile_block(v, ids)}});
  }
  if (!capture.is_null()) {
    pages.push_back({header,
                     name + " \u2013 Response Time Histogram",
                     {histogram_block(capture, name + " Response Time Histogram", ids, 520),
                      capture_table_block({&capture}, {"RT capture"}, "Response-time capture statistics")}});
    pages.push_back({header,
                     name + " \u2013 Response Time Confidence Level Plot",
                     {confidence_block(capture, name + " Response Time Confidence Levels", ids, 600)}});
  }
  for (Page& p : compliance_pages(header, test, name)) {
    pages.push_back(std::move(p));
  }
  return pages;
}

}  // namespace

std::vector<Page> wsat_pages(const json& results, const json& test, IdSource& ids) {
  return write_stream_pages(results, test, ids, "wsat", "WSAT");
}

std::vector<Page> endurance_write_pages(const json& results, const json& test, IdSource& ids) {
  return write_stream_pages(results, test, ids, "endurance", "Endurance");
}

}  // namespace ptsuite::report::html
