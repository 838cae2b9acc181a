#include <ptsuite/report/chart/svg.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include <ptsuite/util/text.hpp>

namespace ptsuite::report::chart {

std::string xml_escape(std::string_view text) { return markup_escape(text, MarkupFlavor::svg); }

std::string svg_number(double value) {
  if (!std::isfinite(value)) {
    return "0";  // callers never pass these; a fixed fallback keeps the document valid
  }
  std::string text = fmt::format("{:.2f}", value);
  while (text.back() == '0') {
    text.pop_back();
  }
  if (text.back() == '.') {
    text.pop_back();
  }
  return text == "-0" ? "0" : text;
}

std::string sanitize_id(std::string_view id) {
  std::string out;
  for (const char c : id) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_') {
      out.push_back(c);
    }
  }
  if (out.empty() || !((out[0] >= 'a' && out[0] <= 'z') || (out[0] >= 'A' && out[0] <= 'Z'))) {
    out.insert(out.begin(), 'c');
  }
  return out;
}

namespace {

std::string stroke_attributes(const Stroke& stroke) {
  std::string out = fmt::format(" stroke=\"{}\" stroke-width=\"{}\"", stroke.colour, svg_number(stroke.width_px));
  if (!stroke.dash.empty()) {
    out += fmt::format(" stroke-dasharray=\"{}\"", stroke.dash);
  }
  return out;
}

std::string class_attribute(std::string_view css_class) {
  return css_class.empty() ? std::string() : fmt::format(" class=\"{}\"", css_class);
}

// Vertices of a regular polygon of circumradius r, first vertex at angle `start_deg`
// (measured clockwise from "up", screen y pointing down).
std::string regular_polygon(double cx, double cy, double r, int sides, double start_deg) {
  std::string pts;
  for (int i = 0; i < sides; ++i) {
    const double a = (start_deg + 360.0 * i / sides) * std::numbers::pi / 180.0;
    if (i > 0) {
      pts += ' ';
    }
    pts += svg_number(cx + r * std::sin(a)) + "," + svg_number(cy - r * std::cos(a));
  }
  return pts;
}

}  // namespace

SvgDocument::SvgDocument(double width_px, double height_px, std::string_view id, std::string_view title)
    : m_id(sanitize_id(id)) {
  m_out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"{0}\" class=\"ptsuite-chart\" width=\"{1}\" "
      "height=\"{2}\" "
      "viewBox=\"0 0 {1} {2}\" role=\"img\" aria-labelledby=\"{0}-title\" font-family=\"{3}\">\n"
      "<title id=\"{0}-title\">{4}</title>\n",
      m_id, svg_number(width_px), svg_number(height_px), k_font_family, xml_escape(title));
}

void SvgDocument::open_group(std::string_view css_class, std::string_view extra_attributes) {
  m_out += "<g" + class_attribute(css_class);
  if (!extra_attributes.empty()) {
    m_out += ' ';
    m_out += extra_attributes;
  }
  m_out += ">\n";
  ++m_open_groups;
}

void SvgDocument::close_group() {
  if (m_open_groups > 0) {
    m_out += "</g>\n";
    --m_open_groups;
  }
}

void SvgDocument::line(double x1, double y1, double x2, double y2, const Stroke& stroke) {
  m_out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"{}/>\n", svg_number(x1), svg_number(y1),
                       svg_number(x2), svg_number(y2), stroke_attributes(stroke));
}

void SvgDocument::rect(double x, double y, double w, double h, std::string_view fill, const Stroke* stroke,
                       std::string_view css_class, double fill_opacity) {
  m_out += fmt::format("<rect{} x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"", class_attribute(css_class),
                       svg_number(x), svg_number(y), svg_number(std::max(0.0, w)), svg_number(std::max(0.0, h)), fill);
  if (fill_opacity < 1) {
    m_out += fmt::format(" fill-opacity=\"{}\"", svg_number(fill_opacity));
  }
  m_out += (stroke != nullptr ? stroke_attributes(*stroke) : std::string()) + "/>\n";
}

void SvgDocument::path(std::string_view d, std::string_view fill, const Stroke* stroke, std::string_view css_class) {
  m_out += fmt::format("<path{} d=\"{}\" fill=\"{}\"{}", class_attribute(css_class), d, fill,
                       stroke != nullptr ? stroke_attributes(*stroke) : std::string());
  m_out += stroke != nullptr ? " stroke-linejoin=\"round\"/>\n" : "/>\n";
}

