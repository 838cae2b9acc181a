#include <ptsuite/report/chart/ticks.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <cmath>

namespace ptsuite::report::chart {

namespace {

// Relative slack for "is this (almost) a whole number of steps": tick values are computed as
// k * step in floating point, so hi / step may come out as 4.999999999 instead of 5.
constexpr double k_eps = 1e-9;
constexpr int k_max_decimals = 6;

// 10^e, correctly rounded for |e| <= 22 (powers of ten up to 1e22 are exact doubles, and one
// division by an exact value is correctly rounded), so 0.1, 0.001 ... are the doubles that
// the literals denote and labels never show 0.30000000000000004.
constexpr std::array<double, 23> k_exact_powers_of_ten = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                                          1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                                          1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

double pow10(int e) {
  if (e < 0) {
    return 1.0 / pow10(-e);
  }
  return e < static_cast<int>(k_exact_powers_of_ten.size()) ? k_exact_powers_of_ten[static_cast<size_t>(e)]
                                                            : std::pow(10.0, e);
}

// m * 10^e without going through a rounded 10^e for negative e: (k*m) / 10^-e.
double scaled(double m, int e) { return e >= 0 ? m * pow10(e) : m / pow10(-e); }

// Smallest number of decimals d (<= k_max_decimals) such that `resolution` is a whole number
// of 10^-d units, i.e. labels written with d decimals tell neighbouring ticks apart.
int decimals_for(double resolution) {
  resolution = std::fabs(resolution);
  if (!std::isfinite(resolution) || resolution == 0) {
    return 0;
  }
  for (int d = 0; d < k_max_decimals; ++d) {
    const double units = resolution * pow10(d);
    if (std::fabs(units - std::round(units)) <= 1e-6 * std::max(1.0, units)) {
      return d;
    }
  }
  return k_max_decimals;
}

// Fixed-point with `decimals`, trailing zeros (and a bare '.') dropped, "-0" written "0".
std::string fixed_trimmed(double value, int decimals) {
  std::string text = fmt::format("{:.{}f}", value, decimals);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') {
      text.pop_back();
    }
    if (text.back() == '.') {
      text.pop_back();
    }
  }
  if (text == "-0") {
    text = "0";
  }
  return text;
}

// m e x with m in [1, 10): "1e-4", "2.5e-5", "1e21".
std::string exponent_form(double value, double resolution, int max_decimals) {
  int exponent = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  double mantissa = value / pow10(exponent);
  int decimals = std::min(max_decimals, decimals_for(resolution / pow10(exponent)));
  if (std::fabs(std::round(mantissa * pow10(decimals))) >= 10 * pow10(decimals)) {
    ++exponent;  // 9.9996 rounded to 3 decimals is 10.000: renormalise
    mantissa = value / pow10(exponent);
    decimals = std::min(max_decimals, decimals_for(resolution / pow10(exponent)));
  }
  return fixed_trimmed(mantissa, decimals) + "e" + std::to_string(exponent);
}

constexpr std::array<const char*, 7> k_si_prefixes = {"", "k", "M", "G", "T", "P", "E"};

// The prefix group (0 = none, 1 = k, ...) for |value| >= 1: floor(log10|v| / 3).
int si_group(double magnitude) {
  if (magnitude < 1000) {
    return 0;
  }
  const int group = static_cast<int>(std::floor(std::log10(magnitude) / 3 + k_eps));
  return std::min<int>(group, static_cast<int>(k_si_prefixes.size()) - 1);
}

}  // namespace

std::string format_si(double value, double resolution) {
  if (!std::isfinite(value)) {
    return value > 0 ? "inf" : (value < 0 ? "-inf" : "nan");
  }
  const double magnitude = std::fabs(value);
  if (magnitude == 0) {
    return "0";
  }
  if (magnitude < 1e-3 || magnitude >= 1e21) {
    return exponent_form(value, resolution, 3);
  }
  const int group = si_group(magnitude);
  const double unit = pow10(3 * group);
  return fixed_trimmed(value / unit, decimals_for(resolution / unit)) + k_si_prefixes[static_cast<size_t>(group)];
}

std::string format_plain(double value, double resolution) {
  if (!std::isfinite(value)) {
    return value > 0 ? "inf" : (value < 0 ? "-inf" : "nan");
  }
  const double magnitude = std::fabs(value);
  if (magnitude != 0 && (magnitude < 1e-6 || magnitude >= 1e15)) {
    return exponent_form(value, resolution, 3);
  }
  return fixed_trimmed(value, decimals_for(resolution));
}

std::string format_bytes_binary(double bytes) {
  if (!std::isfinite(bytes) || bytes <= 0) {
    return format_plain(bytes, 1);
  }
  // 512 B and up are written in KiB: the PTS writes its smallest block size as "0.5 KiB".
  struct Unit {
    double size;
    const char* name;
  };
  constexpr std::array<Unit, 4> k_units = {
      {{1099511627776.0, "TiB"}, {1073741824.0, "GiB"}, {1048576.0, "MiB"}, {1024.0, "KiB"}}};
  for (const Unit& unit : k_units) {
    if (bytes >= unit.size || (unit.size == 1024.0 && bytes >= 512)) {
      return fixed_trimmed(bytes / unit.size, 3) + unit.name;
    }
  }
  return fixed_trimmed(bytes, 0) + "B";
}

