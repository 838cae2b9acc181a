#include <ptsuite/pts/round_loop.hpp>

#include <fmt/format.h>
#include <algorithm>

#include <ptsuite/pts/window.hpp>
#include <ptsuite/stats/stats_json.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::pts {

using nlohmann::json;

std::string round_step_name(uint32_t round, size_t segment_index) {
  return fmt::format("r{:03}-s{:02}", round, segment_index);
}

std::vector<TrackingSeries> PhaseRecord::tracking_series() const {
  std::vector<TrackingSeries> out;
  for (const TrackingSpec& t : tracking) {
    TrackingSeries s;
    s.name = t.name;
    for (const RoundRecord& r : rounds) {
      s.rounds.push_back(r.round);
      s.values.push_back(metric_value(r.segments.at(t.segment_index), t.metric));
    }
    out.push_back(std::move(s));
  }
  return out;
}

PhaseRecord run_rounds(StepExecutor& exec, const RoundLoopSpec& spec) {
  PhaseRecord rec;
  rec.phase = spec.phase;
  rec.conditioning = spec.conditioning;
  rec.stop_at_steady_state = spec.stop_at_steady_state;
  rec.cap_setting = spec.cap_setting;
  rec.segments = spec.segments;
  for (SegmentSpec& s : rec.segments) {
    s.warmup_ns = spec.segment_warmup_ns;
  }
  rec.tracking = spec.tracking;
  rec.criteria = spec.criteria;
  rec.first_check_round = spec.first_check_round;
  rec.max_rounds = spec.max_rounds;
  if (spec.max_rounds == 0 || spec.first_check_round == 0 || spec.criteria.window_rounds < 2) {
    throw Error(ExitCode::system,
                fmt::format("{}/{}: the Round rules were not set from pts/common.json", spec.test, spec.phase));
  }
  for (const TrackingSpec& t : spec.tracking) {
    if (t.segment_index >= spec.segments.size()) {
      throw Error(ExitCode::system, fmt::format("tracking variable {} points past the Round template", t.name));
    }
  }

  for (uint32_t round = 1; round <= spec.max_rounds; ++round) {
    RoundRecord rr;
    rr.round = round;
    if (spec.before_round) {
      rr.before_round = spec.before_round(round);
    }
    for (size_t i = 0; i < spec.segments.size(); ++i) {
      rr.segments.push_back(
          run_segment(exec, StepId{spec.test, spec.phase, round_step_name(round, i)}, rec.segments[i]));
    }
    if (spec.health_each_round) {
      StepRequest health;
      health.kind = StepKind::health;
      rr.health = exec.execute(StepId{spec.test, spec.phase, fmt::format("r{:03}-health", round)}, health);
    }
    rec.rounds.push_back(std::move(rr));
    if (round >= spec.first_check_round) {
      const std::vector<TrackingSeries> series = rec.tracking_series();
      const bool attained = evaluate_all(series, spec.criteria).attained;
      rec.checks.push_back({round, attained});
      if (attained && spec.stop_at_steady_state) {
        break;
      }
    }
  }

  const std::vector<TrackingSeries> series = rec.tracking_series();
  rec.steady_state = evaluate_all(series, spec.criteria);
  const size_t n = rec.rounds.size();
  const size_t window =
      std::min<size_t>(spec.window_last_rounds > 0 ? spec.window_last_rounds : spec.criteria.window_rounds, n);
  if (n > 0) {
    rec.window_first_round = rec.rounds[n - window].round;
    rec.window_last_round = rec.rounds.back().round;
    for (size_t i = 0; i < spec.segments.size(); ++i) {
      std::vector<const SegmentResult*> cells;
      results::LatencyMaxima largest;
      for (size_t r = n - window; r < n; ++r) {
        const stats::IoSummary& s = rec.rounds[r].segments[i].summary;
        largest = {std::max(largest.read, s.read.latency_max_ns), std::max(largest.write, s.write.latency_max_ns),
                   std::max(largest.combined, s.combined.latency_max_ns)};
        cells.push_back(&rec.rounds[r].segments[i]);
      }
      rec.window.push_back(aggregate_window(cells, spec.window_statistics));
      rec.window_max_ns.push_back(largest);
    }
  }
  return rec;
}

