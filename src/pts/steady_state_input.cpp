// The steady-state series input of `ptsuite steady-state` and of anyone re-checking a claim
// (steady_state_input.hpp): per-Round values from CSV or JSON text.
#include <ptsuite/pts/steady_state_input.hpp>

#include <fmt/format.h>
#include <sys/stat.h>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/text.hpp>

namespace ptsuite::pts {

namespace {

std::optional<double> to_double(std::string_view text) {
  text = trim(text);
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

std::optional<uint32_t> to_round(std::string_view text) {
  text = trim(text);
  uint32_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

// A tracking value: a finite number >= 0 (IOPS, MB/s and response times are never negative).
}  // namespace

double parse_tracking_value(std::string_view text, const std::string& option, const std::string& where) {
  const std::optional<double> value = to_double(text);
  if (!value || !std::isfinite(*value)) {
    throw UsageError(option, fmt::format("{}\"{}\" is not a number", where, text));
  }
  if (*value < 0) {
    throw UsageError(option,
                     fmt::format("{}{} is negative (tracking values are IOPS, MB/s or response times)", where, text));
  }
  return *value;
}

namespace {

std::vector<std::string_view> split_fields(std::string_view line, char separator) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(separator, start);
    fields.push_back(
        trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
    if (comma == std::string_view::npos) {
      return fields;
    }
    start = comma + 1;
  }
}

// A header line names its columns ("round,iops", "\"IOPS\""): every field starts with a letter
// or a quote. "12a00" is not a header but a typo, and is reported as one.
bool is_header(const std::vector<std::string_view>& fields) {
  for (const std::string_view f : fields) {
    if (f.empty() || !(std::isalpha(static_cast<unsigned char>(f.front())) != 0 || f.front() == '"')) {
      return false;
    }
  }
  return true;
}

std::string unquote(std::string_view s) {
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') {
    s = s.substr(1, s.size() - 2);
  }
  return std::string(s);
}

}  // namespace

TrackingSeriesInput parse_tracking_csv(std::string_view content) {
  TrackingSeriesInput series;
  size_t columns = 0;  // 1 (values) or 2 (round,value), fixed by the first data line
  size_t line_number = 0;
  bool seen_line = false;
  while (!content.empty()) {
    const size_t nl = content.find('\n');
    const std::string_view raw = content.substr(0, nl);
    content = nl == std::string_view::npos ? std::string_view{} : content.substr(nl + 1);
    ++line_number;
    const std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#') {
      continue;
    }
    const std::string where = fmt::format("line {}: ", line_number);
    const std::vector<std::string_view> fields = split_fields(line, ',');
    if (fields.size() > 2) {
      throw UsageError("file", where + "expected \"value\" or \"round,value\"");
    }
    const bool first_line = !seen_line;
    seen_line = true;
    if (first_line && is_header(fields)) {
      series.name = unquote(fields.back());
      continue;
    }
    if (columns == 0) {
      columns = fields.size();
    } else if (fields.size() != columns) {
      throw UsageError("file", where + fmt::format("{} column(s) where earlier lines have {}", fields.size(), columns));
    }
    if (columns == 2) {
      const std::optional<uint32_t> round = to_round(fields[0]);
      if (!round) {
        throw UsageError("file", where + fmt::format("round \"{}\" is not a whole number", fields[0]));
      }
      series.rounds.push_back(*round);
    }
    series.values.push_back(parse_tracking_value(fields.back(), "file", where));
  }
  return series;
}

TrackingSeriesInput parse_tracking_json(const std::string& content) {
  const nlohmann::json j = parse_json_input(content, "file", k_user_json_limits);
  TrackingSeriesInput series;
  const nlohmann::json* values = &j;
  if (j.is_object()) {
    if (!j.contains("values")) {
      throw UsageError("file", "a JSON object needs \"values\": {\"rounds\": [...], \"values\": [...]}");
    }
    values = &j.at("values");
    if (j.contains("name")) {
      if (!j.at("name").is_string()) {
        throw UsageError("file", "\"name\" must be a string");
      }
      series.name = j.at("name").get<std::string>();
    }
    if (j.contains("rounds")) {
      const nlohmann::json& rounds = j.at("rounds");
      if (!rounds.is_array()) {
        throw UsageError("file", "\"rounds\" must be an array of round numbers");
      }
      for (size_t i = 0; i < rounds.size(); ++i) {
        const nlohmann::json& r = rounds[i];
        if (!r.is_number_unsigned() || r.get<uint64_t>() > std::numeric_limits<uint32_t>::max()) {
          throw UsageError("file", fmt::format("rounds[{}] = {} is not a round number", i, r.dump()));
        }
        series.rounds.push_back(static_cast<uint32_t>(r.get<uint64_t>()));
      }
    }
  }
  if (!values->is_array()) {
    throw UsageError("file", "expected an array of numbers or {\"rounds\": [...], \"values\": [...]}");
  }
  for (size_t i = 0; i < values->size(); ++i) {
    const nlohmann::json& v = (*values)[i];
    if (!v.is_number() || v.get<double>() < 0) {
      throw UsageError("file", fmt::format("values[{}] = {} is not a number >= 0", i, v.dump()));
    }
    series.values.push_back(v.get<double>());
  }
  if (!series.rounds.empty() && series.rounds.size() != series.values.size()) {
    throw UsageError("file", fmt::format("{} rounds for {} values", series.rounds.size(), series.values.size()));
  }
  return series;
}

TrackingSeriesInput load_tracking_file(const std::string& path) {
  // A block device is never a series of values (and its bytes are a drive's data, not text
  // for an error message); a pipe or /dev/stdin is.
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode)) {
    throw UsageError("file", fmt::format("{} is a block device: give a file of values", path));
  }
  std::string content;
  try {
    content = read_input_file(path, k_user_json_limits.max_bytes, "");
  } catch (const Error& e) {
    throw UsageError("file", e.what());
  }
  const size_t first = content.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) {
    throw UsageError("file", fmt::format("{} is empty", path));
  }
  return content[first] == '[' || content[first] == '{' ? parse_tracking_json(content) : parse_tracking_csv(content);
}

}  // namespace ptsuite::pts
