// Contract: low-level SVG text output for the chart renderers: escaping, fixed number
// formatting and an append-only document builder. Nothing here knows about axes or data.
//
// Determinism: numbers are written by svg_number() with at most 2 decimals (0.01 px is far
// below what any screen or printer resolves), trailing zeros dropped and -0 written as 0,
// through fmt (locale-independent). Attribute order is fixed by the code. So equal input
// gives byte-identical output on every machine with IEEE-754 doubles.
//
// Output: a standalone SVG 1.1 document fragment (<svg xmlns=...>...</svg>) that can be
// inlined in HTML5 or saved as a .svg file. The xmlns value is a namespace name, not a URL
// that anything fetches. No scripts, no external references, no <image>, no web fonts.
#pragma once

#include <string>
#include <string_view>

#include <ptsuite/report/chart/style.hpp>

namespace ptsuite::report::chart {

// Escapes & < > " ' for use in text content and double-quoted attribute values. Control
// characters other than tab/newline (invalid in XML 1.0) become U+FFFD.
std::string xml_escape(std::string_view text);
// "12.35", "3", "-0.5", "0": at most 2 decimals, locale-independent.
std::string svg_number(double value);
// Keeps [A-Za-z0-9_-]; prefixes "c" when the result would not start with a letter.
std::string sanitize_id(std::string_view id);

enum class Anchor { start, middle, end };

struct TextStyle {
  double size_px = 12;
  Anchor anchor = Anchor::start;
  bool bold = false;
  double rotate_deg = 0;  // about the text's own anchor point
  std::string_view fill = k_text_colour;
  bool halo = false;           // a white outline behind the glyphs: readable over lines and bars
  std::string_view css_class;  // optional class attribute
};

struct Stroke {
  std::string_view colour = k_axis_colour;
  double width_px = 1;
  std::string_view dash;  // stroke-dasharray, "" = solid
};

class SvgDocument {
 public:
  // Opens <svg> with width/height/viewBox and writes <title> (the accessible name).
  SvgDocument(double width_px, double height_px, std::string_view id, std::string_view title);

  void open_group(std::string_view css_class, std::string_view extra_attributes = {});
  void close_group();
  void line(double x1, double y1, double x2, double y2, const Stroke& stroke);
  void rect(double x, double y, double w, double h, std::string_view fill, const Stroke* stroke = nullptr,
            std::string_view css_class = {}, double fill_opacity = 1);
  // `d` is path data built with svg_number(); fill "none" for open paths.
  void path(std::string_view d, std::string_view fill, const Stroke* stroke, std::string_view css_class = {});
  void polygon(std::string_view points, std::string_view fill, const Stroke* stroke, std::string_view css_class = {});
  // A data marker; css_class "pt" marks data points (tests count them), legends pass "swatch".
  void marker(MarkerShape shape, double cx, double cy, double radius_px, std::string_view colour,
              std::string_view css_class = "pt");
  void text(double x, double y, std::string_view content, const TextStyle& style);
  // <title> child text for the enclosing group (hover text in browsers).
  void tooltip(std::string_view content);
  // Verbatim markup; the caller guarantees it is well-formed and escaped.
  void raw(std::string_view markup);

  [[nodiscard]] const std::string& id() const noexcept { return m_id; }
  // Closes open groups and </svg>; the document is complete after this.
  [[nodiscard]] std::string finish();

 private:
  std::string m_out;
  std::string m_id;
  int m_open_groups = 0;
};

}  // namespace ptsuite::report::chart
