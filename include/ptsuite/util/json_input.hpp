// Contract: every JSON document ptsuite reads from outside (scenario files, claim sheets,
// results documents, journals, manifests, `--file` inputs) is read and parsed through these,
// so that no input can exhaust memory or the stack:
//   * read_input_file() reads at most `max_bytes` (+1 to notice more) from a regular file,
//     a pipe or a device (/dev/zero ends with "larger than"), never the whole of it first;
//   * parse_json_input() first runs a SAX pass over the text (no tree is built) that refuses
//     nesting deeper than `max_depth`, and, for files people write, a key repeated in one
//     object (JSON leaves that undefined; nlohmann keeps the last); only then the DOM parse.
// Every refusal is a UsageError (exit 2) whose message starts with `source` (a path or the
// option): "sheet.json: nesting deeper than 64 levels at byte 1234". Stateless; thread-safe.
// Memory: the DOM of an accepted document is about 10x its text, so max_bytes bounds it.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ptsuite {

struct JsonLimits {
  size_t max_bytes = 0;
  size_t max_depth = 64;
  bool reject_duplicate_keys = false;
};

// Files people write (scenarios, claim sheets, steady-state series, journals): 16 MiB, 64 levels,
// duplicate keys refused (the deepest built-in document nests 8 levels).
inline constexpr JsonLimits k_user_json_limits{16ULL << 20, 64, true};
// Documents ptsuite writes (results, compare, manifests): 64 MiB (the worst-case full
// enterprise results.json is 49.8 MB, docs/performance.md), 64 levels.
inline constexpr JsonLimits k_document_json_limits{64ULL << 20, 64, false};

// The file's content; UsageError ("<source>: <path> is larger than 16 MiB, ...") when unreadable
// or larger than max_bytes. A `source` equal to the path, or "", is not repeated in front.
std::string read_input_file(const std::filesystem::path& path, size_t max_bytes, const std::string& source);

// Parses `text` within `limits`; UsageError naming `source` for malformed or refused input.
// `drop_key` (optional): every member of that name, at any depth, is left out of the tree (a
// reader that never looks at it, e.g. the reports and per-segment "histograms", keeps the tree
// a fraction of the document).
nlohmann::json parse_json_input(std::string_view text, const std::string& source, const JsonLimits& limits,
                                std::string_view drop_key = {});

// read_input_file() then parse_json_input().
nlohmann::json load_json_input(const std::filesystem::path& path, const std::string& source, const JsonLimits& limits);

}  // namespace ptsuite
