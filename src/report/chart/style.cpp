#include <ptsuite/report/chart/style.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

namespace ptsuite::report::chart {

namespace {

// Okabe & Ito (2008), "Color Universal Design", in an order that puts the most distinct hues
// first; #F0E442 (yellow) is replaced by #8C7B00 (olive) for contrast on white paper.
constexpr std::array<std::string_view, k_palette_size> k_colours = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                                    "#E69F00", "#56B4E9", "#000000", "#8C7B00"};
constexpr std::array<std::string_view, 4> k_dashes = {"", "7 4", "2 3", "8 3 2 3"};
constexpr std::array<MarkerShape, k_palette_size> k_markers = {
    MarkerShape::circle,        MarkerShape::square, MarkerShape::triangle_up, MarkerShape::diamond,
    MarkerShape::triangle_down, MarkerShape::cross,  MarkerShape::plus,        MarkerShape::pentagon};

struct Rgb {
  double r, g, b;
};

// Heat ramp stops, dark to light (luminance rises monotonically; see the test).
constexpr std::array<Rgb, 6> k_ramp = {{{0x1d, 0x23, 0x5c},
                                        {0x2a, 0x4f, 0x8f},
                                        {0x1f, 0x85, 0x96},
                                        {0x3c, 0xae, 0x7a},
                                        {0xa6, 0xd1, 0x5a},
                                        {0xf6, 0xf0, 0x9c}}};

int hex_digit(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return 0;
}

}  // namespace

SeriesLook series_look(size_t index) noexcept {
  return {k_colours[index % k_colours.size()], k_dashes[index % k_dashes.size()], k_markers[index % k_markers.size()]};
}

std::string heat_colour(double fraction) {
  if (!std::isfinite(fraction)) {
    fraction = 0;
  }
  // Piecewise-linear interpolation between neighbouring stops in sRGB.
  const double pos = std::clamp(fraction, 0.0, 1.0) * static_cast<double>(k_ramp.size() - 1);
  const auto i = std::min(static_cast<size_t>(pos), k_ramp.size() - 2);
  const double f = pos - static_cast<double>(i);
  const auto mix = [f](double a, double b) { return static_cast<int>(std::lround(a + (b - a) * f)); };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(k_ramp[i].r, k_ramp[i + 1].r), mix(k_ramp[i].g, k_ramp[i + 1].g),
                     mix(k_ramp[i].b, k_ramp[i + 1].b));
}

std::string shade(std::string_view hex_colour, double amount) {
  if (hex_colour.size() != 7 || hex_colour[0] != '#') {
    return std::string(hex_colour);
  }
  amount = std::clamp(amount, -1.0, 1.0);
  const double target = amount > 0 ? 255 : 0;
  const auto channel = [&](size_t at) {
    const double c = hex_digit(hex_colour[at]) * 16 + hex_digit(hex_colour[at + 1]);
    return static_cast<int>(std::lround(c + (target - c) * std::fabs(amount)));
  };
  return fmt::format("#{:02x}{:02x}{:02x}", channel(1), channel(3), channel(5));
}

double relative_luminance(std::string_view hex_colour) {
  if (hex_colour.size() != 7 || hex_colour[0] != '#') {
    return 0;
  }
  // WCAG 2.x: linearise each sRGB channel, then weight 0.2126 R + 0.7152 G + 0.0722 B.
  const auto channel = [&](size_t at) {
    const double c = (hex_digit(hex_colour[at]) * 16 + hex_digit(hex_colour[at + 1])) / 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

double text_width_px(std::string_view text, double font_size_px) noexcept {
  size_t glyphs = 0;
  for (const char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++glyphs;
    }
  }
  return 0.6 * font_size_px * static_cast<double>(glyphs);
}

}  // namespace ptsuite::report::chart