void SvgDocument::polygon(std::string_view points, std::string_view fill, const Stroke* stroke,
                          std::string_view css_class) {
  m_out += fmt::format("<polygon{} points=\"{}\" fill=\"{}\"{}/>\n", class_attribute(css_class), points, fill,
                       stroke != nullptr ? stroke_attributes(*stroke) : std::string());
}

void SvgDocument::marker(MarkerShape shape, double cx, double cy, double r, std::string_view colour,
                         std::string_view css_class) {
  const std::string x = svg_number(cx);
  const std::string y = svg_number(cy);
  switch (shape) {
    case MarkerShape::circle:
      m_out += fmt::format("<circle class=\"{}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"/>\n", css_class, x, y,
                           svg_number(r), colour);
      return;
    case MarkerShape::square: {
      const double s = r * 0.9;  // visually the same weight as the circle
      m_out += fmt::format("<rect class=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n", css_class,
                           svg_number(cx - s), svg_number(cy - s), svg_number(2 * s), svg_number(2 * s), colour);
      return;
    }
    case MarkerShape::triangle_up:
      m_out += fmt::format("<polygon class=\"{}\" points=\"{}\" fill=\"{}\"/>\n", css_class,
                           regular_polygon(cx, cy, r * 1.25, 3, 0), colour);
      return;
    case MarkerShape::triangle_down:
      m_out += fmt::format("<polygon class=\"{}\" points=\"{}\" fill=\"{}\"/>\n", css_class,
                           regular_polygon(cx, cy, r * 1.25, 3, 180), colour);
      return;
    case MarkerShape::diamond:
      m_out += fmt::format("<polygon class=\"{}\" points=\"{}\" fill=\"{}\"/>\n", css_class,
                           regular_polygon(cx, cy, r * 1.2, 4, 0), colour);
      return;
    case MarkerShape::pentagon:
      m_out += fmt::format("<polygon class=\"{}\" points=\"{}\" fill=\"{}\"/>\n", css_class,
                           regular_polygon(cx, cy, r * 1.1, 5, 0), colour);
      return;
    case MarkerShape::cross:
    case MarkerShape::plus: {
      // Stroked, not filled: an x or + of arm length r, in one path.
      const double a = shape == MarkerShape::cross ? r * 0.85 : r;
      const std::string d = shape == MarkerShape::cross
                                ? fmt::format("M{} {}L{} {}M{} {}L{} {}", svg_number(cx - a), svg_number(cy - a),
                                              svg_number(cx + a), svg_number(cy + a), svg_number(cx - a),
                                              svg_number(cy + a), svg_number(cx + a), svg_number(cy - a))
                                : fmt::format("M{} {}L{} {}M{} {}L{} {}", svg_number(cx - a), y, svg_number(cx + a), y,
                                              x, svg_number(cy - a), x, svg_number(cy + a));
      m_out += fmt::format("<path class=\"{}\" d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"/>\n", css_class,
                           d, colour, svg_number(std::max(1.2, r * 0.5)));
      return;
    }
  }
}

void SvgDocument::text(double x, double y, std::string_view content, const TextStyle& style) {
  static constexpr std::array<std::string_view, 3> k_anchor = {"start", "middle", "end"};
  m_out += fmt::format("<text{} x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\"", class_attribute(style.css_class),
                       svg_number(x), svg_number(y), svg_number(style.size_px), style.fill);
  if (style.anchor != Anchor::start) {
    m_out += fmt::format(" text-anchor=\"{}\"", k_anchor[static_cast<size_t>(style.anchor)]);
  }
  if (style.bold) {
    m_out += " font-weight=\"bold\"";
  }
  if (style.halo) {
    m_out += " stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\"";
  }
  if (style.rotate_deg != 0) {
    m_out += fmt::format(" transform=\"rotate({} {} {})\"", svg_number(style.rotate_deg), svg_number(x), svg_number(y));
  }
  m_out += ">" + xml_escape(content) + "</text>\n";
}

void SvgDocument::tooltip(std::string_view content) { m_out += "<title>" + xml_escape(content) + "</title>\n"; }

void SvgDocument::raw(std::string_view markup) { m_out += markup; }

std::string SvgDocument::finish() {
  while (m_open_groups > 0) {
    close_group();
  }
  m_out += "</svg>\n";
  return std::move(m_out);
}

}  // namespace ptsuite::report::chart
