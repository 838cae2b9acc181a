// Built-in scenarios (pts/scenarios/*.json, embedded), loading by name or path, and the
// --quick form.
#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <ptsuite/scenario/scenario.hpp>
#include <ptsuite/util/embedded.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/json_input.hpp>

namespace ptsuite::scenario {

namespace {

constexpr std::string_view k_prefix = "scenarios/";
constexpr std::string_view k_suffix = ".json";

}  // namespace

const char* to_string(PhaseKind kind) noexcept {
  switch (kind) {
    case PhaseKind::run:
      return "run";
    case PhaseKind::purge:
      return "purge";
    case PhaseKind::fill:
      return "fill";
    case PhaseKind::txq:
      return "txq";
    case PhaseKind::rate_ramp:
      return "rate_ramp";
    case PhaseKind::rate_steps:
      return "rate_steps";
    case PhaseKind::steady_state:
      return "steady_state";
    case PhaseKind::app:
      return "app";
    case PhaseKind::replay:
      return "replay";
  }
  return "run";
}

std::vector<std::string> builtin_scenarios() {
  std::vector<std::string> out;
  for (const EmbeddedFile& f : embedded_files()) {
    const std::string_view p = f.path;
    if (p.substr(0, k_prefix.size()) == k_prefix && p.size() > k_prefix.size() + k_suffix.size() &&
        p.substr(p.size() - k_suffix.size()) == k_suffix) {
      out.emplace_back(p.substr(k_prefix.size(), p.size() - k_prefix.size() - k_suffix.size()));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<std::string> builtin_scenario_text(const std::string& name) {
  const auto text = embedded_file(std::string(k_prefix) + name + std::string(k_suffix));
  if (!text) return std::nullopt;
  return std::string(*text);
}

Scenario load_scenario(const std::string& name_or_path, std::string* text_out) {
  std::string text;
  std::string where;
  if (const auto builtin = builtin_scenario_text(name_or_path)) {
    text = *builtin;
    where = "built-in scenario " + name_or_path;
  } else if (std::filesystem::is_regular_file(name_or_path)) {
    text = read_input_file(name_or_path, k_user_json_limits.max_bytes, name_or_path);
    where = name_or_path;
  } else {
    std::string names;
    for (const std::string& n : builtin_scenarios()) names += (names.empty() ? "" : ", ") + n;
    throw UsageError("SCENARIO", fmt::format("\"{}\" is neither a built-in scenario ({}) nor a file; copy one with "
                                             "`ptsuite scenario show NAME > my.json` and edit it",
                                             name_or_path, names));
  }
  Scenario s = parse_scenario(text, where);
  if (text_out) *text_out = text;
  return s;
}

Scenario quick_form(const Scenario& s) {
  Scenario q = s;
  for (PhaseSpec& p : q.phases) {
    // The interval series keeps its number of points: the period shrinks with the duration (a
    // 60 s phase at 1 s intervals, 1 s quick: 16.7 ms), never below the 10 ms minimum.
    if (p.interval_ns > 0 && p.duration_ns > s.quick.duration_ns) {
      const long double scaled = static_cast<long double>(p.interval_ns) *
                                 static_cast<long double>(s.quick.duration_ns) /
                                 static_cast<long double>(p.duration_ns);
      p.interval_ns = std::max<uint64_t>(workload::k_min_interval_ns, static_cast<uint64_t>(scaled));
    }
    p.duration_ns = std::min(p.duration_ns, s.quick.duration_ns);
    p.warmup_ns = std::min(p.warmup_ns, s.quick.duration_ns);
    p.fill_capacity_multiple = std::min(p.fill_capacity_multiple, s.quick.fill_capacity_multiple);
    p.max_rounds = std::min(p.max_rounds, s.quick.max_rounds);
    if (p.kind == PhaseKind::rate_steps && s.quick.rate_steps_stride > 1) {
      std::vector<double> kept;
      for (size_t i = 0; i < p.step_rates.size(); i += s.quick.rate_steps_stride) kept.push_back(p.step_rates[i]);
      if (kept.back() != p.step_rates.back()) kept.push_back(p.step_rates.back());
      p.step_rates = std::move(kept);
    }
  }
  return q;
}

}  // namespace ptsuite::scenario
