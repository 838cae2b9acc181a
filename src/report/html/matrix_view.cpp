#include <ptsuite/report/html/matrix_view.hpp>

#include <fmt/format.h>

#include <cmath>

#include <ptsuite/report/html/markup.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::report::html {

using nlohmann::json;

MatrixView matrix_view(const json& matrix, const std::string& key, double divisor) {
  MatrixView v;
  for (const json& r : at(matrix, "rows")) {
    const std::string label = str(r);
    uint64_t bytes = 0;
    try {
      bytes = units::parse_size_bytes(label, "matrix row");
    } catch (const Error&) {
      bytes = 0;
    }
    v.rows.push_back(bytes > 0 ? kib_label(bytes) : label);
    v.row_bytes.push_back(bytes);
  }
  for (const json& c : at(matrix, "columns")) {
    v.columns.push_back(str(c));
  }
  const json& values = at(matrix, key);
  for (size_t r = 0; r < v.rows.size(); ++r) {
    std::vector<double> row;
    for (size_t c = 0; c < v.columns.size(); ++c) {
      double x = std::nan("");
      if (values.is_array() && r < values.size() && values[r].is_array() && c < values[r].size()) {
        x = num(values[r][c]) / divisor;
      }
      row.push_back(x);
    }
    v.values.push_back(std::move(row));
  }
  return v;
}

std::string window_text(const json& matrix) {
  return fmt::format("measurement window Rounds {}\u2013{}", str(at(matrix, {"window", "first_round"})),
                     str(at(matrix, {"window", "last_round"})));
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (const std::string& p : parts) {
    out += (out.empty() ? "" : separator) + p;
  }
  return out;
}

}  // namespace ptsuite::report::html
