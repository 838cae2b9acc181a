#include <ptsuite/results/grid_matrix.hpp>

#include <fmt/format.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include <ptsuite/results/json_read.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::results {

namespace {

constexpr std::array<std::string_view, k_grid_metric_count> k_keys = {
    "iops", "mb_per_s", "latency_mean_ns", "latency_p99_999_ns", "latency_max_ns", "latency_window_max_ns"};

// Percentiles and the maximum are exact histogram bounds and counts of ns: integers.
bool integer_metric(GridMetric metric) {
  return metric == GridMetric::latency_p99_999_ns || metric == GridMetric::latency_max_ns ||
         metric == GridMetric::latency_window_max_ns;
}

nlohmann::json value_json(GridMetric metric, double value) {
  if (std::isnan(value)) {
    return nullptr;
  }
  if (integer_metric(metric)) {
    return static_cast<uint64_t>(value);
  }
  return value;
}

}  // namespace

BlockSizeKey block_size_key(uint64_t bytes) { return {bytes, units::format_size_binary(bytes)}; }

RwMix rw_mix_key(double read_pct) {
  return {read_pct, 100.0 - read_pct, fmt::format("{:g}/{:g}", read_pct, 100.0 - read_pct)};
}

BlockSizeKey read_block_size_key(const std::string& label) {
  try {
    return {units::parse_size_bytes(label, "matrix row"), label};
  } catch (const Error&) {
    return {0, label};  // not a size: the label stays as written
  }
}

RwMix read_rw_mix(const std::string& label) {
  const RwMix unreadable{std::nan(""), std::nan(""), label};  // not a mix: the label stays as written
  const size_t slash = label.find('/');
  if (slash == std::string::npos) {
    return unreadable;
  }
  try {
    return {units::parse_percent(std::string_view(label).substr(0, slash), "matrix column"),
            units::parse_percent(std::string_view(label).substr(slash + 1), "matrix column"), label};
  } catch (const Error&) {
    return unreadable;
  }
}

std::vector<std::string> GridMatrix::row_labels() const {
  std::vector<std::string> out;
  for (const BlockSizeKey& r : rows) {
    out.push_back(r.label);
  }
  return out;
}

std::vector<std::string> GridMatrix::column_labels() const {
  std::vector<std::string> out;
  for (const RwMix& c : columns) {
    out.push_back(c.label);
  }
  return out;
}

std::string_view grid_metric_key(GridMetric metric) { return k_keys.at(static_cast<size_t>(metric)); }

const std::vector<std::vector<double>>& GridMatrix::grid(GridMetric metric) const {
  return cells.at(static_cast<size_t>(metric));
}

std::vector<std::vector<double>>& GridMatrix::grid(GridMetric metric) { return cells.at(static_cast<size_t>(metric)); }

double GridMatrix::cell(GridMetric metric, size_t row, size_t column) const {
  const std::vector<std::vector<double>>& g = grid(metric);
  return row < g.size() && column < g[row].size() ? g[row][column] : std::nan("");
}

void to_json(nlohmann::json& j, const GridMatrix& matrix) {
  j = {{"rows", matrix.row_labels()},
       {"row_key", "block_size"},
       {"columns", matrix.column_labels()},
       {"column_key", "rw_mix"},
       {"source", matrix.source},
       {"window", {{"first_round", matrix.window.first_round}, {"last_round", matrix.window.last_round}}}};
  for (size_t m = 0; m < k_grid_metric_count; ++m) {
    const auto metric = static_cast<GridMetric>(m);
    nlohmann::json rows = nlohmann::json::array();
    for (const std::vector<double>& row : matrix.cells.at(m)) {
      nlohmann::json cells = nlohmann::json::array();
      for (double v : row) {
        cells.push_back(value_json(metric, v));
      }
      rows.push_back(std::move(cells));
    }
    j[std::string(k_keys.at(m))] = std::move(rows);
  }
}

GridMatrix read_grid_matrix(const nlohmann::json& block) {
  GridMatrix m;
  for (const nlohmann::json& r : array(block, "rows")) {
    m.rows.push_back(read_block_size_key(str(r)));
  }
  for (const nlohmann::json& c : array(block, "columns")) {
    m.columns.push_back(read_rw_mix(str(c)));
  }
  m.source = str(block, "source");
  m.window.first_round = static_cast<uint32_t>(count(at(block, {"window", "first_round"})));
  m.window.last_round = static_cast<uint32_t>(count(at(block, {"window", "last_round"})));
  for (size_t k = 0; k < k_grid_metric_count; ++k) {
    const nlohmann::json& values = at(block, k_keys.at(k));
    if (!values.is_array()) {
      continue;  // a metric the document does not report stays an empty grid
    }
    for (size_t r = 0; r < m.rows.size(); ++r) {
      std::vector<double> row;
      for (size_t c = 0; c < m.columns.size(); ++c) {
        row.push_back(num(element(element(values, r), c)));
      }
      m.cells.at(k).push_back(std::move(row));
    }
  }
  return m;
}

}  // namespace ptsuite::results
