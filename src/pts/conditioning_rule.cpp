#include <ptsuite/pts/conditioning_rule.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>
#include <utility>

#include <ptsuite/results/demand_sweep.hpp>
#include <ptsuite/results/round_phase.hpp>
#include <ptsuite/results/segment_result.hpp>
#include <ptsuite/results/wipc.hpp>
#include <ptsuite/results/xsr.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {

namespace {

using nlohmann::json;

[[noreturn]] void table_defect(const std::string& what) {
  throw Error(
      ExitCode::system,
      fmt::format("built-in PTS data common.json conditioning_rules: {} (a defect in pts/; please report it)", what));
}

ConditioningFloor parse_floor(const json& node, const std::string& where) {
  if (!node.is_object() || !node.contains("value") || !node.value("clause", json()).is_string() ||
      !node.value("tag", json()).is_string() || !node.value("source", json()).is_string()) {
    table_defect(where + ": a floor needs value, clause, tag and source");
  }
  return {node.at("value"),
          {node.at("clause").get<std::string>(), parse_confidence(node.at("tag").get<std::string>()),
           node.at("source").get<std::string>()}};
}

std::vector<std::pair<std::string, ConditioningFloor>> parse_floors(const json& rule, const char* key,
                                                                    const std::string& id) {
  std::vector<std::pair<std::string, ConditioningFloor>> out;
  const json floors = rule.value(key, json::object());
  for (auto it = floors.begin(); it != floors.end(); ++it) {
    out.emplace_back(it.key(), parse_floor(it.value(), fmt::format("{} {} {}", id, key, it.key())));
  }
  return out;
}

// The floor in the rule's measure for `item`: a capacity multiple, or nanoseconds.
double floor_amount(const ConditioningFloor& f, const ConditioningItem& item, const std::string& measure) {
  if (measure == "capacity") {
    return f.value.get<double>();
  }
  if (f.value.is_object()) {  // Rounds of the phase's own template at a segment length
    const uint64_t segment_ns = units::parse_duration_ns(f.value.at("segment").get<std::string>(), "floor");
    return static_cast<double>(f.value.at("rounds").get<uint64_t>()) * static_cast<double>(item.round_segments) *
           static_cast<double>(segment_ns);
  }
  return static_cast<double>(units::parse_duration_ns(f.value.get<std::string>(), "floor"));
}

std::string floor_text(const ConditioningFloor& f, const ConditioningItem& item, const std::string& measure) {
  if (measure == "capacity") {
    return fmt::format("{:g}X user capacity", f.value.get<double>());
  }
  if (f.value.is_object()) {
    return fmt::format("{} Rounds x {} segments x {} = {}", f.value.at("rounds").get<uint64_t>(), item.round_segments,
                       f.value.at("segment").get<std::string>(),
                       units::format_duration(static_cast<uint64_t>(floor_amount(f, item, measure))));
  }
  return f.value.get<std::string>();
}

// An item of `kind` in `phase`, its amounts still zero.
ConditioningItem item_of(std::string kind, std::string phase) {
  ConditioningItem item;
  item.kind = std::move(kind);
  item.phase = std::move(phase);
  return item;
}

void wipc_items(const results::TestRecord& rec, std::vector<ConditioningItem>& out) {
  const auto pass_item = [](const char* kind, const std::string& phase, const results::WipcPass& pass) {
    const uint64_t written = pass.written_bytes().value_or(0);
    const double done = pass.bytes_target == 0
                            ? 0.0
                            : std::min(1.0, static_cast<double>(written) / static_cast<double>(pass.bytes_target));
    ConditioningItem item = item_of(kind, phase);
    item.capacity_multiple = pass.capacity_multiple * done;
    item.amount_text = fmt::format("{:g}X user capacity written", item.capacity_multiple);
    return item;
  };
  for (const results::WipcRecord& w : rec.preconditioning) {
    out.push_back(pass_item("wipc", w.phase, w.pass));
    if (w.random_pass) {
      out.push_back(pass_item("wipc-random", w.phase, *w.random_pass));
    }
  }
}

// A Round phase of a conditioning kind: Rounds run x the template's segment lengths; and the
// pre-writes that ran before its Rounds (one item per kind, the shortest of them).
void phase_items(const results::RoundPhase& phase, std::vector<ConditioningItem>& out) {
  if (!phase.conditioning.empty()) {
    uint64_t round_ns = 0;
    for (const results::Embedded& s : phase.round_template) {
      round_ns += results::read_segment_spec(s).duration_ns.value_or(0);
    }
    ConditioningItem item = item_of(phase.conditioning, phase.phase);
    item.rounds = phase.steady_state.rounds_run;
    item.round_segments = phase.round_template.size();
    item.time_ns = item.rounds * round_ns;
    item.amount_text = fmt::format("{} Rounds x {} = {}", item.rounds,
                                   item.round_segments == 1 ? units::format_duration(round_ns)
                                                            : fmt::format("{} segments ({})", item.round_segments,
                                                                          units::format_duration(round_ns)),
                                   units::format_duration(item.time_ns));
    out.push_back(std::move(item));
  }
  ConditioningItem prewrite;
  size_t count = 0;
  for (const results::PhaseRound& r : phase.rounds) {
    const std::optional<results::BeforeRoundRecord> before = results::read_before_round(r.before_round);
    if (!before || before->kind.empty()) {
      continue;
    }
    const uint64_t ns = before->spec.duration_ns.value_or(0);
    prewrite.time_ns = count == 0 ? ns : std::min(prewrite.time_ns, ns);
    prewrite.kind = before->kind;
    ++count;
  }
  if (count > 0) {
    prewrite.phase = phase.phase;
    prewrite.amount_text = fmt::format("{} of {} ({})", count, units::format_duration(prewrite.time_ns),
                                       count == 1 ? "one pre-write" : "the shortest of them");
    out.push_back(std::move(prewrite));
  }
}

void block_items(const results::TestRecord& rec, std::vector<ConditioningItem>& out) {
  if (const auto* sweep = rec.block_as<results::DemandSweepBlock>(); sweep != nullptr && !sweep->prewrites.empty()) {
    ConditioningItem item = item_of("operating-point-prewrite", "operating points");
    item.time_ns = std::numeric_limits<uint64_t>::max();
    std::vector<std::string> names;
    for (const results::DemandPrewrite& p : sweep->prewrites) {
      item.time_ns = std::min(item.time_ns, results::read_segment_spec(p.spec).duration_ns.value_or(0));
      names.push_back(p.name);
    }
    item.amount_text = fmt::format("{} ({}) of {} each at least", names.size(), fmt::join(names, ", "),
                                   units::format_duration(item.time_ns));
    out.push_back(std::move(item));
  }
  if (const auto* xsr = rec.block_as<results::XsrBlock>(); xsr != nullptr) {
    for (const results::XsrGroup& g : xsr->groups) {
      ConditioningItem item = item_of("access-group", g.name);
      item.time_ns = g.duration_ns;
      item.amount_text = fmt::format("{} of {}", units::format_duration(g.duration_ns), g.stimulus);
      out.push_back(std::move(item));
    }
  }
}

std::string shaping_setting_text(const SettingRecord& r) {
  const std::string value = r.value.is_string() ? r.value.get<std::string>() : r.value.dump();
  return fmt::format("{} = {} ({})", r.name, value, r.changed_by.empty() ? "changed" : r.changed_by);
}

// The changed settings the test read that match one of the rule's patterns for this item.
std::vector<const SettingRecord*> shaping_settings(const ConditioningRule& rule, const ConditioningItem& item,
                                                   const results::TestRecord& rec, const Settings& settings) {
  std::vector<const SettingRecord*> out;
  for (const SettingRecord* r : settings.changed()) {
    const bool read = std::any_of(rec.header.parameters.begin(), rec.header.parameters.end(),
                                  [&](const results::ParameterRecord& p) { return p.setting == r->name; });
    const bool matches = std::any_of(rule.settings.begin(), rule.settings.end(), [&](const std::string& pattern) {
      return conditioning_setting_matches(pattern, r->name, rec.header.id, item.phase);
    });
    if (read && matches) {
      out.push_back(r);
    }
  }
  return out;
}

ConditioningFinding judge_item(const ConditioningRule& rule, const ConditioningItem& item,
                               const results::TestRecord& rec, const Settings& settings) {
  const ConditioningFloor& floor = rule.floor_for(rec.header.id, item.phase);
  const double done = rule.measure == "capacity" ? item.capacity_multiple : static_cast<double>(item.time_ns);
  const double least = floor_amount(floor, item, rule.measure);
  ConditioningFinding f;
  f.kind = rule.id;
  f.phase = item.phase;
  f.spec_ref = floor.provenance.clause;
  // Relative slack far below any printed digit: a capacity multiple that is the floor exactly
  // must not fail on the rounding of written / target.
  f.shortened = done < least * (1 - 1e-9);
  std::vector<std::string> shaped;
  for (const SettingRecord* r : shaping_settings(rule, item, rec, settings)) {
    f.settings.push_back(r->name);
    shaped.push_back(shaping_setting_text(*r));
  }
  f.detail = fmt::format("{} ({}): {}, {} {} ([{}] {})", rule.what, item.phase, item.amount_text,
                         f.shortened ? "below" : "at or above", floor_text(floor, item, rule.measure),
                         to_tag(floor.provenance.tag), floor.provenance.source);
  if (!shaped.empty()) {
    f.detail += fmt::format("; set by {}", fmt::join(shaped, ", "));
  }
  return f;
}

}  // namespace

