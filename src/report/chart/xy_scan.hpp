// Private to render_xy.cpp: the first pass over an x/y chart, before any scale exists. It
// finds the data extent of each axis and counts the values that cannot be drawn, by reason
// (the footnotes of docs/charts.md, "Edge cases"), and fingerprints the model for its id.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <ptsuite/report/chart/model.hpp>
#include <ptsuite/report/chart/scale.hpp>

namespace ptsuite::report::chart::detail {

struct SkipCounts {
  size_t non_finite = 0;
  size_t x_not_positive = 0;  // log10 x axis
  size_t y_not_positive = 0;  // log10 y axis
  size_t outside_domain = 0;  // nines outside [0, 100]; category index out of range

  // One footnote per non-zero count, e.g. "3 value(s) with y ≤ 0 not shown (log y axis)."
  [[nodiscard]] std::vector<std::string> notes() const;
};

struct XyScan {
  Extent x;  // on a category axis: the indices
  Extent y;
  SkipCounts skips;
  bool has_bars = false;  // bars or histogram bins: y extent includes 0 on a linear axis
};

XyScan scan_xy(const Chart& chart);

// Whether (x, y) can be placed on the chart's axis kinds; counts the reason when not.
bool placeable(const Chart& chart, double x, double y, SkipCounts& skips);

// A full text rendering of the model (every number in shortest round-trip form).
std::string fingerprint(const Chart& chart);

}  // namespace ptsuite::report::chart::detail
