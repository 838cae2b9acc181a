// Contract: the IOPS / Latency window matrices of results.json (test.matrix: "rows" block-size
// labels, "columns" R/W mixes, and per metric a rows x columns array of measurement-window
// values) as display-ready views: block sizes relabelled in KiB, values scaled for display
// (latency ns -> ms). Missing or malformed cells become NaN ("–" in tables, empty in charts).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ptsuite::report::html {

struct MatrixView {
  std::vector<std::string> rows;            // "1024 KiB", ..., "0.5 KiB"
  std::vector<uint64_t> row_bytes;          // the same in bytes (0 when a label does not parse)
  std::vector<std::string> columns;         // "100/0", ...
  std::vector<std::vector<double>> values;  // [row][column], stored value / divisor
};

// `key`: "iops", "mb_per_s", "latency_mean_ns", "latency_p99_999_ns", "latency_max_ns".
MatrixView matrix_view(const nlohmann::json& matrix, const std::string& key, double divisor = 1);

// "measurement window Rounds 2–6" from matrix.window.
std::string window_text(const nlohmann::json& matrix);

std::string join(const std::vector<std::string>& parts, const std::string& separator);

}  // namespace ptsuite::report::html
