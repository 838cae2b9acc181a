// `ptsuite steady-state`: an auditor's re-check of the PTS steady-state rule on any series of
// per-round values (docs/steady-state.md). The values come as arguments or from --file:
//   CSV   one value per line, or "round,value" lines; an optional header line; blank lines
//         and lines starting with '#' are ignored.
//   JSON  an array of numbers, or {"rounds": [...], "values": [...], "name": "..."} (rounds
//         and name optional).
// Rounds are numbered 1..n unless given. Prints the verdict table (or the verdict as JSON with
// --json) and exits 0 when steady state is attained, 1 when not, 2 on bad input.
#include <fmt/format.h>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <ptsuite/pts/steady_state.hpp>
#include <ptsuite/util/atomic_file.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

#include "cli/commands.hpp"

namespace ptsuite::cli {

namespace {

struct SteadyStateOptions {
  std::vector<std::string> values;
  std::string file;
  std::string window = "5";
  std::string data_pct = "20";
  std::string slope_pct = "10";
  std::string name;
  bool json = false;
};

struct Series {
  std::string name;  // from a CSV header or a JSON "name"; "" when none
  std::vector<uint32_t> rounds;
  std::vector<double> values;
};

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) {
    return {};
  }
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

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
double parse_value(std::string_view text, const std::string& option, const std::string& where) {
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

std::vector<std::string_view> split(std::string_view line, char separator) {
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

Series parse_csv(std::string_view content) {
  Series series;
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
    const std::vector<std::string_view> fields = split(line, ',');
    if (fields.size() > 2) {
      throw UsageError("--file", where + "expected \"value\" or \"round,value\"");
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
      throw UsageError("--file",
                       where + fmt::format("{} column(s) where earlier lines have {}", fields.size(), columns));
    }
    if (columns == 2) {
      const std::optional<uint32_t> round = to_round(fields[0]);
      if (!round) {
        throw UsageError("--file", where + fmt::format("round \"{}\" is not a whole number", fields[0]));
      }
      series.rounds.push_back(*round);
    }
    series.values.push_back(parse_value(fields.back(), "--file", where));
  }
  return series;
}

Series parse_json(const std::string& content) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(content);
  } catch (const nlohmann::json::parse_error& e) {
    throw UsageError("--file", fmt::format("not valid JSON ({})", e.what()));
  }
  Series series;
  const nlohmann::json* values = &j;
  if (j.is_object()) {
    if (!j.contains("values")) {
      throw UsageError("--file", "a JSON object needs \"values\": {\"rounds\": [...], \"values\": [...]}");
    }
    values = &j.at("values");
    if (j.contains("name")) {
      if (!j.at("name").is_string()) {
        throw UsageError("--file", "\"name\" must be a string");
      }
      series.name = j.at("name").get<std::string>();
    }
    if (j.contains("rounds")) {
      const nlohmann::json& rounds = j.at("rounds");
      if (!rounds.is_array()) {
        throw UsageError("--file", "\"rounds\" must be an array of round numbers");
      }
      for (size_t i = 0; i < rounds.size(); ++i) {
        const nlohmann::json& r = rounds[i];
        if (!r.is_number_unsigned() || r.get<uint64_t>() > std::numeric_limits<uint32_t>::max()) {
          throw UsageError("--file", fmt::format("rounds[{}] = {} is not a round number", i, r.dump()));
        }
        series.rounds.push_back(static_cast<uint32_t>(r.get<uint64_t>()));
      }
    }
  }
  if (!values->is_array()) {
    throw UsageError("--file", "expected an array of numbers or {\"rounds\": [...], \"values\": [...]}");
  }
  for (size_t i = 0; i < values->size(); ++i) {
    const nlohmann::json& v = (*values)[i];
    if (!v.is_number() || v.get<double>() < 0) {
      throw UsageError("--file", fmt::format("values[{}] = {} is not a number >= 0", i, v.dump()));
    }
    series.values.push_back(v.get<double>());
  }
  if (!series.rounds.empty() && series.rounds.size() != series.values.size()) {
    throw UsageError("--file", fmt::format("{} rounds for {} values", series.rounds.size(), series.values.size()));
  }
  return series;
}

Series load_file(const std::string& path) {
  std::string content;
  try {
    content = read_file(path);
  } catch (const SystemError& e) {
    throw UsageError("--file", e.what());
  }
  const size_t first = content.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) {
    throw UsageError("--file", fmt::format("{} is empty", path));
  }
  return content[first] == '[' || content[first] == '{' ? parse_json(content) : parse_csv(content);
}

