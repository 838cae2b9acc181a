#include <ptsuite/report/chart/scale.hpp>

#include <algorithm>
#include <cmath>

namespace ptsuite::report::chart {

namespace {

// Largest percentage the nines transform takes literally: 1 - 1e-12 keeps t finite (12).
constexpr double k_nines_cap_percent = 100 * (1 - 1e-12);

double nines_of(double percent) { return -std::log10(1 - std::min(percent, k_nines_cap_percent) / 100); }

}  // namespace

Scale::Scale(ScaleKind kind, double lo, double hi, double px_from, double px_to)
    : m_kind(kind), m_lo(lo), m_hi(hi), m_px_from(px_from), m_px_to(px_to) {
  m_t_lo = drawable(lo) ? transform(lo) : 0;
  m_t_hi = drawable(hi) ? transform(hi) : m_t_lo + 1;
}

bool Scale::drawable(double value) const noexcept {
  if (!std::isfinite(value)) {
    return false;
  }
  switch (m_kind) {
    case ScaleKind::log10:
      return value > 0;
    case ScaleKind::nines:
      return value >= 0 && value <= 100;
    case ScaleKind::linear:
      break;
  }
  return true;
}

double Scale::transform(double value) const noexcept {
  switch (m_kind) {
    case ScaleKind::log10:
      return std::log10(value);
    case ScaleKind::nines:
      // 100 % has no finite position (t = inf): it is drawn at the top end of the axis.
      return value >= 100 ? m_t_hi : nines_of(value);
    case ScaleKind::linear:
      break;
  }
  return value;
}

std::optional<double> Scale::map(double value) const noexcept {
  if (!drawable(value)) {
    return std::nullopt;
  }
  const double span = m_t_hi - m_t_lo;
  if (span == 0) {
    return (m_px_from + m_px_to) / 2;
  }
  return m_px_from + (transform(value) - m_t_lo) / span * (m_px_to - m_px_from);
}

double Scale::map_clamped(double value) const noexcept {
  if (!drawable(value)) {
    // Not placeable: NaN and anything below a log/nines axis go to the low end; +inf high.
    return value == HUGE_VAL ? m_px_to : m_px_from;
  }
  const double px = *map(value);
  const double px_min = std::min(m_px_from, m_px_to);
  const double px_max = std::max(m_px_from, m_px_to);
  return std::clamp(px, px_min, px_max);
}

void Extent::add(double value, ScaleKind kind) noexcept {
  if (!std::isfinite(value) || (kind == ScaleKind::log10 && value <= 0) ||
      (kind == ScaleKind::nines && (value < 0 || value >= 100))) {
    return;
  }
  lo = count == 0 ? value : std::min(lo, value);
  hi = count == 0 ? value : std::max(hi, value);
  ++count;
}

TickSet resolve_axis(const Axis& axis, const Extent& extent, int max_intervals) {
  if (!axis.categories.empty()) {
    TickSet set;
    set.lo = -0.5;
    set.hi = static_cast<double>(axis.categories.size()) - 0.5;
    for (size_t i = 0; i < axis.categories.size(); ++i) {
      set.ticks.push_back({static_cast<double>(i), axis.categories[i], true});
    }
    return set;
  }

  const ScaleKind kind = axis.scale;
  const Scale probe(kind, 1, 2, 0, 1);  // only for drawable(): the range does not matter here
  const std::optional<double> fixed_min =
      axis.min && probe.drawable(*axis.min) && !(kind == ScaleKind::nines && *axis.min >= 100) ? axis.min
                                                                                               : std::nullopt;
  const std::optional<double> fixed_max = axis.max && probe.drawable(*axis.max) ? axis.max : std::nullopt;

  Extent data = extent;
  if (!axis.ticks.empty()) {
    for (const double t : axis.ticks) {
      data.add(t, kind);
    }
  }
  double lo = 0;
  double hi = 0;
  if (data.count == 0) {
    lo = kind == ScaleKind::log10 ? 1 : 0;
    hi = kind == ScaleKind::log10 ? 10 : (kind == ScaleKind::nines ? 90 : 1);
  } else {
    lo = data.lo;
    hi = data.hi;
  }
  if (kind == ScaleKind::linear && axis.include_zero) {
    lo = std::min(lo, 0.0);
    hi = std::max(hi, 0.0);
  }
  lo = fixed_min.value_or(lo);
  hi = fixed_max.value_or(hi);
  if (lo > hi) {
    std::swap(lo, hi);
  }

  TickSet set;
  if (!axis.ticks.empty()) {
    // Pad the hull by 4 % of its span in t (equal ratios on log10) unless an end is fixed; a
    // zero-width hull gets half a decade (log10) or 10 % of the value (linear).
    Scale unit(kind, lo, hi, 0, 1);
    const double t_lo = kind == ScaleKind::log10 ? std::log10(lo) : lo;
    const double t_hi = kind == ScaleKind::log10 ? std::log10(hi) : hi;
    double pad = 0;  // nines: the hull itself (its ends are whole nines in practice)
    if (kind != ScaleKind::nines) {
      pad = t_hi > t_lo ? 0.04 * (t_hi - t_lo) : (kind == ScaleKind::log10 || lo == 0 ? 0.5 : 0.1 * std::fabs(lo));
    }
    const auto untransform = [&](double t) { return kind == ScaleKind::log10 ? std::pow(10.0, t) : t; };
    set.lo = fixed_min ? lo : untransform(t_lo - pad);
    set.hi = fixed_max ? hi : untransform(t_hi + pad);
    for (Tick& tick : explicit_ticks(axis.ticks, axis.label_style)) {
      if (unit.drawable(tick.value) && tick.value >= set.lo && tick.value <= set.hi) {
        set.ticks.push_back(std::move(tick));
      }
    }
    return set;
  }

  switch (kind) {
    case ScaleKind::linear:
      set = linear_ticks(lo, hi, max_intervals, true, axis.label_style);
      break;
    case ScaleKind::log10:
      set = log10_ticks(lo, hi, true, axis.label_style);
      break;
    case ScaleKind::nines:
      set = nines_ticks(lo, std::min(hi, k_nines_cap_percent));
      break;
  }
  if (fixed_min) {
    set.lo = *fixed_min;
  }
  if (fixed_max) {
    set.hi = *fixed_max;
  }
  // A relative slack keeps a tick that equals a fixed end despite rounding (99.9 vs 99.9000..1).
  const double slack = 1e-9 * std::max(std::fabs(set.lo), std::fabs(set.hi));
  std::erase_if(set.ticks, [&](const Tick& t) { return t.value < set.lo - slack || t.value > set.hi + slack; });
  return set;
}

}  // namespace ptsuite::report::chart
