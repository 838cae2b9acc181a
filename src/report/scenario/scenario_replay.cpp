#include "report/scenario/scenario_replay.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ptsuite::report::scenario_detail {

ReplayTotals replay_totals(const std::vector<const results::ReplayFigures*>& steps) {
  ReplayTotals t;
  uint64_t length_ns = 0;
  for (const results::ReplayFigures* f : steps) {
    t.ios += f->ios;
    t.bytes += f->bytes;
    length_ns += f->length_ns;
  }
  if (length_ns > 0) {
    const double seconds = static_cast<double>(length_ns) / 1e9;
    t.iops = static_cast<double>(t.ios) / seconds;
    t.mb_per_s = static_cast<double>(t.bytes) / 1e6 / seconds;
  }
  return t;
}

std::vector<ReplayRow> replay_rows(const results::PhaseRecord& phase) {
  std::vector<ReplayRow> out;
  for (const results::ScenarioReplay& r : phase.replays) {
    ReplayRow row;
    row.target = r.target;
    row.record = &r.record;
    std::vector<const results::ReplayFigures*> captured;
    std::vector<const results::ReplayFigures*> replayed;
    for (size_t i = 0; i < r.record.steps.size(); ++i) {
      captured.push_back(&r.record.steps[i].captured);
      replayed.push_back(&r.record.steps[i].replayed);
      if (r.record.steps[i].fell_behind) row.behind.push_back(i + 1);
    }
    row.captured = replay_totals(captured);
    row.replayed = replay_totals(replayed);
    out.push_back(std::move(row));
  }
  return out;
}

std::string kept_up_text(const ReplayRow& row) {
  if (row.record->mode == "closed") return "closed loop: as fast as the target";
  const size_t steps = row.record->steps.size();
  if (steps == 0) return "no step";
  if (row.behind.empty()) return fmt::format("kept up in all {} step{}", steps, steps == 1 ? "" : "s");
  return fmt::format("could not keep up in {} of {} steps ({})", row.behind.size(), steps, fmt::join(row.behind, ", "));
}

std::string us_text(const results::ReplayRecord& r, uint64_t ns) {
  return r.mode == "closed" ? "\u2013" : fmt::format("{:.1f}", static_cast<double>(ns) / 1e3);
}

std::string replay_mode_text(const results::ReplayRecord& r) {
  return r.mode == "closed" ? "closed" : fmt::format("{}, speed {:g}", r.mode, r.speed);
}

}  // namespace ptsuite::report::scenario_detail
