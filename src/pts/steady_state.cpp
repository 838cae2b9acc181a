#include <ptsuite/pts/steady_state.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <type_traits>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_member.hpp>

namespace ptsuite::pts {

namespace {

using nlohmann::json;

// Why k_limit_relative_tolerance = 1e-9 is enough and harmless:
//   * enough: average, fit and excursions each come from a handful of correctly rounded
//     operations on doubles (53 bits, relative rounding 2^-53 ~ 1.1e-16); sums over a window of
//     n points add at most n roundings. Even a 1000-round window accumulates well under
//     1e-12 relative error, so inputs exactly at a limit cannot be pushed past 1e-9.
//   * harmless: reports print tracking values with at most 4-6 significant digits, and an
//     excursion 1e-9 above the limit is 10^5 times finer than any printed digit, so no
//     meaningful "fail" turns into a pass.
bool within(double measured, double allowed) {
  return measured <= allowed + k_limit_relative_tolerance * std::fabs(allowed);
}

// pct % of avg as pct * avg / 100: for whole percentages and averages the product is exact and
// only the division rounds (20 * 100 / 100 is exactly 20). Where the double product overflows
// (avg near 1e308) it is formed in long double, whose range holds it.
double percent_of(double pct, double avg) {
  const double product = pct * avg;
  if (std::isfinite(product)) {
    return product / 100;
  }
  return static_cast<double>(static_cast<long double>(pct) * static_cast<long double>(avg) / 100);
}

void validate_criteria(const SteadyStateCriteria& c) {
  if (c.window_rounds < 2) {
    throw UsageError("window_rounds", fmt::format("{} is too small: a slope needs at least 2 rounds", c.window_rounds));
  }
  if (!std::isfinite(c.data_excursion_pct) || c.data_excursion_pct < 0) {
    throw UsageError("data_excursion_pct", fmt::format("{} is not a percentage >= 0", c.data_excursion_pct));
  }
  if (!std::isfinite(c.slope_excursion_pct) || c.slope_excursion_pct < 0) {
    throw UsageError("slope_excursion_pct", fmt::format("{} is not a percentage >= 0", c.slope_excursion_pct));
  }
}

void validate_series(std::span<const uint32_t> rounds, std::span<const double> values) {
  if (rounds.size() != values.size()) {
    throw UsageError("rounds", fmt::format("{} rounds for {} values: each value needs its round number", rounds.size(),
                                           values.size()));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i]) || values[i] < 0) {
      throw UsageError("values", fmt::format("value {} of round {} is not a finite number >= 0 (tracking "
                                             "variables are IOPS, MB/s or response times)",
                                             values[i], rounds[i]));
    }
    if (i > 0 && rounds[i] <= rounds[i - 1]) {
      throw UsageError("rounds",
                       fmt::format("round {} follows round {}: round numbers must increase", rounds[i], rounds[i - 1]));
    }
  }
}

std::string trim_zeros(std::string s) {
  if (s.find('.') == std::string::npos) {
    return s;
  }
  while (s.back() == '0') {
    s.pop_back();
  }
  if (s.back() == '.') {
    s.pop_back();
  }
  return s;
}

// nlohmann's get<uint32_t>() would wrap -1 or 2^40 silently.
uint32_t as_u32(const json& v, const std::string& where) {
  const bool fits = v.is_number_unsigned() ? v.get<uint64_t>() <= std::numeric_limits<uint32_t>::max()
                                           : v.is_number_integer() && v.get<int64_t>() >= 0 &&
                                                 v.get<int64_t>() <= std::numeric_limits<uint32_t>::max();
  if (!fits) {
    throw UsageError(where,
                     fmt::format("{} is not an integer in 0..{}", v.dump(), std::numeric_limits<uint32_t>::max()));
  }
  return static_cast<uint32_t>(v.get<uint64_t>());
}

template <typename T>
T get_as(const json& j, const char* key, const std::string& where) {
  const json& v = required_member(j, key, where);
  const std::string name = where + "." + key;
  if constexpr (std::is_same_v<T, uint32_t>) {
    return as_u32(v, name);
  } else if constexpr (std::is_same_v<T, std::vector<uint32_t>>) {
    if (!v.is_array()) {
      throw UsageError(name, fmt::format("expected an array, got {}", v.dump()));
    }
    T out;
    for (size_t i = 0; i < v.size(); ++i) {
      out.push_back(as_u32(v[i], fmt::format("{}[{}]", name, i)));
    }
    return out;
  } else {
    try {
      return v.get<T>();
    } catch (const json::exception&) {
      throw UsageError(name, fmt::format("unexpected value {}", v.dump()));
    }
  }
}

}  // namespace

