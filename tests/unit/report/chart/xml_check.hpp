// Test helper: a minimal XML well-formedness checker for the SVG the chart module writes.
// Checks: balanced and properly nested tags, a single root element, quoted attribute
// values, no duplicate attribute in one element, no raw '<' in text or attributes, every '&'
// starting a valid entity (the five predefined ones or a numeric reference), comments and
// processing instructions closed. Collects elements (name + attributes) for structural
// assertions. Not a general XML parser: no DTDs, no CDATA.
#pragma once

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ptsuite::report::chart::testing {

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;  // raw (still escaped) values
  std::string text;                               // raw text directly inside the element (concatenated)
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

namespace detail {

inline bool valid_entity_at(std::string_view s, size_t amp, size_t* length) {
  const size_t semi = s.find(';', amp);
  if (semi == std::string_view::npos || semi - amp > 10) {
    return false;
  }
  const std::string_view body = s.substr(amp + 1, semi - amp - 1);
  *length = semi - amp + 1;
  if (body == "amp" || body == "lt" || body == "gt" || body == "quot" || body == "apos") {
    return true;
  }
  if (body.size() >= 2 && body[0] == '#') {
    const bool hex = body[1] == 'x';
    const std::string_view digits = body.substr(hex ? 2 : 1);
    if (digits.empty()) {
      return false;
    }
    for (const char c : digits) {
      if (!(hex ? std::isxdigit(static_cast<unsigned char>(c)) : std::isdigit(static_cast<unsigned char>(c)))) {
        return false;
      }
    }
    return true;
  }
  return false;
}

inline bool check_chars(std::string_view s, std::string* error) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') {
      *error = "raw '<' in text or attribute";
      return false;
    }
    if (s[i] == '&') {
      size_t len = 0;
      if (!valid_entity_at(s, i, &len)) {
        *error = "bad entity near: " + std::string(s.substr(i, 12));
        return false;
      }
      i += len - 1;
    }
  }
  return true;
}

inline bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == ':' || c == '.';
}

}  // namespace detail

inline XmlCheck check_xml(std::string_view doc) {
  XmlCheck out;
  std::vector<size_t> stack;  // indices into out.elements
  size_t roots = 0;
  size_t i = 0;
  const auto fail = [&](std::string message) {
    out.ok = false;
    out.error = std::move(message) + " at offset " + std::to_string(i);
    return out;
  };
  while (i < doc.size()) {
    if (doc[i] != '<') {
      const size_t next = doc.find('<', i);
      const std::string_view text = doc.substr(i, next == std::string_view::npos ? std::string_view::npos : next - i);
      if (!detail::check_chars(text, &out.error)) {
        return fail(out.error);
      }
      const bool blank = text.find_first_not_of(" \t\r\n") == std::string_view::npos;
      if (!blank) {
        if (stack.empty()) {
          return fail("text outside the root element");
        }
        out.elements[stack.back()].text += std::string(text);
      }
      i = next == std::string_view::npos ? doc.size() : next;
      continue;
    }
    if (doc.substr(i, 4) == "<!--") {
      const size_t end = doc.find("-->", i);
      if (end == std::string_view::npos) {
        return fail("unclosed comment");
      }
      i = end + 3;
      continue;
    }
    if (doc.substr(i, 2) == "<?") {
      const size_t end = doc.find("?>", i);
      if (end == std::string_view::npos) {
        return fail("unclosed processing instruction");
      }
      i = end + 2;
      continue;
    }
    if (doc.substr(i, 2) == "</") {
      size_t j = i + 2;
      while (j < doc.size() && detail::name_char(doc[j])) {
        ++j;
      }
      const std::string name(doc.substr(i + 2, j - i - 2));
      while (j < doc.size() && std::isspace(static_cast<unsigned char>(doc[j]))) {
        ++j;
      }
      if (j >= doc.size() || doc[j] != '>') {
        return fail("bad end tag");
      }
      if (stack.empty() || out.elements[stack.back()].name != name) {
        return fail("mismatched end tag </" + name + ">");
      }
      stack.pop_back();
      i = j + 1;
      continue;
    }
    // Start tag.
    size_t j = i + 1;
    while (j < doc.size() && detail::name_char(doc[j])) {
      ++j;
    }
    XmlElement element;
    element.name = std::string(doc.substr(i + 1, j - i - 1));
    if (element.name.empty()) {
      return fail("empty element name");
    }
    bool self_closing = false;
    for (;;) {
      const size_t before = j;
      while (j < doc.size() && std::isspace(static_cast<unsigned char>(doc[j]))) {
        ++j;
      }
      if (j >= doc.size()) {
        return fail("unterminated start tag");
      }
      if (doc[j] == '>') {
        ++j;
        break;
      }
      if (doc.substr(j, 2) == "/>") {
        self_closing = true;
        j += 2;
        break;
      }
      if (j == before) {
        return fail("attributes must be separated by white space");
      }
      const size_t name_start = j;
      while (j < doc.size() && detail::name_char(doc[j])) {
        ++j;
      }
      const std::string attr(doc.substr(name_start, j - name_start));
      if (attr.empty() || j >= doc.size() || doc[j] != '=' || j + 1 >= doc.size() ||
          (doc[j + 1] != '"' && doc[j + 1] != '\'')) {
        return fail("bad attribute in <" + element.name + ">");
      }
      const char quote = doc[j + 1];
      const size_t value_end = doc.find(quote, j + 2);
      if (value_end == std::string_view::npos) {
        return fail("unterminated attribute value");
      }
      const std::string_view value = doc.substr(j + 2, value_end - j - 2);
      if (!detail::check_chars(value, &out.error)) {
        return fail(out.error);
      }
      if (!element.attributes.emplace(attr, std::string(value)).second) {
        return fail("duplicate attribute " + attr);
      }
      j = value_end + 1;
    }
    if (stack.empty()) {
      ++roots;
      if (roots > 1) {
        return fail("more than one root element");
      }
    }
    out.elements.push_back(std::move(element));
    if (!self_closing) {
      stack.push_back(out.elements.size() - 1);
    }
    i = j;
  }
  if (!stack.empty()) {
    i = doc.size();
    return fail("unclosed element <" + out.elements[stack.back()].name + ">");
  }
  if (roots != 1) {
    return fail("no root element");
  }
  return out;
}

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
