// Contract: from an Axis spec and the data on it to a drawn range with ticks (resolve_axis),
// and from data values to pixel positions (Scale). Pure, thread-safe.
//
// Mapping, for every scale kind: with a transform t (linear: t(v) = v; log10: t(v) = log10 v;
// nines: t(p) = -log10(1 - p/100)), a value v lands at
//     px = px_from + (t(v) - t(lo)) / (t(hi) - t(lo)) * (px_to - px_from),
// i.e. equal distances in t are equal distances on screen (for log10: equal ratios; for
// nines: each extra "9" of a percentile gets the same height). px_to < px_from is allowed
// (the y axis grows upwards while SVG y grows downwards).
//
// Drawable values: finite; > 0 on log10; within [0, 100] on nines, where 100 % (t = inf) is
// placed at the top end of the axis. map() returns nullopt for anything else and callers skip
// (and count) such values: the rule of docs/charts.md, "Edge cases".
#pragma once

#include <cstddef>
#include <optional>

#include <ptsuite/report/chart/model.hpp>
#include <ptsuite/report/chart/ticks.hpp>

namespace ptsuite::report::chart {

class Scale {
 public:
  Scale() = default;
  Scale(ScaleKind kind, double lo, double hi, double px_from, double px_to);

  [[nodiscard]] bool drawable(double value) const noexcept;
  [[nodiscard]] std::optional<double> map(double value) const noexcept;
  // Like map(), but values beyond the range (or not drawable below it, e.g. 0 on a log
  // axis) are pinned to the nearer end: the baseline of bars and histogram bins.
  [[nodiscard]] double map_clamped(double value) const noexcept;

  [[nodiscard]] ScaleKind kind() const noexcept { return m_kind; }
  [[nodiscard]] double lo() const noexcept { return m_lo; }
  [[nodiscard]] double hi() const noexcept { return m_hi; }
  [[nodiscard]] double px_from() const noexcept { return m_px_from; }
  [[nodiscard]] double px_to() const noexcept { return m_px_to; }

 private:
  [[nodiscard]] double transform(double value) const noexcept;  // t(v); caller checks drawable

  ScaleKind m_kind = ScaleKind::linear;
  double m_lo = 0;
  double m_hi = 1;
  double m_px_from = 0;
  double m_px_to = 1;
  double m_t_lo = 0;
  double m_t_hi = 1;
};

// The drawable data values seen on one axis.
struct Extent {
  double lo = 0;
  double hi = 0;
  size_t count = 0;
  // Adds `value` if it is drawable on `kind` (finite; > 0 for log10; [0, 100] for nines,
  // where only values below 100 count toward the range, 100 being drawn at the top anyway).
  void add(double value, ScaleKind kind) noexcept;
};

// The drawn range and ticks of `axis` for data `extent`:
//  * categories: range [-0.5, n - 0.5], one tick per category, labelled with its name;
//  * explicit ticks: range = hull of data and ticks, padded by 4 % of its t-span per side;
//  * otherwise the rules of ticks.hpp, the range widened to nice ticks where not fixed.
// Fixed ends (Axis::min/max) are kept as given; ticks outside them are dropped. A fixed end
// that the scale cannot place (<= 0 on log10) is ignored. No data: [0, 1] (log10: [1, 10]).
// `max_intervals` comes from the axis length in pixels (about one tick per 40-80 px).
TickSet resolve_axis(const Axis& axis, const Extent& extent, int max_intervals);

}  // namespace ptsuite::report::chart