// The reference gives the least-squares line through (x_i, y_i), i = 1..n, as
//     slope     = (n*Sxy - Sx*Sy) / (n*Sxx - Sx^2)
//     intercept = (Sy*Sxx - Sx*Sxy) / (n*Sxx - Sx^2)
// with Sx = sum x, Sy = sum y, Sxx = sum x^2, Sxy = sum x*y. Dividing numerator and denominator
// by n and writing xm = Sx/n, ym = Sy/n gives the same line in centred form:
//     slope     = sum((x - xm) * (y - ym)) / sum((x - xm)^2)
//     intercept = ym - slope * xm
// which never subtracts two large, nearly equal sums (the raw-sum form does for IOPS ~ 10^5 or
// long windows), so it is the one computed here, in long double.
LinearFit least_squares_fit(std::span<const uint32_t> rounds, std::span<const double> values) {
  validate_series(rounds, values);
  const size_t n = rounds.size();
  if (n < 2 || rounds.front() == rounds.back()) {
    throw UsageError("rounds", "a least-squares line needs at least 2 distinct rounds");
  }
  long double sum_x = 0;
  long double sum_y = 0;
  for (size_t i = 0; i < n; ++i) {
    sum_x += rounds[i];
    sum_y += values[i];
  }
  const long double x_mean = sum_x / static_cast<long double>(n);
  const long double y_mean = sum_y / static_cast<long double>(n);
  long double s_xx = 0;
  long double s_xy = 0;
  for (size_t i = 0; i < n; ++i) {
    const long double dx = static_cast<long double>(rounds[i]) - x_mean;
    s_xx += dx * dx;
    s_xy += dx * (static_cast<long double>(values[i]) - y_mean);
  }
  const long double slope = s_xy / s_xx;
  return LinearFit{static_cast<double>(slope), static_cast<double>(y_mean - slope * x_mean)};
}

// Decimals = max(2, 4 - 1 - floor(log10|v|)), i.e. at least 4 significant digits and at least
// 2 decimals (capped at 12), then trailing zeros trimmed: 11726.8, 2345.36, 25.6, 0.001234.
std::string format_number(double value) {
  if (value == 0 || !std::isfinite(value)) {
    return value == 0 ? "0" : fmt::format("{}", value);
  }
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  const int decimals = std::clamp(3 - magnitude, 2, 12);
  std::string s = trim_zeros(fmt::format("{:.{}f}", value, decimals));
  return s == "-0" ? "0" : s;
}

std::string format_fit(const LinearFit& fit) {
  const std::string intercept = format_number(std::fabs(fit.intercept));
  const bool negative = fit.intercept < 0 && intercept != "0";
  return fmt::format("{}*R {} {}", format_number(fit.slope), negative ? '-' : '+', intercept);
}

SteadyStateVerdict evaluate_window(std::string_view tracking_variable, std::span<const uint32_t> rounds,
                                   std::span<const double> values, const SteadyStateCriteria& criteria) {
  validate_criteria(criteria);
  validate_series(rounds, values);
  SteadyStateVerdict v;
  v.tracking_variable = std::string(tracking_variable);
  v.criteria = criteria;
  const size_t w = criteria.window_rounds;
  const size_t first = rounds.size() > w ? rounds.size() - w : 0;
  v.window_rounds.assign(rounds.begin() + static_cast<std::ptrdiff_t>(first), rounds.end());
  v.window_values.assign(values.begin() + static_cast<std::ptrdiff_t>(first), values.end());
  if (!v.window_rounds.empty()) {
    v.window_first_round = v.window_rounds.front();
    v.window_last_round = v.window_rounds.back();
  }
  if (rounds.size() < w) {
    v.note = fmt::format("{} round{} measured; the steady-state window needs {}", rounds.size(),
                         rounds.size() == 1 ? "" : "s", w);
    return v;
  }

  long double sum = 0;
  for (const double y : v.window_values) {
    sum += y;
  }
  v.average = static_cast<double>(sum / static_cast<long double>(w));
  const LinearFit fit = least_squares_fit(v.window_rounds, v.window_values);
  v.slope = fit.slope;
  v.intercept = fit.intercept;
  v.fit_formula = format_fit(fit);

  const auto [lo, hi] = std::minmax_element(v.window_values.begin(), v.window_values.end());
  v.data_excursion = *hi - *lo;
  v.allowed_data_excursion = percent_of(criteria.data_excursion_pct, v.average);
  // The line's range over the window: it is monotone, so highest - lowest is the difference
  // of its ends, |slope| * (x_last - x_first) = |slope| * (n - 1) for consecutive rounds.
  v.slope_excursion = std::fabs(v.slope) * static_cast<double>(v.window_last_round - v.window_first_round);
  v.allowed_slope_excursion = percent_of(criteria.slope_excursion_pct, v.average);
  v.data_ok = within(v.data_excursion, v.allowed_data_excursion);
  v.slope_ok = within(v.slope_excursion, v.allowed_slope_excursion);
  v.attained = v.data_ok && v.slope_ok;
  // Values near the double range (1e308) must never judge as steady through an infinite limit.
  for (const double x : {v.average, v.data_excursion, v.allowed_data_excursion, v.slope_excursion,
                         v.allowed_slope_excursion, v.slope, v.intercept}) {
    if (!std::isfinite(x)) {
      v.attained = v.data_ok = v.slope_ok = false;
      v.note = "the window's values are too large to judge in double precision";
    }
  }
  return v;
}

