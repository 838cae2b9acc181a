// Contract: per-Round values of a tracking variable read from text, for re-checking a
// steady-state claim (`ptsuite steady-state`, docs/steady-state.md). Pure parsing; errors are
// UsageError naming the field ("file": the content; the caller's own name for an argument) and
// the line or index at fault, one line each.
//   CSV   one value per line, or "round,value" lines; an optional header line (every field
//         starts with a letter or a quote; its last field names the series); blank lines and
//         lines starting with '#' are ignored; the column count is fixed by the first data line.
//   JSON  an array of numbers, or {"rounds": [...], "values": [...], "name": "..."} (rounds and
//         name optional).
// Values are finite numbers >= 0 (IOPS, MB/s and response times are never negative). Rounds
// are left empty when the input gives none (the caller numbers them 1..n).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptsuite::pts {

struct TrackingSeriesInput {
  std::string name;  // from a CSV header or a JSON "name"; "" when none
  std::vector<uint32_t> rounds;
  std::vector<double> values;
};

TrackingSeriesInput parse_tracking_csv(std::string_view content);
TrackingSeriesInput parse_tracking_json(const std::string& content);
// Reads `path` and parses it as JSON when it starts with '[' or '{', else as CSV.
TrackingSeriesInput load_tracking_file(const std::string& path);

// One value: a finite number >= 0; `field` and `where` ("line 3: ") name it in the error.
double parse_tracking_value(std::string_view text, const std::string& field, const std::string& where);

}  // namespace ptsuite::pts
