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

// Two charts, linear and log y, of IOPS against one x.
std::vector<Block> iops_pair(const json& samples, const char* x_key, double x_div, const std::string& x_label,
                             const std::string& what, const std::string& workload, IdSource& ids) {
  std::vector<Block> out;
  const std::vector<chart::NamedSeries> s = {{"IOPS", sample_series(samples, x_key, x_div, "iops", 1)}};
  for (const bool log : {false, true}) {
    const std::string scale = log ? "log" : "linear";
    out.push_back(chart_block(
        chart::time_series_chart({"WSAT IOPS vs " + what + " (" + scale + " y)", workload, "wsat-iops-" + scale},
                                 x_label, "IOPS", s, log ? chart::ScaleKind::log10 : chart::ScaleKind::linear),
        "WSAT: IOPS vs " + what + ", " + scale + " IOPS axis", ids, 320));
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
  return reason.empty() ? "\u2013" : reason;
}

}  // namespace

std::vector<Page> wsat_pages(const json& results, const json& test, IdSource& ids) {
  const json& w = at(test, "wsat");
  const json& samples = at(w, "samples");
  const json none;
  const json& captures = at(test, "captures");
  const json& capture = captures.is_array() && !captures.empty() ? captures.front() : none;
  const std::string workload = str(at(w, {"segment", "label"}));
  const double elapsed_s = num(at(w, "elapsed_ns")) / 1e9;
  const bool minutes = !(elapsed_s < 600);
  const double t_div = minutes ? 60 : 1;
  const std::string t_label = minutes ? "Time (min)" : "Time (s)";

  Rows params;
  params.emplace_back("Stimulus", text(workload + " (" + str(at(w, "workload")) + "), continuous"));
  params.emplace_back("TOIO", text(toio_text(at(test, "toio"))));
  const json& sd = at(w, {"segment", "duration_ns"});
  params.emplace_back("Sample", text(sd.is_number() ? fmt_duration_ns(sd.get<uint64_t>()) : "\u2013"));
  const json& target = at(w, "target_bytes");
  const json& limit = at(w, "time_limit_ns");
  params.emplace_back("Stop rule",
                      text(fmt::format("{} written or {}, whichever first",
                                       target.is_number() ? fmt_bytes(target.get<uint64_t>()) : "\u2013",
                                       limit.is_number() ? fmt_duration_ns(limit.get<uint64_t>()) : "\u2013")));
  const json& written = at(w, "written_bytes");
  params.emplace_back("Stopped by",
                      text(stop_reason_text(str(at(w, "stop_reason"))) +
                           fmt::format(" after {} samples, {} written", samples.is_array() ? samples.size() : 0,
                                       written.is_number() ? fmt_bytes(written.get<uint64_t>()) : "\u2013")));
  if (!capture.is_null()) {
    const json& d = at(capture, {"spec", "duration_ns"});
    params.emplace_back("RT capture", text(str(at(capture, "label")) + ", " +
                                           (d.is_number() ? fmt_duration_ns(d.get<uint64_t>()) : "\u2013")));
  }
  params.emplace_back("Steady state", "not a round loop: WSAT records every sample until its stop rule");
  const auto header =
      std::make_shared<const PageHeader>(test_header(results, test, common_setup_rows(results, test, ""), params));
  std::vector<Page> pages;
  pages.push_back(
      {header, "WSAT \u2013 IOPS vs Time", iops_pair(samples, "end_time_s", t_div, t_label, "Time", workload, ids)});
  pages.push_back({header, "WSAT \u2013 IOPS vs Total GB Written (TGBW)",
                   iops_pair(samples, "tgbw_gb", 1, "Total GB written (TGBW, 10^9 bytes)", "TGBW", workload, ids)});
  pages.push_back(
      {header, "WSAT \u2013 IOPS vs Drive Fills",
       iops_pair(samples, "drive_fills", 1, "Drive fills (TGBW / user capacity)", "Drive Fills", workload, ids)});

  const std::vector<chart::NamedSeries> lat = {
      {"ART", sample_series(samples, "end_time_s", t_div, "latency_mean_ns", 1e6)},
      {"99.999%", sample_series(samples, "end_time_s", t_div, "latency_p99_999_ns", 1e6)},
      {"MRT", sample_series(samples, "end_time_s", t_div, "latency_max_ns", 1e6)}};
  Table t;
  t.css_class = "data compact";
  t.header = {"Stop reason", "Samples", "Elapsed", "Written", "Drive fills", "Capacity"};
  const json& cap = at(w, "capacity_bytes");
  const json& last = samples.is_array() && !samples.empty() ? samples.back() : none;
  const json& elapsed = at(w, "elapsed_ns");
  t.rows.push_back({text(stop_reason_text(str(at(w, "stop_reason")))),
                    text(std::to_string(samples.is_array() ? samples.size() : 0)),
                    text(elapsed.is_number() ? fmt_duration_ns(elapsed.get<uint64_t>()) : "\u2013"),
                    text(written.is_number() ? fmt_bytes(written.get<uint64_t>()) : "\u2013"),
                    text(grouped(num(at(last, "drive_fills")), 2)),
                    text(cap.is_number() ? fmt_bytes(cap.get<uint64_t>()) : "\u2013")});
  pages.push_back(
      {header,
       "WSAT \u2013 Response Times vs Time (ART, 99.999 %, MRT)",
       {chart_block(chart::time_series_chart({"WSAT Response Times vs Time", workload + ", per sample", "wsat-rt"},
                                             t_label, "Response time (ms)", lat, chart::ScaleKind::log10),
                    "WSAT: ART, 99.999 % and MRT per sample vs time (log y)", ids, 480),
        table_block(render_table(t), "WSAT run: how it stopped")}});
  const std::vector<chart::NamedSeries> lat_fills = {
      {"ART", sample_series(samples, "drive_fills", 1, "latency_mean_ns", 1e6)},
      {"99.999%", sample_series(samples, "drive_fills", 1, "latency_p99_999_ns", 1e6)},
      {"MRT", sample_series(samples, "drive_fills", 1, "latency_max_ns", 1e6)}};
  pages.push_back(
      {header,
       "WSAT \u2013 Response Times vs Drive Fills (ART, 99.999 %, MRT)",
       {chart_block(chart::time_series_chart(
                        {"WSAT Response Times vs Drive Fills", workload + ", per sample", "wsat-rt-fills"},
                        "Drive fills (TGBW / user capacity)", "Response time (ms)", lat_fills, chart::ScaleKind::log10),
                    "WSAT: ART, 99.999 % and MRT per sample vs drive fills (log y)", ids, 480)}});
  if (!capture.is_null()) {
    pages.push_back({header,
                     "WSAT \u2013 Response Time Histogram",
                     {histogram_block(capture, "WSAT Response Time Histogram", ids, 520),
                      capture_table_block({&capture}, {"RT capture"}, "Response-time capture statistics")}});
    pages.push_back({header,
                     "WSAT \u2013 Response Time Confidence Level Plot",
                     {confidence_block(capture, "WSAT Response Time Confidence Levels", ids, 600)}});
  }
  for (Page& p : compliance_pages(header, test, "WSAT")) {
    pages.push_back(std::move(p));
  }
  return pages;
}

}  // namespace ptsuite::report::html