std::optional<SteadyStateVerdict> first_attained_window(std::string_view tracking_variable,
                                                        std::span<const uint32_t> rounds,
                                                        std::span<const double> values,
                                                        const SteadyStateCriteria& criteria) {
  validate_criteria(criteria);
  validate_series(rounds, values);
  for (size_t end = criteria.window_rounds; end <= rounds.size(); ++end) {
    SteadyStateVerdict v = evaluate_window(tracking_variable, rounds.first(end), values.first(end), criteria);
    if (v.attained) {
      return v;
    }
  }
  return std::nullopt;
}

SteadyStateResult evaluate_all(std::span<const TrackingSeries> series, const SteadyStateCriteria& criteria) {
  SteadyStateResult result;
  result.attained = !series.empty();
  for (const TrackingSeries& s : series) {
    result.variables.push_back(evaluate_window(s.name, s.rounds, s.values, criteria));
    result.attained = result.attained && result.variables.back().attained;
  }
  return result;
}

std::string format_verdict_text(const SteadyStateVerdict& v) {
  const SteadyStateCriteria& c = v.criteria;
  std::string out =
      fmt::format("Steady state: {}\n", v.tracking_variable.empty() ? "tracking variable" : v.tracking_variable);
  out += fmt::format(
      "  rule             last {} rounds: max - min <= {}% and |slope| x (rounds - 1) <= {}% of the average\n",
      c.window_rounds, format_number(c.data_excursion_pct), format_number(c.slope_excursion_pct));
  if (v.window_rounds.empty()) {
    out += "  window           (no rounds)\n";
  } else {
    out += fmt::format("  window           rounds {}-{}\n", v.window_first_round, v.window_last_round);
    out += fmt::format("  {:>8}  {:>14}\n", "round", "value");
    for (size_t i = 0; i < v.window_rounds.size(); ++i) {
      out += fmt::format("  {:>8}  {:>14}\n", v.window_rounds[i], format_number(v.window_values[i]));
    }
  }
  if (!v.note.empty()) {
    out += fmt::format("  note             {}\n", v.note);
  }
  if (v.window_rounds.size() >= c.window_rounds && c.window_rounds >= 2) {
    out += fmt::format("  average          {}\n", format_number(v.average));
    out += fmt::format("  fit              {}\n", v.fit_formula);
    out += fmt::format("  {:<16} {:>14}  {:>14}  {}\n", "", "measured", "allowed", "result");
    out += fmt::format("  {:<16} {:>14}  {:>14}  {}\n", "data excursion", format_number(v.data_excursion),
                       format_number(v.allowed_data_excursion), v.data_ok ? "pass" : "FAIL");
    out += fmt::format("  {:<16} {:>14}  {:>14}  {}\n", "slope excursion", format_number(v.slope_excursion),
                       format_number(v.allowed_slope_excursion), v.slope_ok ? "pass" : "FAIL");
  }
  out += fmt::format("  steady state     {}\n", v.attained ? "ATTAINED" : "NOT ATTAINED");
  return out;
}

results::SteadyStateCriteriaRecord record_of(const SteadyStateCriteria& c) {
  return {c.window_rounds, c.data_excursion_pct, c.slope_excursion_pct};
}