std::string format_value(double value, int significant) {
  if (!std::isfinite(value)) {
    return format_si(value, 1);
  }
  const double magnitude = std::fabs(value);
  if (magnitude == 0) {
    return "0";
  }
  significant = std::clamp(significant, 1, 15);
  if (magnitude < 1e-3 || magnitude >= 1e21) {
    return exponent_form(value, pow10(static_cast<int>(std::floor(std::log10(magnitude))) - significant + 1),
                         significant - 1);
  }
  int group = si_group(magnitude);
  for (;;) {
    const double scaled_value = value / pow10(3 * group);
    const int digits_before = static_cast<int>(std::floor(std::log10(std::fabs(scaled_value)) + k_eps)) + 1;
    const int decimals = std::max(0, significant - digits_before);
    const double rounded = std::round(scaled_value * pow10(decimals)) / pow10(decimals);
    // 999.7 with 3 significant digits rounds to 1000: write it as "1k", not "1000".
    if (std::fabs(rounded) >= 1000 && group + 1 < static_cast<int>(k_si_prefixes.size())) {
      ++group;
      continue;
    }
    return fixed_trimmed(scaled_value, decimals) + k_si_prefixes[static_cast<size_t>(group)];
  }
}

std::string format_tick(double value, double resolution, LabelStyle style) {
  switch (style) {
    case LabelStyle::plain:
      return format_plain(value, resolution);
    case LabelStyle::bytes_binary:
      return format_bytes_binary(value);
    case LabelStyle::percent:
      return format_plain(value, resolution) + "%";
    case LabelStyle::si:
      break;
  }
  return format_si(value, resolution);
}

// Candidates m * 10^e, m in {1, 2, 5}, in increasing order starting one decade below
// range / max_intervals (no step smaller than that can cover the range in max_intervals).
// The widened range needs ceil(hi/s) - floor(lo/s) intervals, which is at most
// (hi - lo)/s + 2, so the search ends within about two decades.
double nice_linear_step(double lo, double hi, int max_intervals) {
  max_intervals = std::max(1, max_intervals);
  // hi/n - lo/n instead of (hi - lo)/n: no overflow for ranges near the double limits.
  const double raw = hi / max_intervals - lo / max_intervals;
  if (!(raw > 0) || !std::isfinite(raw)) {
    return 1;
  }
  int e = static_cast<int>(std::floor(std::log10(raw))) - 1;
  for (int guard = 0; guard < 40; ++e, ++guard) {
    for (const double m : {1.0, 2.0, 5.0}) {
      const double step = scaled(m, e);
      const double intervals = std::ceil(hi / step - k_eps) - std::floor(lo / step + k_eps);
      if (intervals <= max_intervals) {
        return step;
      }
    }
  }
  return raw * max_intervals;  // unreachable for finite input; keeps the function total
}

TickSet linear_ticks(double lo, double hi, int max_intervals, bool widen, LabelStyle style) {
  if (lo > hi) {
    std::swap(lo, hi);
  }
  if (lo == hi) {
    const double pad = lo == 0 ? 0.5 : std::fabs(lo) * 0.1;
    lo = lo == 0 ? 0 : lo - pad;
    hi = hi == 0 ? 1 : hi + pad;
  }
  const double step = nice_linear_step(lo, hi, max_intervals);
  // Recover step = m * 10^e exactly so that each tick is computed as (k*m) * 10^e or
  // (k*m) / 10^-e with a single rounding.
  const int e = static_cast<int>(std::floor(std::log10(step) + k_eps));
  const double m = std::round(step / pow10(e));
  auto k_lo = static_cast<long long>(std::floor(lo / step + k_eps));
  auto k_hi = static_cast<long long>(std::ceil(hi / step - k_eps));
  TickSet set;
  if (widen) {
    set.lo = scaled(static_cast<double>(k_lo) * m, e);
    set.hi = scaled(static_cast<double>(k_hi) * m, e);
  } else {
    set.lo = lo;
    set.hi = hi;
    k_lo = static_cast<long long>(std::ceil(lo / step - k_eps));
    k_hi = static_cast<long long>(std::floor(hi / step + k_eps));
  }
  for (long long k = k_lo; k <= k_hi && set.ticks.size() < 200; ++k) {
    const double value = scaled(static_cast<double>(k) * m, e);
    set.ticks.push_back({value, format_tick(value, step, style), true});
  }
  return set;
}