Series load_series(const SteadyStateOptions& opts) {
  if (!opts.file.empty() && !opts.values.empty()) {
    throw UsageError("--file", "give the values either as arguments or with --file, not both");
  }
  Series series;
  if (!opts.file.empty()) {
    series = load_file(opts.file);
  } else {
    for (size_t i = 0; i < opts.values.size(); ++i) {
      series.values.push_back(parse_value(opts.values[i], "VALUES", fmt::format("argument {}: ", i + 1)));
    }
  }
  if (series.values.empty()) {
    throw UsageError(opts.file.empty() ? "VALUES" : "--file",
                     "no values: give the per-round values as arguments or with --file");
  }
  if (series.rounds.empty()) {
    for (size_t i = 0; i < series.values.size(); ++i) {
      series.rounds.push_back(static_cast<uint32_t>(i + 1));
    }
  }
  for (size_t i = 1; i < series.rounds.size(); ++i) {
    if (series.rounds[i] <= series.rounds[i - 1]) {
      throw UsageError("--file", fmt::format("round {} follows round {}: round numbers must increase", series.rounds[i],
                                             series.rounds[i - 1]));
    }
  }
  return series;
}

pts::SteadyStateCriteria parse_criteria(const SteadyStateOptions& opts) {
  pts::SteadyStateCriteria criteria;
  const uint64_t window = units::parse_count(opts.window, "--window");
  if (window < 2 || window > std::numeric_limits<uint32_t>::max()) {
    throw UsageError("--window", fmt::format("{} rounds: the window needs at least 2 rounds (PTS: 5)", window));
  }
  criteria.window_rounds = static_cast<uint32_t>(window);
  criteria.data_excursion_pct = units::parse_percent(opts.data_pct, "--data-pct");
  criteria.slope_excursion_pct = units::parse_percent(opts.slope_pct, "--slope-pct");
  return criteria;
}

int run_steady_state(const SteadyStateOptions& opts) {
  const pts::SteadyStateCriteria criteria = parse_criteria(opts);
  const Series series = load_series(opts);
  const std::string name = !opts.name.empty() ? opts.name : series.name;
  const pts::SteadyStateVerdict verdict = pts::evaluate_window(name, series.rounds, series.values, criteria);
  const std::optional<pts::SteadyStateVerdict> first =
      pts::first_attained_window(name, series.rounds, series.values, criteria);
  if (opts.json) {
    nlohmann::json j = verdict;
    j["first_attained_round"] = first ? nlohmann::json(first->window_last_round) : nlohmann::json(nullptr);
    fmt::print("{}\n", j.dump(2));
  } else {
    std::string text = pts::format_verdict_text(verdict);
    if (first) {
      text += fmt::format("  first attained   round {} (window rounds {}-{})\n", first->window_last_round,
                          first->window_first_round, first->window_last_round);
    } else {
      text +=
          fmt::format("  first attained   never (no {}-round window of the series passes)\n", criteria.window_rounds);
    }
    fmt::print("{}", text);
  }
  return static_cast<int>(verdict.attained ? ExitCode::success : ExitCode::negative_verdict);
}

}  // namespace

void register_steady_state_command(CLI::App& app, CommandSlot& slot) {
  auto opts = std::make_shared<SteadyStateOptions>();
  CLI::App* command = app.add_subcommand(
      "steady-state", "Check the PTS steady-state rule on per-round values (exit 0 attained, 1 not)");
  command->add_option("VALUES", opts->values, "Per-round values of the tracking variable, round 1 first")
      ->type_name("NUMBER ...");
  command
      ->add_option("--file", opts->file,
                   "Read the values from a CSV (value or round,value lines) or JSON (array, or "
                   "{\"rounds\":[...],\"values\":[...]}) file")
      ->type_name("FILE");
  command->add_option("--window", opts->window, "Rounds in the measurement window (default 5)")->type_name("N");
  command->add_option("--data-pct", opts->data_pct, "Allowed max-min excursion, % of the window average (default 20)")
      ->type_name("PCT");
  command
      ->add_option("--slope-pct", opts->slope_pct,
                   "Allowed excursion of the least-squares line, % of the window average (default 10)")
      ->type_name("PCT");
  command->add_option("--name", opts->name, "Name of the tracking variable, for the output")->type_name("NAME");
  command->add_flag("--json", opts->json, "Print the verdict as JSON");
  command->callback([opts, &slot] { slot.action = [opts] { return run_steady_state(*opts); }; });
}

}  // namespace ptsuite::cli
