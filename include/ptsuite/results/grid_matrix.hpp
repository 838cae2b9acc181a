// Contract: the IOPS and Latency tests' own block, "matrix" in their record (results schema
// "#/$defs/window_matrix"): one cell per (block size, R/W mix) for each reported metric, taken
// from the measurement window's aggregate or from the final Round. The pts grid procedure
// builds it and writes it with to_json(); reporters and `compare` read it with
// read_grid_matrix(), which is tolerant (results/json_read.hpp): a partial or older document
// gives empty labels and NaN cells instead of throwing. Plain data; no invariants beyond "each
// metric grid is rows x columns" (the reader pads with NaN).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ptsuite::results {

// The metrics a matrix reports; the JSON member of each is grid_metric_key().
// latency_max_ns is the MRT window.mrt reports (the mean of the Rounds' maxima by default);
// latency_window_max_ns the window's largest response time, which no percentile exceeds (the
// final Round's maximum for a final-round matrix; NaN in documents written before it was kept).
enum class GridMetric : uint8_t {
  iops,
  mb_per_s,
  latency_mean_ns,
  latency_p99_999_ns,
  latency_max_ns,
  latency_window_max_ns
};
inline constexpr size_t k_grid_metric_count = 6;
std::string_view grid_metric_key(GridMetric metric);  // "iops", ..., "latency_max_ns"

// The Rounds a value comes from: the measurement window, or first == last == the final Round.
struct RoundRange {
  uint32_t first_round = 0;
  uint32_t last_round = 0;
};

// A row key: a block size in bytes and its label as the results spell it ("4KiB", "0.5KiB").
// bytes is 0 when a document's label is not a size.
struct BlockSizeKey {
  uint64_t bytes = 0;
  std::string label;
  friend bool operator==(const BlockSizeKey&, const BlockSizeKey&) = default;
};
// A column key: an R/W mix in percent and its %R/%W label ("65/35"); NaN percentages when a
// document's label is not a mix.
struct RwMix {
  double read_pct = 0;
  double write_pct = 0;
  std::string label;
  friend bool operator==(const RwMix&, const RwMix&) = default;
};
BlockSizeKey block_size_key(uint64_t bytes);  // labelled as units::format_size_binary ("4KiB")
RwMix rw_mix_key(double read_pct);            // labelled "{:g}/{:g}" ("65/35"), as pts::format_rw_mix
// The keys of a document's labels (tolerant: unreadable labels keep their text, see above).
BlockSizeKey read_block_size_key(const std::string& label);
RwMix read_rw_mix(const std::string& label);

struct GridMatrix {
  std::vector<BlockSizeKey> rows;  // block sizes, written as their labels; "row_key": "block_size"
  std::vector<RwMix> columns;      // R/W mixes, written as their labels; "column_key": "rw_mix"
  std::string source;              // "measurement-window-average" or "final-round" (pts/tests reported_value)
  RoundRange window;
  // [metric][row][column] in the metric's own unit (IOPS, MB/s = 10^6 B/s, ns).
  std::array<std::vector<std::vector<double>>, k_grid_metric_count> cells;

  [[nodiscard]] const std::vector<std::vector<double>>& grid(GridMetric metric) const;
  std::vector<std::vector<double>>& grid(GridMetric metric);
  // One cell; NaN when the document lacks it.
  [[nodiscard]] double cell(GridMetric metric, size_t row, size_t column) const;
  // The labels in order ("4KiB", ...; "65/35", ...), for tables and charts.
  [[nodiscard]] std::vector<std::string> row_labels() const;
  [[nodiscard]] std::vector<std::string> column_labels() const;
};

// The percentile metrics and MRT are written as integers (ns), the others as numbers.
void to_json(nlohmann::json& j, const GridMatrix& matrix);
GridMatrix read_grid_matrix(const nlohmann::json& block);

}  // namespace ptsuite::results
