// Contract: tick selection and tick-label formatting for chart axes. Pure functions,
// thread-safe, locale-independent (fmt, never printf/iostream locale). The rules are stated
// here and derived in ticks.cpp; docs/charts.md is the user-facing copy.
//
// Linear (linear_ticks): the step is the SMALLEST value of the 1-2-5 sequence
// (..., 0.1, 0.2, 0.5, 1, 2, 5, 10, ...) for which the range [lo, hi], widened outward to
// multiples of the step, spans at most `max_intervals` steps. Ticks are the multiples of the
// step inside the (widened, or fixed) range. A zero-width range is first widened: [0, 1] for
// 0, otherwise +-10 % of |value|.
//
// Log10 (log10_ticks): the range is widened outward to whole decades (at least one). Labelled
// major ticks sit on decades, every `decade_step` decades, where decade_step is the smallest
// of 1, 2, 3, 5, 10, 20, 50, ... that gives at most 8 major intervals. With at most 3 decades,
// 2x and 5x of each decade are also labelled, and each widened end is pulled back in to the
// nearest 1, 2 or 5 x 10^k that still holds the data ([17k, 200k] -> [10k, 200k], not
// [10k, 1M]); with at most 6, 2x..9x are unlabelled minor ticks (grid only).
//
// Nines (nines_ticks): positions t = -log10(1 - p/100); ticks at whole t (0 %, 90 %, 99 %,
// 99.9 %, ...), each labelled, from floor(t_lo) to floor(t_hi) + 1, capped at 9 nines. The
// "+ 1" leaves room above the largest finite value, where 100 % itself is drawn.
//
// Labels (format_tick): `resolution` is the spacing the label must resolve (the step for
// linear ticks, the tick's own decade for log ticks); the label shows just enough decimals
// for it, and trailing zeros are dropped.
#pragma once

#include <string>
#include <vector>

#include <ptsuite/report/chart/model.hpp>

namespace ptsuite::report::chart {

struct Tick {
  double value = 0;
  std::string label;  // empty for unlabelled minor ticks (grid lines only)
  bool major = true;  // major ticks get a full grid line, minor a faint one
};

// A resolved axis: the drawn range and its ticks, ascending by value.
struct TickSet {
  double lo = 0;
  double hi = 1;
  std::vector<Tick> ticks;
};

// The step rule above; max_intervals >= 1; lo <= hi, both finite.
double nice_linear_step(double lo, double hi, int max_intervals);
// `widen`: extend [lo, hi] to the enclosing multiples of the step (data ranges); false keeps
// a fixed range as given. Labels use `style`.
TickSet linear_ticks(double lo, double hi, int max_intervals, bool widen, LabelStyle style);
// Requires 0 < lo <= hi. `widen`: extend to whole decades.
TickSet log10_ticks(double lo, double hi, bool widen, LabelStyle style);
// Percent range [lo_percent, hi_percent], 0 <= lo <= hi < 100.
TickSet nines_ticks(double lo_percent, double hi_percent);

// Ticks at given positions (Axis::ticks), sorted, duplicates and non-finite values dropped.
// Each label stands alone: si -> 4 significant digits, plain/percent -> up to 6 decimals,
// bytes_binary -> exact binary units. The range is the caller's.
std::vector<Tick> explicit_ticks(const std::vector<double>& values, LabelStyle style);

std::string format_tick(double value, double resolution, LabelStyle style);
// Individual styles (format_tick dispatches to these):
std::string format_si(double value, double resolution);     // "10k", "1.5M", "0.5", "1e-4"
std::string format_plain(double value, double resolution);  // "1500", "0.25"
std::string format_bytes_binary(double bytes);              // "0.5KiB", "4KiB", "1MiB", "100B"
// A compact value with `significant` significant digits and SI prefix: 118234 -> "118k"
// (3 digits), 0.01234 -> "0.0123". Used for values printed inside cells and annotations.
std::string format_value(double value, int significant = 3);

}  // namespace ptsuite::report::chart
