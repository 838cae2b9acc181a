#include <ptsuite/report/html/figures.hpp>

#include <fmt/format.h>

#include <cmath>

#include <ptsuite/report/chart/pts_charts.hpp>
#include <ptsuite/report/chart/render.hpp>

namespace ptsuite::report::html {

using nlohmann::json;

namespace {

constexpr double k_chart_width_px = 720;

// Inline SVG in HTML needs no namespace declaration; dropping it keeps the document free of
// URL-like strings.
std::string inline_svg(std::string svg) {
  static const std::string k_ns = " xmlns=\"http://www.w3.org/2000/svg\"";
  const size_t at_ns = svg.find(k_ns);
  if (at_ns != std::string::npos) {
    svg.erase(at_ns, k_ns.size());
  }
  return svg;
}

// PASS / FAIL, or a dash when there is no verdict to judge.
std::string pass_fail(bool known, bool ok) {
  if (!known) {
    return "\u2013";
  }
  return ok ? "<span class=\"st-pass\">PASS</span>" : "<span class=\"st-fail\">FAIL</span>";
}

// "496.07*R + 392770.2" -> "496.07·R + 392770.2" (display only).
std::string pretty_formula(std::string formula) {
  for (size_t at_star = formula.find("*R"); at_star != std::string::npos; at_star = formula.find("*R")) {
    formula.replace(at_star, 1, "\u00b7");
  }
  return formula;
}

// One direction's latency statistics of a summary; all absent when the direction is.
results::LatencySummary latency_of(const results::SegmentSummary& summary, std::string_view direction) {
  const results::DirectionSummary* d = summary.direction(direction);
  return d != nullptr ? d->latency : results::LatencySummary{};
}

// The fit in display units: the tracking variable's "display" text (pts/round_loop.hpp); the
// verdict's own formula when the stored unit is the display unit.
std::string fit_formula(const results::SteadyStateVerdictRecord& verdict, const results::PhaseTracking& tracking) {
  return tracking.display.fit_formula.empty() ? verdict.fit_formula : tracking.display.fit_formula;
}

// What a phase without a verdict for a variable shows: no numbers (NaN prints as a dash).
const results::SteadyStateVerdictRecord& no_verdict() {
  static const results::SteadyStateVerdictRecord k_none = [] {
    results::SteadyStateVerdictRecord v;
    const double nan = std::nan("");
    v.criteria = {0, nan, nan};
    v.average = v.slope = v.intercept = nan;
    v.data_excursion = v.slope_excursion = {nan, nan, false};
    v.band = {nan, nan, nan, nan};
    return v;
  }();
  return k_none;
}

// "Rounds 3–7" of a verdict's window.
std::string window_rounds_text(const results::SteadyStateVerdictRecord& v) {
  return fmt::format("Rounds {}\u2013{}", v.window_first_round, v.window_last_round);
}

}  // namespace

std::string IdSource::next(const std::string& stem) { return id_of(stem) + "-" + std::to_string(m_next++); }

Block chart_block(chart::Chart c, const std::string& caption, IdSource& ids, double height_px,
                  const std::string& css_class) {
  c.id = ids.next(c.id.empty() ? "chart" : c.id);
  c.width_px = k_chart_width_px;
  c.height_px = height_px;
  return Block{BlockKind::figure, inline_svg(chart::render_svg(c)), caption, css_class};
}

Block matrix_block(chart::MatrixChart m, const std::string& caption, IdSource& ids, double height_px, bool heatmap) {
  m.id = ids.next(m.id.empty() ? "matrix" : m.id);
  m.width_px = k_chart_width_px;
  m.height_px = height_px;
  return Block{
      BlockKind::figure, inline_svg(heatmap ? chart::render_heatmap(m) : chart::render_isometric_bars(m)), caption, {}};
}

Block table_block(std::string table_html, const std::string& caption, const std::string& css_class) {
  return Block{BlockKind::table, std::move(table_html), caption, css_class};
}

Block html_block(std::string html, const std::string& css_class) {
  return Block{BlockKind::html, std::move(html), {}, css_class};
}

MetricView metric_view(const std::string& metric) {
  if (metric == "iops") {
    return {"IOPS", "IOPS", 1};
  }
  if (metric == "read_mb_per_s" || metric == "write_mb_per_s" || metric == "mb_per_s") {
    return {"Throughput (MB/s, decimal)", "MB/s", 1};
  }
  if (metric == "mean_latency" || metric == "max_latency") {
    return {"Response time (ms)", "ms", 1e6};
  }
  return {metric, metric, 1};
}

std::string fmt_metric(double stored_value, const MetricView& view) { return fmt_number(stored_value / view.divisor); }

double segment_value(const results::SegmentResultRecord& segment_result, SegmentValue what) {
  const results::SegmentSummary& s = segment_result.summary;
  const double nan = std::nan("");
  const results::DirectionSummary* combined = s.direction("combined");
  switch (what) {
    case SegmentValue::iops:
      return combined != nullptr ? combined->iops : nan;
    case SegmentValue::read_mb_per_s:
      return s.read ? s.read->mb_per_s : nan;
    case SegmentValue::write_mb_per_s:
      return s.write ? s.write->mb_per_s : nan;
    case SegmentValue::mean_latency_ns:
      return combined != nullptr ? combined->latency.mean_ns : nan;
    case SegmentValue::max_latency_ns:
      return combined != nullptr ? results::or_nan(combined->latency.max_ns) : nan;
    case SegmentValue::p99_999_ns:
      return combined != nullptr ? combined->latency.percentile_ns("99.999") : nan;
  }
  return nan;
}

std::vector<chart::Point> round_series(const results::RoundPhase& phase, size_t segment_index, SegmentValue what,
                                       double divisor) {
  std::vector<chart::Point> out;
  for (const results::PhaseRound& r : phase.rounds) {
    if (segment_index < r.segments.size()) {
      const results::SegmentResultRecord result = results::read_segment_result(r.segments[segment_index]);
      out.push_back({static_cast<double>(r.round), segment_value(result, what) / divisor});
    }
  }
  return out;
}

std::vector<chart::NamedSeries> mix_series(const results::RoundPhase& phase, const std::string& rw_mix,
                                           SegmentValue what, double divisor) {
  std::vector<chart::NamedSeries> out;
  for (size_t i = 0; i < phase.round_template.size(); ++i) {
    const results::SegmentSpecRecord spec = results::read_segment_spec(phase.round_template[i]);
    if (spec.rw_mix == rw_mix) {
      out.push_back({segment_block_size(spec), round_series(phase, i, what, divisor)});
    }
  }
  return out;
}

const results::SteadyStateVerdictRecord* verdict_for(const results::RoundPhase& phase, const std::string& name) {
  for (const results::SteadyStateVerdictRecord& v : phase.steady_state.verdicts.variables) {
    if (v.tracking_variable == name) {
      return &v;
    }
  }
  return nullptr;
}

Block window_block(const results::RoundPhase& phase, const results::PhaseTracking& tracking,
                   const std::string& test_title, IdSource& ids, double height_px) {
  const std::string& name = tracking.name;
  const MetricView view = metric_view(tracking.metric);
  const results::SteadyStateVerdictRecord* found = verdict_for(phase, name);
  const results::SteadyStateVerdictRecord& v = found != nullptr ? *found : no_verdict();
  chart::MeasurementWindow w;
  w.y_label = view.axis_label;
  w.variable_name = name;
  for (size_t i = 0; i < v.window_rounds.size() && i < v.window_values.size(); ++i) {
    w.points.push_back({static_cast<double>(v.window_rounds[i]), v.window_values[i] / view.divisor});
  }
  w.average = v.average / view.divisor;
  w.slope = v.slope / view.divisor;
  w.intercept = v.intercept / view.divisor;
  w.fit_formula = pretty_formula(fit_formula(v, tracking));
  // The band of the results (average +- half the allowed data excursion: 90 % / 110 % with
  // the PTS 20 % of pts/common.json).
  w.band_low = v.band.low / view.divisor;
  w.band_high = v.band.high / view.divisor;
  w.band_low_label = fmt::format("{}% \u00d7 average", v.band.low_pct);
  w.band_high_label = fmt::format("{}% \u00d7 average", v.band.high_pct);
  const std::string window = window_rounds_text(v);
  chart::Chart c = chart::measurement_window_chart(
      {test_title + " \u2013 Steady State Measurement Window", name + ", " + window, "window"}, w);
  return chart_block(std::move(c), "SS measurement window: " + name + " (" + window + ")", ids, height_px);
}

Block determination_block(const results::RoundPhase& phase, const results::PhaseTracking& tracking) {
  const std::string& name = tracking.name;
  const MetricView view = metric_view(tracking.metric);
  const results::SteadyStateVerdictRecord* found = verdict_for(phase, name);
  const bool known = found != nullptr;
  const results::SteadyStateVerdictRecord& v = known ? *found : no_verdict();
  Table t;
  t.css_class = "data";
  t.header = {"Steady-state determination (" + view.unit + ")", "Allowed", "Measured", "Result"};
  std::string values;
  for (double x : v.window_values) {
    values += (values.empty() ? "" : ", ") + fmt_metric(x, view);
  }
  t.rows.push_back({text("Window: " + window_rounds_text(v)), "", text(values), ""});
  t.rows.push_back({"Average", "", text(fmt_metric(v.average, view)), ""});
  t.rows.push_back(
      {text(fmt::format("Data excursion, max \u2212 min (\u2264 {} % of average)", v.criteria.data_excursion_pct)),
       text(fmt_metric(v.data_excursion.allowed, view)), text(fmt_metric(v.data_excursion.measured, view)),
       pass_fail(known, v.data_excursion.ok)});
  t.rows.push_back({text(fmt::format("Slope excursion, fit range over the window (\u2264 {} % of average)",
                                     v.criteria.slope_excursion_pct)),
                    text(fmt_metric(v.slope_excursion.allowed, view)),
                    text(fmt_metric(v.slope_excursion.measured, view)), pass_fail(known, v.slope_excursion.ok)});
  t.rows.push_back({"Least-squares fit", "", text("y = " + pretty_formula(fit_formula(v, tracking))), ""});
  if (known) {
    t.rows.push_back({text(fmt::format("Band {} % \u2013 {} % of average", v.band.low_pct, v.band.high_pct)),
                      text(fmt_metric(v.band.low, view) + " \u2013 " + fmt_metric(v.band.high, view)), "", ""});
  }
  // A fixed count of Rounds (ECW's preconditioning) is no steady-state phase: its window is
  // shown, and what the rule would say of it is information, not a verdict.
  const bool fixed = !phase.steady_state.stop_at_steady_state;
  std::string verdict = v.attained ? "<span class=\"st-pass\">STEADY STATE ATTAINED</span>"
                                   : "<span class=\"st-fail\">SS NOT ACHIEVED</span>";
  if (fixed) {
    verdict =
        text(fmt::format("not judged: a fixed {} Rounds ({}); the rule would read {}", phase.steady_state.rounds_run,
                         phase.steady_state.round_cap_setting, v.attained ? "attained" : "not attained"));
  }
  if (!v.note.empty()) {
    verdict += " (" + text(v.note) + ")";
  }
  t.rows.push_back({"Steady state", "", verdict, fixed ? "" : pass_fail(known, v.attained)});
  t.row_classes.assign(t.rows.size(), "");
  t.row_classes[2] = known && !v.data_excursion.ok ? "fail" : "";
  t.row_classes[3] = known && !v.slope_excursion.ok ? "fail" : "";
  t.row_classes.back() = fixed ? "" : v.attained ? "pass" : "fail";
  return table_block(render_table(t), "SS determination: " + name);
}

namespace {

// The histogram chart of `bars` with the markers of the latency statistics `lat` (one
// direction's or the combined).
Block bars_block(const std::vector<results::HistogramBar>& source, const results::LatencySummary& lat,
                 const std::string& title, const std::string& label, const std::string& caption, IdSource& ids,
                 double height_px) {
  // The record's display-ready bars (1/16 octave each, test_procedure.hpp histogram_bars()).
  std::vector<chart::Bin> bins;
  for (const results::HistogramBar& bar : source) {
    bins.push_back({static_cast<double>(bar.lower_ns) / 1e6, static_cast<double>(bar.upper_ns) / 1e6,
                    static_cast<double>(bar.count)});
  }
  std::vector<chart::Marker> markers;
  auto mark = [&](const std::string& name, double ns) {
    if (std::isfinite(ns)) {
      markers.push_back({name + " " + fmt_ms(ns) + " ms", ns / 1e6});
    }
  };
  mark("ART", lat.mean_ns);
  mark("99.9%", lat.percentile_ns("99.9"));
  mark("99.99%", lat.percentile_ns("99.99"));
  mark("99.999%", lat.percentile_ns("99.999"));
  mark("MRT", results::or_nan(lat.max_ns));
  chart::Chart c =
      chart::histogram_chart({title, label, "hist"}, "Response time (ms)", bins, markers, chart::ScaleKind::log10);
  return chart_block(std::move(c), caption, ids, height_px);
}

}  // namespace

Block histogram_block(const results::CaptureRecord& capture, const std::string& title, IdSource& ids,
                      double height_px) {
  return bars_block(capture.histogram_bars,
                    latency_of(results::read_segment_result(capture.result).summary, "combined"), title, capture.label,
                    title + " (" + capture.label + "; each bar = 1/16 octave)", ids, height_px);
}

Block direction_histogram_block(const results::CaptureRecord& capture, const std::string& direction,
                                const std::string& title, IdSource& ids, double height_px) {
  const bool read = direction == "read";
  return bars_block(read ? capture.read_bars : capture.write_bars,
                    latency_of(results::read_segment_result(capture.result).summary, direction), title,
                    capture.label + ", " + direction + "s only",
                    title + " (" + capture.label + ", " + direction + "s only; each bar = 1/16 octave)", ids,
                    height_px);
}

Block confidence_block(const results::CaptureRecord& capture, const std::string& title, IdSource& ids,
                       double height_px) {
  std::vector<chart::Point> points;
  for (const results::ConfidenceLevel& p : capture.confidence_levels) {
    points.push_back({static_cast<double>(p.upper_ns) / 1e6, p.cumulative_pct});
  }
  const results::LatencySummary lat = latency_of(results::read_segment_result(capture.result).summary, "combined");
  std::vector<chart::ConfidenceMarker> markers;
  const std::pair<const char*, const char*> levels[] = {
      {"3 nines (99.9%)", "99.9"}, {"4 nines (99.99%)", "99.99"}, {"5 nines (99.999%)", "99.999"}};
  for (const auto& [label, key] : levels) {
    const double ns = lat.percentile_ns(key);
    if (std::isfinite(ns)) {
      markers.push_back({std::string(label) + ": " + fmt_ms(ns) + " ms", std::stod(key), ns / 1e6});
    }
  }
  chart::Chart c =
      chart::confidence_level_chart({title, capture.label, "confidence"}, "Response time (ms)", points, markers);
  return chart_block(std::move(c), title + " (" + capture.label + ")", ids, height_px);
}

Block capture_table_block(const std::vector<const results::CaptureRecord*>& captures,
                          const std::vector<std::string>& names, const std::string& caption) {
  Table t;
  t.css_class = "data compact";
  t.header = {"Capture",  "Workload",    "TOIO",         "Duration",      "IOs",     "IOPS",
              "ART (ms)", "99.9 % (ms)", "99.99 % (ms)", "99.999 % (ms)", "MRT (ms)"};
  t.first_numeric_column = 3;
  for (size_t i = 0; i < captures.size(); ++i) {
    const results::CaptureRecord& cap = *captures[i];
    const results::SegmentSpecRecord spec = results::read_segment_spec(cap.spec);
    const results::SegmentResultRecord result = results::read_segment_result(cap.result);
    const results::DirectionSummary comb = result.summary.combined.value_or(results::DirectionSummary{});
    const results::LatencySummary& lat = comb.latency;
    const auto count_text = [](const std::optional<uint32_t>& n) { return n ? std::to_string(*n) : std::string(); };
    t.rows.push_back({text(i < names.size() ? names[i] : cap.name), text(cap.label),
                      text(fmt::format("{} / {}", count_text(spec.threads), count_text(spec.queue_depth))),
                      text(spec.duration_ns ? fmt_duration_ns(*spec.duration_ns) : "\u2013"),
                      text(grouped(results::or_nan(comb.ios), 0)), text(fmt_iops(comb.iops)), text(fmt_ms(lat.mean_ns)),
                      text(fmt_ms(lat.percentile_ns("99.9"))), text(fmt_ms(lat.percentile_ns("99.99"))),
                      text(fmt_ms(lat.percentile_ns("99.999"))), text(fmt_ms(results::or_nan(lat.max_ns)))});
  }
  return table_block(render_table(t), caption);
}

std::string segment_block_size(const results::SegmentSpecRecord& segment_spec) {
  const std::vector<results::BlockSizeRecord>& sizes = segment_spec.block_sizes;
  if (sizes.size() == 1 && sizes[0].bytes) {
    return kib_label(*sizes[0].bytes);
  }
  return sizes.size() > 1 ? "CBW mix" : "\u2013";
}

std::string segment_block_size(const results::Embedded& segment_spec) {
  return segment_block_size(results::read_segment_spec(segment_spec));
}

}  // namespace ptsuite::report::html
