#include <ptsuite/report/html/matrix_view.hpp>

#include <fmt/format.h>

#include <cmath>

#include <ptsuite/report/html/markup.hpp>

namespace ptsuite::report::html {

MatrixView matrix_view(const results::GridMatrix& matrix, results::GridMetric metric, double divisor) {
  MatrixView v;
  for (const results::BlockSizeKey& row : matrix.rows) {
    v.rows.push_back(row.bytes > 0 ? kib_label(row.bytes) : row.label);
    v.row_bytes.push_back(row.bytes);
  }
  v.columns = matrix.column_labels();
  for (size_t r = 0; r < v.rows.size(); ++r) {
    std::vector<double> row;
    for (size_t c = 0; c < v.columns.size(); ++c) {
      row.push_back(matrix.cell(metric, r, c) / divisor);
    }
    v.values.push_back(std::move(row));
  }
  return v;
}

std::string window_text(const results::GridMatrix& matrix) {
  return fmt::format("measurement window Rounds {}\u2013{}", matrix.window.first_round, matrix.window.last_round);
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (const std::string& p : parts) {
    out += (out.empty() ? "" : separator) + p;
  }
  return out;
}

}  // namespace ptsuite::report::html
