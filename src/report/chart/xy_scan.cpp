#include "report/chart/xy_scan.hpp"

#include <fmt/format.h>
#include <cmath>

namespace ptsuite::report::chart::detail {

std::vector<std::string> SkipCounts::notes() const {
  std::vector<std::string> out;
  if (non_finite > 0) {
    out.push_back(fmt::format("{} non-finite value(s) (NaN or infinite) not shown.", non_finite));
  }
  if (x_not_positive > 0) {
    out.push_back(fmt::format("{} value(s) with x \u2264 0 not shown (log x axis).", x_not_positive));
  }
  if (y_not_positive > 0) {
    out.push_back(fmt::format("{} value(s) with y \u2264 0 not shown (log y axis).", y_not_positive));
  }
  if (outside_domain > 0) {
    out.push_back(fmt::format("{} value(s) outside the axis domain not shown.", outside_domain));
  }
  return out;
}

bool placeable(const Chart& chart, double x, double y, SkipCounts& skips) {
  const bool categorical = !chart.x.categories.empty();
  if (!std::isfinite(x) || !std::isfinite(y)) {
    ++skips.non_finite;
    return false;
  }
  if (chart.x.scale == ScaleKind::log10 && !categorical && x <= 0) {
    ++skips.x_not_positive;
    return false;
  }
  if (chart.y.scale == ScaleKind::log10 && y <= 0) {
    ++skips.y_not_positive;
    return false;
  }
  const auto outside_nines = [](double v) { return v < 0 || v > 100; };
  if ((chart.x.scale == ScaleKind::nines && !categorical && outside_nines(x)) ||
      (chart.y.scale == ScaleKind::nines && outside_nines(y)) ||
      (categorical && (x < -0.5 || x > static_cast<double>(chart.x.categories.size()) - 0.5))) {
    ++skips.outside_domain;
    return false;
  }
  return true;
}

XyScan scan_xy(const Chart& chart) {
  XyScan scan;
  const ScaleKind xk = chart.x.categories.empty() ? chart.x.scale : ScaleKind::linear;
  const ScaleKind yk = chart.y.scale;
  for (const Series& s : chart.series) {
    if (s.style == SeriesStyle::histogram) {
      for (const Bin& b : s.bins) {
        if (!std::isfinite(b.lo) || !std::isfinite(b.hi) || !std::isfinite(b.count)) {
          ++scan.skips.non_finite;
          continue;
        }
        if (xk == ScaleKind::log10 && b.hi <= 0) {
          ++scan.skips.x_not_positive;
          continue;
        }
        scan.has_bars = true;
        if (b.count == 0) {
          continue;  // empty bins (long tails of zeros) do not stretch the axes
        }
        scan.x.add(b.lo, xk);  // a lo <= 0 on log x is not added: the bin starts at the axis end
        scan.x.add(b.hi, xk);
        scan.y.add(b.count, yk);
      }
      continue;
    }
    for (const Point& p : s.points) {
      if (placeable(chart, p.x, p.y, scan.skips)) {
        scan.x.add(p.x, xk);
        scan.y.add(p.y, yk);
      }
    }
    scan.has_bars = scan.has_bars || s.style == SeriesStyle::bars;
  }
  for (const RefLine& r : chart.ref_lines) {
    if (r.orientation == Orientation::horizontal) {
      scan.y.add(r.value, yk);
    } else {
      scan.x.add(r.value, xk);
    }
  }
  for (const Band& b : chart.bands) {
    Extent& e = b.orientation == Orientation::horizontal ? scan.y : scan.x;
    const ScaleKind k = b.orientation == Orientation::horizontal ? yk : xk;
    e.add(b.from, k);
    e.add(b.to, k);
  }
  if (scan.has_bars && yk == ScaleKind::linear) {
    scan.y.add(0, yk);  // bars grow from zero
  }
  return scan;
}

std::string fingerprint(const Chart& c) {
  std::string f = fmt::format("xy|{}|{}|{}|{}|{}|{}|{}|{}|", c.title, c.subtitle, c.x.label, c.y.label,
                              static_cast<int>(c.x.scale), static_cast<int>(c.y.scale), c.width_px, c.height_px);
  for (const Series& s : c.series) {
    f += fmt::format("s|{}|{}|", s.name, static_cast<int>(s.style));
    for (const Point& p : s.points) {
      f += fmt::format("{},{};", p.x, p.y);
    }
    for (const Bin& b : s.bins) {
      f += fmt::format("{},{},{};", b.lo, b.hi, b.count);
    }
  }
  for (const RefLine& r : c.ref_lines) {
    f += fmt::format("r|{}|{}|{}|", static_cast<int>(r.orientation), r.value, r.label);
  }
  for (const Band& b : c.bands) {
    f += fmt::format("b|{}|{}|{}|{}|", static_cast<int>(b.orientation), b.from, b.to, b.label);
  }
  return f;
}

}  // namespace ptsuite::report::chart::detail
