// Test helper: XML well-formedness of the SVG and XHTML-compatible markup the report writes,
// judged by libxml2 (a maintained parser, no network, no DTD loading, no entity expansion
// beyond the five predefined ones and character references), and the elements it holds (name,
// attributes, direct text) for structural assertions. Attribute values and text are as libxml2
// reports them: entities resolved ("&amp;" reads "&").
#pragma once

#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ptsuite::report::chart::testing {

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;  // values with entities resolved
  std::string text;                               // text directly inside the element (concatenated)
};

struct XmlCheck {
  bool ok = true;
  std::string error;
  std::vector<XmlElement> elements;  // document order

  [[nodiscard]] size_t count(std::string_view name) const {
    size_t n = 0;
    for (const XmlElement& e : elements) {
      n += e.name == name ? 1 : 0;
    }
    return n;
  }
  // Elements whose class attribute (space-separated) contains `css_class`.
  [[nodiscard]] size_t count_class(std::string_view css_class) const {
    size_t n = 0;
    for (const XmlElement& e : elements) {
      const auto it = e.attributes.find("class");
      if (it == e.attributes.end()) {
        continue;
      }
      std::string_view classes = it->second;
      while (!classes.empty()) {
        const size_t sp = classes.find(' ');
        if (classes.substr(0, sp) == css_class) {
          ++n;
          break;
        }
        classes = sp == std::string_view::npos ? std::string_view() : classes.substr(sp + 1);
      }
    }
    return n;
  }
};

// Parses `doc` with libxml2 (tests/support/xml_check.cpp): ok and the elements in document
// order, or not ok with libxml2's first error and its line.
XmlCheck check_xml(std::string_view doc);

// check_xml of an SVG with the two GoogleTest expectations every chart test makes: it is
// well-formed and its geometry is finite (a failure is recorded; the parse is returned).
XmlCheck checked(const std::string& svg);

// Every geometric attribute parses completely as a finite number (no "nan", "inf", "1e+300"
// garbage reaching the SVG). Returns the first offender in `bad`.
inline bool geometry_is_finite(const XmlCheck& doc, std::string* bad) {
  static const char* const k_numeric[] = {"x",  "y", "x1",    "y1",     "x2",        "y2",          "cx",
                                          "cy", "r", "width", "height", "font-size", "stroke-width"};
  for (const XmlElement& e : doc.elements) {
    for (const char* name : k_numeric) {
      const auto it = e.attributes.find(name);
      if (it == e.attributes.end()) {
        continue;
      }
      char* end = nullptr;
      const double v = std::strtod(it->second.c_str(), &end);
      if (it->second.empty() || *end != '\0' || !std::isfinite(v) || std::fabs(v) > 1e6) {
        *bad = e.name + " " + name + "=\"" + it->second + "\"";
        return false;
      }
    }
  }
  return true;
}

}  // namespace ptsuite::report::chart::testing
