// `ptsuite steady-state`: an auditor's re-check of the PTS steady-state rule on any series of
// per-round values (docs/steady-state.md). The values come as arguments or from --file:
//   CSV   one value per line, or "round,value" lines; an optional header line; blank lines
//         and lines starting with '#' are ignored.
//   JSON  an array of numbers, or {"rounds": [...], "values": [...], "name": "..."} (rounds
//         and name optional).
// Parsing is pts/steady_state_input.hpp; the defaults of --window / --data-pct / --slope-pct are
// the steady-state rule of pts/common.json. Rounds are numbered 1..n unless given. Prints the verdict table (or the
// verdict as JSON with
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

#include <ptsuite/pts/definitions.hpp>
#include <ptsuite/pts/steady_state.hpp>
#include <ptsuite/pts/steady_state_input.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/units.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"
#include "cli/path_roles.hpp"

namespace ptsuite::cli {

namespace {

struct SteadyStateOptions {
  std::vector<std::string> values;
  std::string file;
  // The PTS rule, from pts/common.json (register_steady_state_command fills them).
  std::string window;
  std::string data_pct;
  std::string slope_pct;
  std::string name;
  bool json = false;
};

pts::TrackingSeriesInput load_series(const SteadyStateOptions& opts) {
  if (!opts.file.empty() && !opts.values.empty()) {
    throw UsageError("--file", "give the values either as arguments or with --file, not both");
  }
  pts::TrackingSeriesInput series;
  if (!opts.file.empty()) {
    series = pts::load_tracking_file(opts.file);
  } else {
    for (size_t i = 0; i < opts.values.size(); ++i) {
      series.values.push_back(pts::parse_tracking_value(opts.values[i], "VALUES", fmt::format("argument {}: ", i + 1)));
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

// `ptsuite steady-state --json`: the verdict of the last window and the first window that
// attained steady state ("first_attained_round": its last Round, null when none did).
struct SteadyStateReport {
  pts::SteadyStateVerdict verdict;
  std::optional<pts::SteadyStateVerdict> first;
};

void to_json(nlohmann::json& j, const SteadyStateReport& r) {
  j = r.verdict;
  j["first_attained_round"] = r.first ? nlohmann::json(r.first->window_last_round) : nlohmann::json(nullptr);
}

int run_steady_state(const SteadyStateOptions& opts) {
  const pts::SteadyStateCriteria criteria = parse_criteria(opts);
  const pts::TrackingSeriesInput series = load_series(opts);
  const std::string name = !opts.name.empty() ? opts.name : series.name;
  const pts::SteadyStateVerdict verdict = pts::evaluate_window(name, series.rounds, series.values, criteria);
  const std::optional<pts::SteadyStateVerdict> first =
      pts::first_attained_window(name, series.rounds, series.values, criteria);
  if (opts.json) {
    fmt::print("{}\n", nlohmann::json(SteadyStateReport{verdict, first}).dump(2));
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
  const nlohmann::json& rule = pts::DefinitionSet::embedded().common().at("steady_state");
  opts->window = rule.at("window_rounds").at("value").dump();
  opts->data_pct = rule.at("data_excursion_pct").at("value").dump();
  opts->slope_pct = rule.at("slope_excursion_pct").at("value").dump();
  CLI::App* command = app.add_subcommand(
      "steady-state", "Check the PTS steady-state rule on per-round values (exit 0 attained, 1 not)");
  command->add_option("VALUES", opts->values, "Per-round values of the tracking variable, round 1 first")
      ->check(paths::none())
      ->type_name("NUMBER ...");
  command
      ->add_option("--file", opts->file,
                   "Read the values from a CSV (value or round,value lines) or JSON (array, or "
                   "{\"rounds\":[...],\"values\":[...]}) file")
      ->check(paths::input())
      ->type_name("FILE");
  command->add_option("--window", opts->window, "Rounds in the measurement window (default: the PTS rule)")
      ->check(paths::none())
      ->type_name("N");
  command
      ->add_option("--data-pct", opts->data_pct,
                   "Allowed max-min excursion, % of the window average (default: the PTS rule)")
      ->check(paths::none())
      ->type_name("PCT");
  command
      ->add_option("--slope-pct", opts->slope_pct,
                   "Allowed excursion of the least-squares line, % of the window average (default: the PTS rule)")
      ->check(paths::none())
      ->type_name("PCT");
  command->add_option("--name", opts->name, "Name of the tracking variable, for the output")
      ->check(paths::none())
      ->type_name("NAME");
  add_shared_flag(command, "--json", opts->json, "Print the verdict as JSON");
  command->callback([opts, &slot] {
    slot.fields = FieldFlags{{"file", "--file"}};
    slot.action = [opts] { return run_steady_state(*opts); };
  });
}

}  // namespace ptsuite::cli
