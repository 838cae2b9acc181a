#include <ptsuite/report/chart/pts_charts.hpp>

#include <algorithm>
#include <cmath>
#include <optional>

namespace ptsuite::report::chart {

namespace {

Chart titled(const Titles& titles) {
  Chart c;
  c.id = titles.id;
  c.title = titles.title;
  c.subtitle = titles.subtitle;
  return c;
}

Axis make_axis(const std::string& label, ScaleKind scale, LabelStyle style, bool include_zero) {
  Axis a;
  a.label = label;
  a.scale = scale;
  a.label_style = style;
  a.include_zero = include_zero;
  return a;
}

Series make_series(const std::string& name, SeriesStyle style, const std::vector<Point>& points,
                   std::optional<size_t> look = std::nullopt) {
  Series s;
  s.name = name;
  s.style = style;
  s.points = points;
  s.look = look;
  return s;
}

RefLine make_ref_line(Orientation orientation, double value, const std::string& label, LineDash dash,
                      std::optional<size_t> look, bool label_at_line) {
  RefLine r;
  r.orientation = orientation;
  r.value = value;
  r.label = label;
  r.dash = dash;
  r.look = look;
  r.label_at_line = label_at_line;
  return r;
}

// Whole-number x ticks for round axes: every round when there are few, otherwise the
// automatic 1-2-5 ticks (which are whole numbers for ranges above 10 anyway).
std::vector<double> round_ticks(const std::vector<NamedSeries>& series) {
  std::vector<double> rounds;
  for (const NamedSeries& s : series) {
    for (const Point& p : s.points) {
      if (std::isfinite(p.x)) {
        rounds.push_back(p.x);
      }
    }
  }
  std::sort(rounds.begin(), rounds.end());
  rounds.erase(std::unique(rounds.begin(), rounds.end()), rounds.end());
  if (rounds.size() > 12) {
    rounds.clear();
  }
  return rounds;
}

}  // namespace

Chart convergence_chart(const Titles& titles, const std::string& y_label, const std::vector<NamedSeries>& series) {
  Chart c = titled(titles);
  c.x = make_axis("Round", ScaleKind::linear, LabelStyle::plain, false);
  c.x.ticks = round_ticks(series);
  c.y = make_axis(y_label, ScaleKind::linear, LabelStyle::si, true);
  for (const NamedSeries& s : series) {
    c.series.push_back(make_series(s.name, SeriesStyle::line_markers, s.points));
  }
  return c;
}

Chart measurement_window_chart(const Titles& titles, const MeasurementWindow& w) {
  Chart c = titled(titles);
  c.x = make_axis("Round", ScaleKind::linear, LabelStyle::plain, false);
  c.x.ticks = round_ticks({{{}, w.points}});
  c.y = make_axis(w.y_label, ScaleKind::linear, LabelStyle::si, false);
  c.series.push_back(make_series(w.variable_name, SeriesStyle::line_markers, w.points, 0));
  // The fitted line across the window: from the first to the last round.
  double first = HUGE_VAL;
  double last = -HUGE_VAL;
  for (const Point& p : w.points) {
    if (std::isfinite(p.x)) {
      first = std::min(first, p.x);
      last = std::max(last, p.x);
    }
  }
  if (first <= last) {
    c.series.push_back(make_series(w.fit_formula.empty() ? "Least-squares fit" : "Least-squares fit: " + w.fit_formula,
                                   SeriesStyle::line,
                                   {{first, w.slope * first + w.intercept}, {last, w.slope * last + w.intercept}}, 1));
  }
  const auto h = Orientation::horizontal;
  if (std::isfinite(w.band_low) && std::isfinite(w.band_high)) {
    Band band;
    band.from = w.band_low;
    band.to = w.band_high;
    band.look = 2;
    c.bands.push_back(band);
    c.ref_lines.push_back(make_ref_line(h, w.band_high, w.band_high_label, LineDash::dashed, 2, false));
  }
  c.ref_lines.push_back(make_ref_line(h, w.average, "Average", LineDash::solid, 6, false));
  if (std::isfinite(w.band_low) && std::isfinite(w.band_high)) {
    c.ref_lines.push_back(make_ref_line(h, w.band_low, w.band_low_label, LineDash::dotted, 2, false));
  }
  c.legend = LegendPlacement::bottom;  // the fit formula makes a wide legend entry
  return c;
}

Chart grouped_bar_chart(const Titles& titles, const std::string& category_label,
                        const std::vector<std::string>& categories, const std::string& y_label,
                        const std::vector<NamedSeries>& series, ScaleKind y_scale) {
  Chart c = titled(titles);
  c.x = make_axis(category_label, ScaleKind::linear, LabelStyle::si, false);
  c.x.categories = categories;
  c.y = make_axis(y_label, y_scale, LabelStyle::si, false);
  for (const NamedSeries& s : series) {
    Series bars = make_series(s.name, SeriesStyle::bars, {});
    for (size_t i = 0; i < s.points.size() && i < categories.size(); ++i) {
      bars.points.push_back({static_cast<double>(i), s.points[i].y});
    }
    c.series.push_back(std::move(bars));
  }
  return c;
}

Chart block_size_chart(const Titles& titles, const std::string& y_label, const std::vector<NamedSeries>& series,
                       ScaleKind y_scale) {
  Chart c = titled(titles);
  c.x = make_axis("Block size", ScaleKind::log10, LabelStyle::bytes_binary, false);
  for (const NamedSeries& s : series) {
    for (const Point& p : s.points) {
      c.x.ticks.push_back(p.x);  // resolve_axis sorts and de-duplicates
    }
    c.series.push_back(make_series(s.name, SeriesStyle::line_markers, s.points));
  }
  c.y = make_axis(y_label, y_scale, LabelStyle::si, y_scale == ScaleKind::linear);
  return c;
}

Chart time_series_chart(const Titles& titles, const std::string& x_label, const std::string& y_label,
                        const std::vector<NamedSeries>& series, ScaleKind y_scale) {
  Chart c = titled(titles);
  c.x = make_axis(x_label, ScaleKind::linear, LabelStyle::si, true);
  c.y = make_axis(y_label, y_scale, LabelStyle::si, y_scale == ScaleKind::linear);
  for (const NamedSeries& s : series) {
    c.series.push_back(make_series(s.name, SeriesStyle::markers, s.points));
    c.series.back().thin = true;
  }
  if (series.size() == 1) {
    c.legend = LegendPlacement::none;  // the y label names the one variable
  }
  return c;
}

Chart histogram_chart(const Titles& titles, const std::string& x_label, const std::vector<Bin>& bins,
                      const std::vector<Marker>& markers, ScaleKind count_scale) {
  Chart c = titled(titles);
  c.x = make_axis(x_label, ScaleKind::log10, LabelStyle::si, false);
  c.y = make_axis("IOs per bin", count_scale, LabelStyle::si, false);
  c.series.push_back(make_series("IOs", SeriesStyle::histogram, {}, 0));
  c.series.back().bins = bins;
  static constexpr LineDash k_dashes[] = {LineDash::solid, LineDash::dashed, LineDash::dotted, LineDash::dash_dot};
  for (size_t i = 0; i < markers.size(); ++i) {
    c.ref_lines.push_back(
        make_ref_line(Orientation::vertical, markers[i].value, markers[i].label, k_dashes[i % 4], 1 + i % 7, true));
  }
  c.legend = LegendPlacement::bottom;
  return c;
}

Chart confidence_level_chart(const Titles& titles, const std::string& x_label, const std::vector<Point>& cumulative,
                             const std::vector<ConfidenceMarker>& markers) {
  Chart c = titled(titles);
  c.x = make_axis(x_label, ScaleKind::log10, LabelStyle::si, false);
  c.y = make_axis("Cumulative IOs (%)", ScaleKind::nines, LabelStyle::percent, false);
  c.series.push_back(make_series("Cumulative", SeriesStyle::line, cumulative, 0));
  static constexpr LineDash k_dashes[] = {LineDash::dashed, LineDash::dotted, LineDash::dash_dot, LineDash::solid};
  for (size_t i = 0; i < markers.size(); ++i) {
    c.ref_lines.push_back(
        make_ref_line(Orientation::vertical, markers[i].latency, markers[i].label, k_dashes[i % 4], 1 + i % 7, true));
    // The level itself as an unlabelled horizontal guide (the legend already names it).
    c.ref_lines.push_back(
        make_ref_line(Orientation::horizontal, markers[i].percent, "", LineDash::dotted, 1 + i % 7, false));
  }
  c.legend = LegendPlacement::bottom;
  return c;
}

Chart demand_variation_chart(const Titles& titles, const std::vector<NamedSeries>& per_thread_count) {
  Chart c = titled(titles);
  c.x = make_axis("Queue depth (OIO per thread)", ScaleKind::log10, LabelStyle::plain, false);
  c.y = make_axis("IOPS", ScaleKind::linear, LabelStyle::si, true);
  for (const NamedSeries& s : per_thread_count) {
    for (const Point& p : s.points) {
      c.x.ticks.push_back(p.x);
    }
    c.series.push_back(make_series(s.name, SeriesStyle::line_markers, s.points));
  }
  return c;
}

Chart demand_intensity_chart(const Titles& titles, const std::string& y_label,
                             const std::vector<NamedSeries>& per_thread_count, const std::vector<Marker>& ceilings) {
  Chart c = titled(titles);
  c.x = make_axis("IOPS", ScaleKind::linear, LabelStyle::si, true);
  c.y = make_axis(y_label, ScaleKind::log10, LabelStyle::si, false);
  for (const NamedSeries& s : per_thread_count) {
    c.series.push_back(make_series(s.name, SeriesStyle::line_markers, s.points));
  }
  for (const Marker& m : ceilings) {
    c.ref_lines.push_back(
        make_ref_line(Orientation::horizontal, m.value, m.label, LineDash::dashed, std::nullopt, true));
  }
  return c;
}

MatrixChart matrix_chart(const Titles& titles, const std::vector<std::string>& row_labels,
                         const std::vector<std::string>& column_labels, const std::vector<std::vector<double>>& values,
                         const std::string& value_label, ScaleKind value_scale) {
  MatrixChart m;
  m.id = titles.id;
  m.title = titles.title;
  m.subtitle = titles.subtitle;
  m.row_axis_label = "Block size";
  m.column_axis_label = "R/W mix (%R/%W)";
  m.row_labels = row_labels;
  m.column_labels = column_labels;
  m.values = values;
  m.value_axis = make_axis(value_label, value_scale, LabelStyle::si, false);
  return m;
}

}  // namespace ptsuite::report::chart