TickSet log10_ticks(double lo, double hi, bool widen, LabelStyle style) {
  if (lo > hi) {
    std::swap(lo, hi);
  }
  if (!(lo > 0)) {
    lo = hi > 0 ? hi / 10 : 1;
    hi = std::max(hi, lo);
  }
  auto d_lo = static_cast<int>(std::floor(std::log10(lo) + k_eps));
  auto d_hi = static_cast<int>(std::ceil(std::log10(hi) - k_eps));
  if (d_hi <= d_lo) {
    d_hi = d_lo + 1;  // at least one whole decade, so there are two labelled ticks
  }
  // Major step in decades: smallest of 1, 2, 3, 5, 10, 20, 50, ... with at most 8 aligned
  // intervals (major decades are multiples of the step: 1e0, 1e2, 1e4 rather than 1e1, 1e3).
  int step = 1;
  for (const int candidate : {1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000}) {
    step = candidate;
    const int aligned_lo = static_cast<int>(std::floor(static_cast<double>(d_lo) / step)) * step;
    const int aligned_hi = static_cast<int>(std::ceil(static_cast<double>(d_hi) / step)) * step;
    if ((aligned_hi - aligned_lo) / step <= 8) {
      break;
    }
  }
  TickSet set;
  if (widen) {
    if (step > 1) {
      d_lo = static_cast<int>(std::floor(static_cast<double>(d_lo) / step)) * step;
      d_hi = static_cast<int>(std::ceil(static_cast<double>(d_hi) / step)) * step;
    }
    set.lo = pow10(d_lo);
    set.hi = pow10(d_hi);
    if (d_hi - d_lo <= 3) {
      // Few decades: pull each end in to the nearest 1, 2 or 5 x 10^k that still holds the
      // data (those values are labelled), so that no near-empty decade is drawn.
      for (const double m : {5.0, 2.0}) {
        if (scaled(m, d_lo) <= lo * (1 + k_eps)) {
          set.lo = scaled(m, d_lo);
          break;
        }
      }
      for (const double m : {2.0, 5.0}) {
        if (scaled(m, d_hi - 1) >= hi * (1 - k_eps)) {
          set.hi = scaled(m, d_hi - 1);
          break;
        }
      }
    }
  } else {
    set.lo = lo;
    set.hi = hi;
  }
  const int decades = d_hi - d_lo;
  const bool labelled_minors = step == 1 && decades <= 3;
  const bool grid_minors = step == 1 && decades <= 6;
  const auto inside = [&](double v) { return v >= set.lo * (1 - k_eps) && v <= set.hi * (1 + k_eps); };
  for (int d = d_lo; d <= d_hi; ++d) {
    const double decade = pow10(d);
    if (d % step == 0 && inside(decade)) {
      set.ticks.push_back({decade, format_tick(decade, decade, style), true});
    }
    if (!grid_minors || d == d_hi) {
      continue;
    }
    for (int m = 2; m <= 9; ++m) {
      const double value = scaled(m, d);
      if (!inside(value)) {
        continue;
      }
      const bool labelled = labelled_minors && (m == 2 || m == 5);
      set.ticks.push_back({value, labelled ? format_tick(value, decade, style) : std::string(), false});
    }
  }
  return set;
}

TickSet nines_ticks(double lo_percent, double hi_percent) {
  // t = -log10(1 - p/100): 0 % -> 0, 90 % -> 1, 99 % -> 2, 99.9 % -> 3, ...
  const auto nines = [](double p) { return -std::log10(1 - std::clamp(p, 0.0, 99.9999999999) / 100); };
  const int t_lo = std::max(0, static_cast<int>(std::floor(nines(lo_percent) + k_eps)));
  const int t_hi = std::clamp(static_cast<int>(std::floor(nines(hi_percent) + k_eps)) + 1, t_lo + 1, 9);
  TickSet set;
  set.lo = 100 * (1 - pow10(-t_lo));
  set.hi = 100 * (1 - pow10(-t_hi));
  for (int t = t_lo; t <= t_hi; ++t) {
    // 100 (1 - 10^-t) has t - 2 decimals: 99.9 (t = 3), 99.999 (t = 5).
    const double value = 100 * (1 - pow10(-t));
    set.ticks.push_back({value, fixed_trimmed(value, std::max(0, t - 2)) + "%", true});
  }
  return set;
}

std::vector<Tick> explicit_ticks(const std::vector<double>& values, LabelStyle style) {
  std::vector<double> sorted;
  for (const double v : values) {
    if (std::isfinite(v)) {
      sorted.push_back(v);
    }
  }
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  // Explicit positions need not be a regular step, so each is written on its own: up to 4
  // significant digits (SI), 6 decimals (plain, percent), or exact binary units (bytes).
  std::vector<Tick> ticks;
  for (const double v : sorted) {
    std::string label;
    switch (style) {
      case LabelStyle::si:
        label = format_value(v, 4);
        break;
      case LabelStyle::plain:
        label = fixed_trimmed(v, k_max_decimals);
        break;
      case LabelStyle::percent:
        label = fixed_trimmed(v, k_max_decimals) + "%";
        break;
      case LabelStyle::bytes_binary:
        label = format_bytes_binary(v);
        break;
    }
    ticks.push_back({v, std::move(label), true});
  }
  return ticks;
}

}  // namespace ptsuite::report::chart
