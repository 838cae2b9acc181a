#include <ptsuite/util/text.hpp>

namespace ptsuite {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

// The reference for one character, or nullptr when it passes unchanged (before the flavor's
// own rules).
const char* reference(char c, MarkupFlavor flavor) {
  switch (c) {
    case '&':
      return "&amp;";
    case '<':
      return "&lt;";
    case '>':
      return "&gt;";
    case '"':
      return "&quot;";
    case '\'':
      return flavor == MarkupFlavor::html ? "&#39;" : "&apos;";
    default:
      return nullptr;
  }
}

}  // namespace

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) {
    s.remove_prefix(1);
  }
  while (!s.empty() && is_space(s.back())) {
    s.remove_suffix(1);
  }
  return s;
}

void append_csv_field(std::string& out, std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
    out += field;
    return;
  }
  out += '"';
  for (const char c : field) {
    if (c == '"') {
      out += '"';
    }
    out += c;
  }
  out += '"';
}

std::string csv_field(std::string_view field) {
  std::string out;
  append_csv_field(out, field);
  return out;
}

std::string markup_escape(std::string_view raw, MarkupFlavor flavor) {
  std::string out;
  out.reserve(raw.size() + 8);
  for (size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if (const char* ref = reference(c, flavor)) {
      out += ref;
    } else if (flavor == MarkupFlavor::html && c == '/' && i > 0 && raw[i - 1] == '/') {
      out += "&#47;";
    } else if (flavor == MarkupFlavor::svg && static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') {
      out += "\xEF\xBF\xBD";  // U+FFFD: C0 controls are not allowed in XML 1.0
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace ptsuite
