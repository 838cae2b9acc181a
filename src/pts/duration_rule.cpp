#include <ptsuite/pts/duration_rule.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <ptsuite/results/json_read.hpp>
#include <ptsuite/results/test_record.hpp>
#include <ptsuite/results/write_stream.hpp>

namespace ptsuite::pts {

namespace {

std::string text_of(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

RunEnding phase_ending(const results::RoundPhase& phase) {
  const results::PhaseSteadyState& ss = phase.steady_state;
  const std::string& cap = ss.round_cap_setting;
  if (!ss.stop_at_steady_state) {
    return {"round_cap", cap, fmt::format("the {} loop ran its fixed {} Rounds ({})", phase.phase, ss.rounds_run, cap)};
  }
  if (ss.attained) {
    return {"steady_state", "",
            fmt::format("the {} Round loop stopped at steady state, Round {}", phase.phase, ss.rounds_run)};
  }
  if (ss.rounds_run >= ss.max_rounds) {
    return {"round_cap", cap,
            fmt::format("the {} Round loop stopped at its cap ({} = {}) without steady state", phase.phase, cap,
                        ss.max_rounds)};
  }
  return {"incomplete", "", fmt::format("the {} Round loop ended after {} Rounds", phase.phase, ss.rounds_run)};
}

// WSAT and endurance-write: the block's stop reason.
void write_stream_ending(const results::TestRecord& rec, std::vector<RunEnding>& out) {
  const results::WriteStreamBlock* block = rec.block_as<results::WriteStreamBlock>();
  if (block == nullptr || block->stop_reason.empty()) {
    return;
  }
  const std::string& stop = block->stop_reason;
  const std::string test = rec.header.id;
  const double fills = block->capacity_bytes > 0
                           ? static_cast<double>(block->written_bytes) / static_cast<double>(block->capacity_bytes)
                           : 0.0;
  const std::string written = fmt::format("{} samples, {:.2f}X user capacity written", block->samples.size(), fills);
  if (stop == "capacity") {
    out.push_back({stop, "", fmt::format("{} stopped at its capacity multiple ({})", test, written)});
  } else if (stop == "time_limit") {
    out.push_back({stop, "", fmt::format("{} stopped at its time limit ({})", test, written)});
  } else if (stop == "steady_state") {
    out.push_back({stop, "", fmt::format("{} stopped at steady state of its check samples ({})", test, written)});
  } else if (stop == "round_cap") {
    out.push_back(
        {stop, "max_rounds", fmt::format("{} stopped at the Round cap without steady state ({})", test, written)});
  } else {
    out.push_back({stop, "", fmt::format("{} stopped: {} ({})", test, stop, written)});
  }
}

std::string endings_text(const std::vector<RunEnding>& endings) {
  std::vector<std::string> parts;
  for (const RunEnding& e : endings) {
    parts.push_back(e.what);
  }
  return parts.empty() ? "nothing recorded" : fmt::format("{}", fmt::join(parts, "; "));
}

// "below the spec value" for a [V]/[I] value; "below the floor F (source)" for a [U] value.
std::string below_text(const SettingRecord& r) {
  if (r.provenance.tag != Confidence::unverified) {
    return "below the spec value";
  }
  const std::string source = !r.floor_source.empty() ? r.floor_source
                             : r.floor == r.default_value
                                 ? "the default: no cited source uses less; " + r.provenance.source
                                 : r.provenance.source;
  return fmt::format("below the floor {} ({})", text_of(r.floor), source);
}

}  // namespace

std::vector<RunEnding> run_endings(const nlohmann::json& test_record) {
  return run_endings(results::read_test_record(test_record));
}

std::vector<RunEnding> run_endings(const results::TestRecord& test_record) {
  std::vector<RunEnding> out;
  for (const results::RoundPhase& phase : test_record.phases) {
    out.push_back(phase_ending(phase));
  }
  write_stream_ending(test_record, out);
  return out;
}

std::vector<RunEnding> stopped_by(const SettingRecord& setting, const std::vector<RunEnding>& endings) {
  std::vector<RunEnding> out;
  if (setting.limit.empty()) {
    return out;
  }
  for (const RunEnding& e : endings) {
    if (e.stop == setting.limit && (e.setting.empty() || e.setting == setting.name)) {
      out.push_back(e);
    }
  }
  return out;
}

DurationFinding judge_time_scaling(const SettingRecord& r, const std::vector<RunEnding>& endings) {
  const double value = setting_magnitude(r.type, r.value);
  const double floor = setting_magnitude(r.type, r.floor);
  const double spec = setting_magnitude(r.type, r.default_value);
  if (value < floor) {
    if (!r.limit.empty()) {
      const std::vector<RunEnding> stops = stopped_by(r, endings);
      if (stops.empty()) {
        return {DurationJudgement::cap_unused,
                fmt::format("a lowered limit that never stopped the run ({}): the run is the one the default gives",
                            endings_text(endings))};
      }
      return {DurationJudgement::shortened,
              fmt::format("{}; it stopped the run: {}", below_text(r), endings_text(stops))};
    }
    return {DurationJudgement::shortened, below_text(r)};
  }
  if (value > spec) {
    if (r.raised_is_deviation) {
      return {DurationJudgement::deviation, "the spec fixes this value: a larger one is a deviation"};
    }
    return {DurationJudgement::longer, "longer than the spec"};
  }
  return {DurationJudgement::unverified_at_floor,
          fmt::format("an unverified value at or above its floor {} ({})", text_of(r.floor),
                      r.floor_source.empty() ? "the default" : r.floor_source)};
}

}  // namespace ptsuite::pts
