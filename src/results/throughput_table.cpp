#include <ptsuite/results/throughput_table.hpp>

#include <nlohmann/json.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

void to_json(nlohmann::json& j, const ThroughputRow& row) {
  j = {{"block_size", row.block_size}, {"block_size_bytes", row.block_size_bytes}};
  if (!std::isnan(row.read_mb_per_s)) {
    j["read_mb_per_s"] = row.read_mb_per_s;
  }
  if (!std::isnan(row.write_mb_per_s)) {
    j["write_mb_per_s"] = row.write_mb_per_s;
  }
}

std::vector<ThroughputRow> read_throughput_table(const nlohmann::json& block) {
  std::vector<ThroughputRow> rows;
  if (!block.is_array()) {
    return rows;
  }
  for (const nlohmann::json& r : block) {
    rows.push_back({str(r, "block_size"), count(at(r, "block_size_bytes")), num(at(r, "read_mb_per_s")),
                    num(at(r, "write_mb_per_s"))});
  }
  return rows;
}

}  // namespace ptsuite::results
