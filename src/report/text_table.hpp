// Private to the report module: the plain-text table and number formatting of summary.txt
// (text_report.cpp) and of the tests' text sections (sections.hpp). Formatting only: every
// value comes from the document.
#pragma once

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

namespace ptsuite::report::text {

// --- number formatting (formatting only: every value comes from the document) ------------------

// A value of a typed record (NaN = absent, shown as "-").
inline std::string fixed(double v, int decimals) { return std::isnan(v) ? "-" : fmt::format("{:.{}f}", v, decimals); }

inline std::string ms(double ns) { return std::isnan(ns) ? "-" : fmt::format("{:.3f}", ns / 1e6); }

// Seconds with the precision their size needs: 0.25, 7.50, 60.0, 3600 (a quick run's 0.25 s
// sample must not print as 0).
inline std::string seconds(double s) {
  if (std::isnan(s)) return "-";
  return fmt::format("{:.{}f}", s, s < 10 ? 2 : s < 100 ? 1 : 0);
}

inline std::string integer(double v) { return std::isnan(v) ? "-" : fmt::format("{:.0f}", v); }

inline std::string gigabytes(uint64_t bytes) { return fmt::format("{:.1f} GB", static_cast<double>(bytes) / 1e9); }

// --- a plain table: first `left` columns left-aligned, the rest right-aligned ---------------

class Table {
 public:
  // The first `left` columns (and the last one when `last_left`) are left-aligned.
  explicit Table(size_t left, bool last_left = false) : m_left(left), m_last_left(last_left) {}
  void add(std::vector<std::string> row) { m_rows.push_back(std::move(row)); }
  [[nodiscard]] std::string render(std::string_view indent) const {
    std::vector<size_t> width;
    for (const auto& row : m_rows) {
      width.resize(std::max(width.size(), row.size()), 0);
      for (size_t i = 0; i < row.size(); ++i) {
        width[i] = std::max(width[i], row[i].size());
      }
    }
    std::string out;
    for (const auto& row : m_rows) {
      std::string line(indent);
      for (size_t i = 0; i < row.size(); ++i) {
        if (i > 0) {
          line += "  ";
        }
        const std::string pad(width[i] - row[i].size(), ' ');
        const bool left = i < m_left || (m_last_left && i + 1 == row.size());
        line += left ? row[i] + pad : pad + row[i];
      }
      while (!line.empty() && line.back() == ' ') {
        line.pop_back();
      }
      out += line + "\n";
    }
    return out;
  }

 private:
  size_t m_left;
  bool m_last_left;
  std::vector<std::vector<std::string>> m_rows;
};

}  // namespace ptsuite::report::text
