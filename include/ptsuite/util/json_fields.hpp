// Contract: strict reading of user-written JSON files (claim sheets, scenarios) with one-line
// errors that name the file, the field path and, when the text is known, its line and column:
//   "write-pressure.json: phases[2].streams[0].block_size (line 31, column 25): ..."
//   * Fields reads one object: only() refuses unknown keys (a typo must not fall back to a
//     default), text()/number()/count()/parsed() check type and range; every failure throws
//     UsageError (exit 2) and never returns.
//   * JsonPositions indexes a JSON text once: the line/column where each field path's value
//     starts ("a.b[2].c"); paths are spelled the way Fields spells them. It expects text that
//     nlohmann::json already parsed (it does not re-validate).
// Not thread-safe per instance; no global state.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <ptsuite/util/error.hpp>

namespace ptsuite {

struct JsonPosition {
  uint32_t line = 0;  // 1-based
  uint32_t column = 0;
};

class JsonPositions {
 public:
  JsonPositions() = default;
  explicit JsonPositions(std::string_view text);
  // The position of the value at `path`, or of the nearest enclosing path that is known.
  [[nodiscard]] const JsonPosition* find(std::string path) const;

 private:
  std::map<std::string, JsonPosition, std::less<>> m_positions;
};

class Fields {
 public:
  // `where` names the file; `positions` (may be null) locates fields in its text.
  Fields(std::string where, std::string path, std::shared_ptr<const JsonPositions> positions = nullptr)
      : m_where(std::move(where)), m_path(std::move(path)), m_positions(std::move(positions)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& problem) const;
  [[nodiscard]] Fields child(const std::string& key) const { return Fields(m_where, field(key), m_positions); }
  [[nodiscard]] Fields item(size_t index) const {
    return Fields(m_where, m_path + "[" + std::to_string(index) + "]", m_positions);
  }
  [[nodiscard]] std::string field(const std::string& key) const {
    return m_path.empty() ? key : (key.empty() ? m_path : m_path + "." + key);
  }
  // Refuses keys outside `known`.
  void only(const nlohmann::json& obj, std::initializer_list<const char*> known) const;
  [[nodiscard]] std::string text(const nlohmann::json& obj, const char* key, bool required) const;
  [[nodiscard]] double number(const nlohmann::json& obj, const char* key, double min, double max) const;
  // A whole number from 1 to `max`.
  [[nodiscard]] uint32_t count(const nlohmann::json& obj, const char* key, uint32_t max = 65536) const;
  // Wraps a units parser so its message carries the field path instead of an option name.
  template <typename F>
  auto parsed(const nlohmann::json& obj, const char* key, F&& parse) const {
    const std::string t = text(obj, key, true);
    try {
      return parse(t);
    } catch (const UsageError& e) {
      const std::string what = e.what();
      const size_t colon = what.find(": ");
      fail(key, colon == std::string::npos ? what : what.substr(colon + 2));
    }
  }

 private:
  std::string m_where;
  std::string m_path;
  std::shared_ptr<const JsonPositions> m_positions;
};

}  // namespace ptsuite