namespace {

std::vector<results::PhaseTracking> tracking_records(const PhaseRecord& p) {
  std::vector<results::PhaseTracking> out;
  const std::vector<TrackingSeries> series = p.tracking_series();
  for (size_t i = 0; i < p.tracking.size(); ++i) {
    const TrackingSpec& t = p.tracking[i];
    const double divisor = metric_display_divisor(t.metric);
    std::string formula;
    if (i < p.steady_state.variables.size()) {
      const SteadyStateVerdict& v = p.steady_state.variables[i];
      formula = format_fit(LinearFit{v.slope / divisor, v.intercept / divisor});
    }
    out.push_back({t.name,
                   static_cast<uint32_t>(t.segment_index),
                   p.segments.at(t.segment_index).label,
                   to_string(t.metric),
                   metric_unit(t.metric),
                   {metric_display_unit(t.metric), divisor, formula},
                   series[i].rounds,
                   series[i].values});
  }
  return out;
}

results::PhaseSteadyState steady_state_record(const PhaseRecord& p) {
  results::PhaseSteadyState s;
  s.criteria = record_of(p.criteria);
  s.first_check_round = p.first_check_round;
  s.max_rounds = p.max_rounds;
  s.rounds_run = p.rounds_run();
  s.attained = p.attained();
  s.stop_at_steady_state = p.stop_at_steady_state;
  s.round_cap_setting = p.cap_setting;
  for (const SteadyStateCheck& c : p.checks) {
    s.checks.push_back({c.round, c.attained});
    if (c.attained && !s.attained_round) {
      s.attained_round = c.round;
    }
  }
  s.verdicts = record_of(p.steady_state);
  return s;
}

}  // namespace

results::RoundPhase record_of(const PhaseRecord& p) {
  results::RoundPhase out;
  out.phase = p.phase;
  out.conditioning = p.conditioning;
  for (const SegmentSpec& s : p.segments) {
    out.round_template.emplace_back(json(s));
  }
  for (const RoundRecord& r : p.rounds) {
    results::PhaseRound round{r.round, {}, results::Embedded(r.before_round), results::Embedded(r.health)};
    for (const SegmentResult& s : r.segments) {
      round.segments.emplace_back(json(s));
    }
    out.rounds.push_back(std::move(round));
  }
  out.tracking = tracking_records(p);
  out.steady_state = steady_state_record(p);
  out.measurement_window.first_round = p.window_first_round;
  out.measurement_window.last_round = p.window_last_round;
  for (size_t i = 0; i < p.window.size(); ++i) {
    std::optional<results::LatencyMaxima> largest;
    if (i < p.window_max_ns.size()) {
      largest = p.window_max_ns[i];
    }
    out.measurement_window.cells.push_back(
        {static_cast<uint32_t>(i), p.segments[i].label, results::Embedded(json(p.window[i])), largest});
  }
  return out;
}

void to_json(json& j, const PhaseRecord& p) { j = record_of(p); }

void from_json(const json& j, PhaseRecord& p) {
  p.phase = j.at("phase").get<std::string>();
  p.conditioning = j.value("conditioning", json()).is_string() ? j.at("conditioning").get<std::string>() : "";
  p.segments = j.at("round_template").get<std::vector<SegmentSpec>>();
  p.tracking.clear();
  for (const json& t : j.at("tracking")) {
    p.tracking.push_back({t.at("name").get<std::string>(), t.at("segment_index").get<size_t>(),
                          parse_metric(t.at("metric").get<std::string>())});
  }
  p.rounds.clear();
  for (const json& r : j.at("rounds")) {
    RoundRecord rr;
    rr.round = r.at("round").get<uint32_t>();
    rr.segments = r.at("segments").get<std::vector<SegmentResult>>();
    rr.before_round = r.value("before_round", json());
    rr.health = r.value("health", json());
    p.rounds.push_back(std::move(rr));
  }
  const json& ss = j.at("steady_state");
  p.criteria = ss.at("criteria").get<SteadyStateCriteria>();
  p.first_check_round = ss.at("first_check_round").get<uint32_t>();
  p.max_rounds = ss.at("max_rounds").get<uint32_t>();
  p.stop_at_steady_state = ss.value("stop_rule", "steady-state") != "fixed";
  p.cap_setting = ss.value("round_cap_setting", "max_rounds");
  p.checks.clear();
  for (const json& c : ss.at("checks")) {
    p.checks.push_back({c.at("round").get<uint32_t>(), c.at("attained").get<bool>()});
  }
  p.steady_state = ss.at("verdicts").get<SteadyStateResult>();
  const json& w = j.at("measurement_window");
  p.window_first_round = w.at("first_round").get<uint32_t>();
  p.window_last_round = w.at("last_round").get<uint32_t>();
  p.window.clear();
  p.window_max_ns.clear();
  for (const json& c : w.at("cells")) {
    p.window.push_back(c.at("summary").get<stats::IoSummary>());
    if (c.contains("latency_max_ns")) {
      const json& m = c.at("latency_max_ns");
      p.window_max_ns.push_back(
          {m.at("read").get<uint64_t>(), m.at("write").get<uint64_t>(), m.at("combined").get<uint64_t>()});
    }
  }
}

}  // namespace ptsuite::pts