results::SteadyStateVerdictRecord record_of(const SteadyStateVerdict& v) {
  results::SteadyStateVerdictRecord r;
  r.tracking_variable = v.tracking_variable;
  r.criteria = record_of(v.criteria);
  r.window_first_round = v.window_first_round;
  r.window_last_round = v.window_last_round;
  r.window_rounds = v.window_rounds;
  r.window_values = v.window_values;
  r.average = v.average;
  r.slope = v.slope;
  r.intercept = v.intercept;
  r.fit_formula = v.fit_formula;
  r.data_excursion = {v.data_excursion, v.allowed_data_excursion, v.data_ok};
  r.slope_excursion = {v.slope_excursion, v.allowed_slope_excursion, v.slope_ok};
  r.attained = v.attained;
  r.note = v.note;
  // The data-excursion band drawn on the measurement-window plot: the average +- half the
  // allowed data excursion (90 % .. 110 % of the average with the PTS 20 %), so that reports
  // show these values without computing them. Not read back by from_json (derived).
  const double half_pct = v.criteria.data_excursion_pct / 2;
  r.band = {v.average - v.allowed_data_excursion / 2, v.average + v.allowed_data_excursion / 2, 100 - half_pct,
            100 + half_pct};
  return r;
}

results::SteadyStateVerdicts record_of(const SteadyStateResult& result) {
  results::SteadyStateVerdicts out;
  out.attained = result.attained;
  for (const SteadyStateVerdict& v : result.variables) {
    out.variables.push_back(record_of(v));
  }
  return out;
}

void to_json(json& j, const SteadyStateCriteria& c) { j = record_of(c); }

void from_json(const json& j, SteadyStateCriteria& c) {
  const std::string where = "steady-state criteria";
  c.window_rounds = get_as<uint32_t>(j, "window_rounds", where);
  c.data_excursion_pct = get_as<double>(j, "data_excursion_pct", where);
  c.slope_excursion_pct = get_as<double>(j, "slope_excursion_pct", where);
}

void to_json(json& j, const SteadyStateVerdict& v) { j = record_of(v); }

void from_json(const json& j, SteadyStateVerdict& v) {
  const std::string where = "steady-state verdict";
  SteadyStateVerdict out;
  out.tracking_variable = get_as<std::string>(j, "tracking_variable", where);
  out.criteria = required_member(j, "criteria", where).get<SteadyStateCriteria>();
  const json& window = required_member(j, "window", where);
  const std::string w_where = where + ".window";
  out.window_first_round = get_as<uint32_t>(window, "first_round", w_where);
  out.window_last_round = get_as<uint32_t>(window, "last_round", w_where);
  out.window_rounds = get_as<std::vector<uint32_t>>(window, "rounds", w_where);
  out.window_values = get_as<std::vector<double>>(window, "values", w_where);
  if (out.window_rounds.size() != out.window_values.size()) {
    throw UsageError(w_where, "rounds and values differ in length");
  }
  out.average = get_as<double>(j, "average", where);
  const json& fit = required_member(j, "fit", where);
  out.slope = get_as<double>(fit, "slope", where + ".fit");
  out.intercept = get_as<double>(fit, "intercept", where + ".fit");
  out.fit_formula = get_as<std::string>(fit, "formula", where + ".fit");
  const json& data = required_member(j, "data_excursion", where);
  out.data_excursion = get_as<double>(data, "measured", where + ".data_excursion");
  out.allowed_data_excursion = get_as<double>(data, "allowed", where + ".data_excursion");
  out.data_ok = get_as<bool>(data, "ok", where + ".data_excursion");
  const json& slope = required_member(j, "slope_excursion", where);
  out.slope_excursion = get_as<double>(slope, "measured", where + ".slope_excursion");
  out.allowed_slope_excursion = get_as<double>(slope, "allowed", where + ".slope_excursion");
  out.slope_ok = get_as<bool>(slope, "ok", where + ".slope_excursion");
  out.attained = get_as<bool>(j, "attained", where);
  out.note = get_as<std::string>(j, "note", where);
  v = std::move(out);
}

void to_json(json& j, const SteadyStateResult& r) { j = record_of(r); }

void from_json(const json& j, SteadyStateResult& r) {
  const std::string where = "steady-state result";
  r.attained = get_as<bool>(j, "attained", where);
  const json& vars = required_member(j, "variables", where);
  if (!vars.is_array()) {
    throw UsageError(where + ".variables", "expected an array");
  }
  r.variables.clear();
  for (const json& v : vars) {
    r.variables.push_back(v.get<SteadyStateVerdict>());
  }
}

}  // namespace ptsuite::pts
