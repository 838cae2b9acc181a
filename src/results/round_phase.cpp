#include <ptsuite/results/round_phase.hpp>

#include <ptsuite/results/json_read.hpp>
#include <ptsuite/results/series.hpp>

namespace ptsuite::results {

namespace {

// Items is `const std::vector<Embedded>` (copied) or `std::vector<Embedded>` (released).
template <typename Items>
nlohmann::json embedded_array(Items& items) {
  nlohmann::json out = nlohmann::json::array();
  for (auto& e : items) {
    out.push_back(take(e));
  }
  return out;
}

// Borrowed: each points into the document, not a copy.
std::vector<Embedded> read_embedded_array(const nlohmann::json& j) { return read_each(j, &Embedded::borrow); }

nlohmann::json tracking_json(const PhaseTracking& t) {
  return {
      {"name", t.name},
      {"segment_index", t.segment_index},
      {"segment_label", t.segment_label},
      {"metric", t.metric},
      {"unit", t.unit},
      {"display", {{"unit", t.display.unit}, {"divisor", t.display.divisor}, {"fit_formula", t.display.fit_formula}}},
      {"rounds", t.rounds},
      {"values", t.values}};
}

PhaseTracking read_tracking(const nlohmann::json& j) {
  PhaseTracking t;
  t.name = str(j, "name");
  t.segment_index = count32(at(j, "segment_index"));
  t.segment_label = str(j, "segment_label");
  t.metric = str(j, "metric");
  t.unit = str(j, "unit");
  const nlohmann::json& display = at(j, "display");
  t.display = {str(display, "unit"), num(at(display, "divisor")), str(display, "fit_formula")};
  t.rounds = counts32(at(j, "rounds"));
  t.values = read_numbers(at(j, "values"));
  return t;
}

nlohmann::json steady_state_json(const PhaseSteadyState& s) {
  nlohmann::json checks = nlohmann::json::array();
  for (const SteadyStateCheckRecord& c : s.checks) {
    checks.push_back({{"round", c.round}, {"attained", c.attained}});
  }
  return {{"criteria", s.criteria},
          {"first_check_round", s.first_check_round},
          {"max_rounds", s.max_rounds},
          {"rounds_run", s.rounds_run},
          {"attained", s.attained},
          {"attained_round", s.attained_round ? nlohmann::json(*s.attained_round) : nlohmann::json()},
          {"stop_rule", s.stop_at_steady_state ? "steady-state" : "fixed"},
          {"round_cap_setting", s.round_cap_setting},
          {"checks", std::move(checks)},
          {"verdicts", s.verdicts}};
}

PhaseSteadyState read_phase_steady_state(const nlohmann::json& j) {
  PhaseSteadyState s;
  s.criteria = read_steady_state_criteria(at(j, "criteria"));
  s.first_check_round = count32(at(j, "first_check_round"));
  s.max_rounds = count32(at(j, "max_rounds"));
  s.rounds_run = count32(at(j, "rounds_run"));
  s.stop_at_steady_state = str(j, "stop_rule") != "fixed";
  if (const std::string cap = str(j, "round_cap_setting"); !cap.empty()) {
    s.round_cap_setting = cap;
  }
  s.attained = at(j, "attained") == true;
  if (at(j, "attained_round").is_number_unsigned()) {
    s.attained_round = count32(at(j, "attained_round"));
  }
  for (const nlohmann::json& c : array(j, "checks")) {
    s.checks.push_back({count32(at(c, "round")), at(c, "attained") == true});
  }
  s.verdicts = read_steady_state_verdicts(at(j, "verdicts"));
  return s;
}

template <typename Window>  // MeasurementWindow, const or not
nlohmann::json window_json(Window& w) {
  nlohmann::json cells = nlohmann::json::array();
  for (auto& c : w.cells) {
    nlohmann::json cell{{"segment_index", c.segment_index}, {"label", c.label}, {"summary", take(c.summary)}};
    if (c.max_ns) {
      cell["latency_max_ns"] = {{"read", c.max_ns->read}, {"write", c.max_ns->write}, {"combined", c.max_ns->combined}};
    }
    cells.push_back(std::move(cell));
  }
  return {{"first_round", w.first_round}, {"last_round", w.last_round}, {"cells", std::move(cells)}};
}

MeasurementWindow read_window(const nlohmann::json& j) {
  MeasurementWindow w;
  w.first_round = count32(at(j, "first_round"));
  w.last_round = count32(at(j, "last_round"));
  for (const nlohmann::json& c : array(j, "cells")) {
    WindowCell cell{count32(at(c, "segment_index")), str(c, "label"), Embedded::borrow(at(c, "summary")), {}};
    if (const nlohmann::json& m = at(c, "latency_max_ns"); m.is_object()) {
      cell.max_ns = LatencyMaxima{count(at(m, "read")), count(at(m, "write")), count(at(m, "combined"))};
    }
    w.cells.push_back(std::move(cell));
  }
  return w;
}

// The one body of both writers: Phase is `const RoundPhase` (sub-documents copied) or
// `RoundPhase` (an rvalue being written: sub-documents released, never held twice).
template <typename Phase>
void write_phase(nlohmann::json& j, Phase& p) {
  nlohmann::json rounds = nlohmann::json::array();
  for (auto& r : p.rounds) {
    rounds.push_back({{"round", r.round},
                      {"segments", embedded_array(r.segments)},
                      {"before_round", take(r.before_round)},
                      {"health", take(r.health)}});
  }
  nlohmann::json tracking = nlohmann::json::array();
  for (const PhaseTracking& t : p.tracking) {
    tracking.push_back(tracking_json(t));
  }
  j = {{"phase", p.phase},
       {"conditioning", p.conditioning.empty() ? nlohmann::json() : nlohmann::json(p.conditioning)},
       {"round_template", embedded_array(p.round_template)},
       {"rounds", std::move(rounds)},
       {"tracking", std::move(tracking)},
       {"steady_state", steady_state_json(p.steady_state)},
       {"measurement_window", window_json(p.measurement_window)}};
}

}  // namespace

void to_json(nlohmann::json& j, const RoundPhase& p) { write_phase(j, p); }
void to_json(nlohmann::json& j, RoundPhase&& p) { write_phase(j, p); }

RoundPhase read_round_phase(const nlohmann::json& phase) {
  RoundPhase p;
  p.phase = str(phase, "phase");
  p.conditioning = str(phase, "conditioning");
  p.round_template = read_embedded_array(at(phase, "round_template"));
  for (const nlohmann::json& r : array(phase, "rounds")) {
    p.rounds.push_back({count32(at(r, "round")), read_embedded_array(at(r, "segments")),
                        Embedded::borrow(at(r, "before_round")), Embedded::borrow(at(r, "health"))});
  }
  for (const nlohmann::json& t : array(phase, "tracking")) {
    p.tracking.push_back(read_tracking(t));
  }
  p.steady_state = read_phase_steady_state(at(phase, "steady_state"));
  p.measurement_window = read_window(at(phase, "measurement_window"));
  return p;
}

std::vector<RoundPhase> read_round_phases(const nlohmann::json& phases) { return read_each(phases, read_round_phase); }

}  // namespace ptsuite::results
