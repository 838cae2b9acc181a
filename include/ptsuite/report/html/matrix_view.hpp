// Contract: the IOPS / Latency window matrices (results/grid_matrix.hpp, read from the record's
// "matrix" with results::read_grid_matrix) as display-ready views: block sizes relabelled in KiB, values scaled for
// display (latency ns -> ms). Missing or malformed cells become NaN ("–" in tables, empty in charts).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <ptsuite/results/grid_matrix.hpp>

namespace ptsuite::report::html {

struct MatrixView {
  std::vector<std::string> rows;            // "1024 KiB", ..., "0.5 KiB"
  std::vector<uint64_t> row_bytes;          // the same in bytes (0 when a label does not parse)
  std::vector<std::string> columns;         // "100/0", ...
  std::vector<std::vector<double>> values;  // [row][column], stored value / divisor
};

MatrixView matrix_view(const results::GridMatrix& matrix, results::GridMetric metric, double divisor = 1);

// "measurement window Rounds 2–6" from matrix.window.
std::string window_text(const results::GridMatrix& matrix);

std::string join(const std::vector<std::string>& parts, const std::string& separator);

}  // namespace ptsuite::report::html