const ConditioningFloor& ConditioningRule::floor_for(const std::string& test_id, const std::string& phase) const {
  for (const auto& [name, f] : by_phase) {
    if (name == phase) return f;
  }
  for (const auto& [name, f] : by_test) {
    if (name == test_id) return f;
  }
  return floor;
}

std::vector<ConditioningRule> conditioning_rules(const DefinitionSet& defs) {
  std::vector<ConditioningRule> out;
  for (const json& node : defs.conditioning_rules()) {
    ConditioningRule r;
    r.id = node.value("id", "");
    r.what = node.value("what", r.id);
    r.measure = node.value("measure", "");
    if (r.id.empty() || (r.measure != "capacity" && r.measure != "time")) {
      table_defect(fmt::format("rule \"{}\" needs an id and a measure (capacity or time)", r.id));
    }
    for (const json& s : node.value("settings", json::array())) {
      r.settings.push_back(s.get<std::string>());
    }
    r.floor = parse_floor(node.value("floor", json()), r.id);
    r.by_test = parse_floors(node, "by_test", r.id);
    r.by_phase = parse_floors(node, "by_phase", r.id);
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<ConditioningItem> conditioning_items(const results::TestRecord& record) {
  std::vector<ConditioningItem> out;
  wipc_items(record, out);
  for (const results::RoundPhase& phase : record.phases) {
    phase_items(phase, out);
  }
  block_items(record, out);
  return out;
}

std::vector<ConditioningFinding> judge_conditioning(const results::TestRecord& record, const DefinitionSet& defs,
                                                    const Settings& settings) {
  const std::vector<ConditioningItem> items = conditioning_items(record);
  std::vector<ConditioningFinding> out;
  for (const ConditioningRule& rule : conditioning_rules(defs)) {
    for (const ConditioningItem& item : items) {
      if (item.kind == rule.id) {
        out.push_back(judge_item(rule, item, record, settings));
      }
    }
  }
  return out;
}

bool conditioning_setting_matches(const std::string& pattern, const std::string& name, const std::string& test_id,
                                  const std::string& phase) {
  std::string p = pattern;
  std::string phase_key = phase;
  std::replace(phase_key.begin(), phase_key.end(), '-', '_');
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"{test}", test_id}, {"{phase}", phase_key}}) {
    for (size_t at = p.find(key); at != std::string::npos; at = p.find(key, at + value.size())) {
      p.replace(at, key.size(), value);
    }
  }
  if (!p.empty() && p.back() == '*') {
    p.pop_back();
    return name.rfind(p, 0) == 0;
  }
  return name == p;
}

}  // namespace ptsuite::pts
