#include <ptsuite/util/json_fields.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <vector>

namespace ptsuite {

using nlohmann::json;

namespace {

// A minimal scanner over already-valid JSON: it walks values, keeps the path of the value it is
// in, and records where each value starts. Strings are skipped with their escapes.
class Scanner {
 public:
  Scanner(std::string_view text, std::map<std::string, JsonPosition, std::less<>>& out) : m_text(text), m_out(out) {}

  void value(const std::string& path) {
    skip_space();
    if (m_i >= m_text.size()) return;
    m_out.emplace(path, JsonPosition{m_line, m_column});
    const char c = m_text[m_i];
    if (c == '{') {
      object(path);
    } else if (c == '[') {
      array(path);
    } else if (c == '"') {
      (void)string();
    } else {
      while (m_i < m_text.size() && std::string_view(",]} \t\r\n").find(m_text[m_i]) == std::string_view::npos) {
        advance();
      }
    }
  }

 private:
  void object(const std::string& path) {
    advance();  // {
    while (true) {
      skip_space();
      if (m_i >= m_text.size() || m_text[m_i] == '}') break;
      const std::string key = string();
      skip_space();
      advance();  // :
      value(path.empty() ? key : path + "." + key);
      skip_space();
      if (m_i < m_text.size() && m_text[m_i] == ',') advance();
    }
    advance();
  }
  void array(const std::string& path) {
    advance();  // [
    size_t index = 0;
    while (true) {
      skip_space();
      if (m_i >= m_text.size() || m_text[m_i] == ']') break;
      value(path + "[" + std::to_string(index++) + "]");
      skip_space();
      if (m_i < m_text.size() && m_text[m_i] == ',') advance();
    }
    advance();
  }
  // The raw characters of a string (escapes kept as written: keys in files are plain names).
  std::string string() {
    advance();  // opening quote
    std::string out;
    while (m_i < m_text.size() && m_text[m_i] != '"') {
      if (m_text[m_i] == '\\') {
        out += m_text[m_i];
        advance();
      }
      if (m_i < m_text.size()) {
        out += m_text[m_i];
        advance();
      }
    }
    advance();  // closing quote
    return out;
  }
  void skip_space() {
    while (m_i < m_text.size() && std::string_view(" \t\r\n").find(m_text[m_i]) != std::string_view::npos) advance();
  }
  void advance() {
    if (m_i >= m_text.size()) return;
    if (m_text[m_i] == '\n') {
      ++m_line;
      m_column = 1;
    } else if ((static_cast<unsigned char>(m_text[m_i]) & 0xC0) != 0x80) {
      ++m_column;  // count UTF-8 lead bytes only: columns are characters
    }
    ++m_i;
  }

  std::string_view m_text;
  std::map<std::string, JsonPosition, std::less<>>& m_out;
  size_t m_i = 0;
  uint32_t m_line = 1;
  uint32_t m_column = 1;
};

}  // namespace

JsonPositions::JsonPositions(std::string_view text) { Scanner(text, m_positions).value(""); }

const JsonPosition* JsonPositions::find(std::string path) const {
  while (true) {
    const auto it = m_positions.find(path);
    if (it != m_positions.end()) return &it->second;
    if (path.empty()) return nullptr;
    // Up one level: "a.b[2]" -> "a.b" -> "a".
    const size_t cut = path.find_last_of(".[");
    path = cut == std::string::npos ? std::string() : path.substr(0, cut);
  }
}

void Fields::fail(const std::string& key, const std::string& problem) const {
  const std::string path = field(key);
  const JsonPosition* pos = m_positions ? m_positions->find(path) : nullptr;
  const std::string at = pos ? fmt::format(" (line {}, column {})", pos->line, pos->column) : "";
  throw UsageError(m_where, fmt::format("{}{}: {}", path.empty() ? "the document" : path, at, problem));
}

void Fields::only(const json& obj, std::initializer_list<const char*> known) const {
  if (!obj.is_object()) fail("", "must be an object");
  for (const auto& [key, value] : obj.items()) {
    if (std::none_of(known.begin(), known.end(), [&k = key](const char* n) { return k == n; })) {
      std::string names;
      for (const char* n : known) names += (names.empty() ? "" : ", ") + std::string(n);
      fail(key, fmt::format("unknown field; known: {}", names));
    }
  }
}

std::string Fields::text(const json& obj, const char* key, bool required) const {
  if (!obj.contains(key)) {
    if (required) fail(key, "is required");
    return {};
  }
  if (!obj.at(key).is_string()) fail(key, "must be a string");
  return obj.at(key).get<std::string>();
}

double Fields::number(const json& obj, const char* key, double min, double max) const {
  if (!obj.contains(key)) fail(key, "is required");
  const json& v = obj.at(key);
  if (!v.is_number()) fail(key, "must be a number");
  const double d = v.get<double>();
  if (!(d >= min && d <= max)) fail(key, fmt::format("{} is outside {}..{}", d, min, max));
  return d;
}

uint32_t Fields::count(const json& obj, const char* key, uint32_t max) const {
  if (!obj.contains(key)) fail(key, "is required");
  const json& v = obj.at(key);
  if (!v.is_number_integer() || v.get<int64_t>() < 1 || v.get<int64_t>() > max) {
    fail(key, fmt::format("must be a whole number from 1 to {}", max));
  }
  return v.get<uint32_t>();
}

}  // namespace ptsuite
