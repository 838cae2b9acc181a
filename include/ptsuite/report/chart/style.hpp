// Contract: the fixed visual vocabulary of every chart: series looks, the sequential colour
// ramp of heat-maps and the text-width estimate used for layout. Pure, constant data.
//
// Series looks combine three channels so that series stay distinguishable for colour-blind
// readers AND in greyscale print: colour from the Okabe-Ito palette (designed for the common
// colour-vision deficiencies; its yellow is replaced by a darker olive that reads on white),
// a dash pattern (4 kinds) and a marker shape (8 kinds). Look i uses colour i % 8, dash i % 4
// and marker i % 8, so looks 0..7 differ in colour and marker, and in dash for i % 4.
//
// The heat ramp runs from dark blue through teal and green to pale yellow with strictly
// increasing relative luminance, so a cell's shade still orders the values in greyscale.
//
// Text width: no font is loaded or measured (the SVG names only generic families), so layout
// uses a conservative estimate of 0.6 em per character for sans-serif.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace ptsuite::report::chart {

enum class MarkerShape { circle, square, triangle_up, diamond, triangle_down, cross, plus, pentagon };

struct SeriesLook {
  std::string_view colour;  // "#rrggbb"
  std::string_view dash;    // SVG stroke-dasharray, "" for solid
  MarkerShape marker;
};

inline constexpr size_t k_palette_size = 8;

SeriesLook series_look(size_t index) noexcept;

// The colour at `fraction` in [0, 1] of the heat ramp (clamped), "#rrggbb".
std::string heat_colour(double fraction);
// `hex_colour` mixed toward white (amount > 0) or black (amount < 0), |amount| <= 1: the
// lit and shaded faces of 3D bars.
std::string shade(std::string_view hex_colour, double amount);
// WCAG relative luminance of "#rrggbb", 0 (black) .. 1 (white).
double relative_luminance(std::string_view hex_colour);

// Estimated width in px of `text` at `font_size_px` (UTF-8 continuation bytes not counted).
double text_width_px(std::string_view text, double font_size_px) noexcept;

inline constexpr std::string_view k_font_family = "DejaVu Sans, Arial, Helvetica, sans-serif";
inline constexpr std::string_view k_text_colour = "#222222";
inline constexpr std::string_view k_axis_colour = "#333333";
inline constexpr std::string_view k_grid_major_colour = "#d4d4d4";
inline constexpr std::string_view k_grid_minor_colour = "#eeeeee";
inline constexpr std::string_view k_reference_colour = "#444444";

}  // namespace ptsuite::report::chart
