// Contract: run labels, `--label key=value` (docs/fleet.md): what a lab attaches to a run to
// find it again (host, slot, rack, campaign, job). results.json stores them (config.labels),
// the report's Run page shows them, the history keeps them as a table of (key, value) rows and
// filters on them (`history list --label campaign=q4-pm9a3`).
//
// A key is 1-32 characters of [a-z0-9_.-] starting with a letter ("campaign", "rack.row"); a
// value 1-200 bytes without control characters. At most k_max_labels per run. parse_label()
// reads one "key=value" (the first '=' splits); add_label() refuses a key given twice with
// another value (the same pair again is harmless). Errors: UsageError naming `option`.
// Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptsuite {

using Labels = std::map<std::string, std::string>;  // sorted by key

inline constexpr size_t k_max_labels = 32;
inline constexpr size_t k_max_label_key_bytes = 32;
inline constexpr size_t k_max_label_value_bytes = 200;

std::pair<std::string, std::string> parse_label(std::string_view text, const std::string& option);
void add_label(Labels& labels, const std::pair<std::string, std::string>& label, const std::string& option);
// Every text of `texts` parsed and added, in order.
Labels parse_labels(const std::vector<std::string>& texts, const std::string& option);
// "campaign=q4 slot=3": the labels on one line, in key order ("" when none).
std::string labels_text(const Labels& labels);

}  // namespace ptsuite
