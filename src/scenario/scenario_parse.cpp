// parse_scenario(): every field of a ptsuite-scenario/1 document checked with its path and
// line/column (util/json_fields.hpp); named mixed profiles resolved from pts/scenarios/profiles.json.
#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <set>

#include <ptsuite/pts/rw_mix.hpp>
#include <ptsuite/replay/replay_source.hpp>
#include <ptsuite/scenario/profiles.hpp>
#include <ptsuite/scenario/scenario.hpp>
#include <ptsuite/util/json_fields.hpp>
#include <ptsuite/util/json_input.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/spec_parse.hpp>

namespace ptsuite::scenario {

using nlohmann::json;

namespace {

uint64_t duration_of(const json& j, const Fields& f, const char* key) {
  const uint64_t ns = f.parsed(j, key, [&](const std::string& t) { return units::parse_duration_ns(t, key); });
  if (ns == 0) f.fail(key, "must be longer than 0");
  return ns;
}

// The optional per-stream interval series period (at least 10 ms, as `workload --interval`).
uint64_t interval_of(const json& j, const Fields& f) {
  if (!j.contains("interval")) return 0;
  const uint64_t ns = duration_of(j, f, "interval");
  if (ns < workload::k_min_interval_ns) f.fail("interval", "must be at least 10ms");
  return ns;
}

void parse_mix(const json& j, const Fields& f, StreamSpec& s) {
  if (j.contains("profile")) {
    if (j.contains("rw_mix") || j.contains("block_size") || j.contains("bs_split") || j.contains("pattern")) {
      f.fail("profile", "a named profile sets pattern, rw_mix and block sizes; give either the profile or those");
    }
    s.profile = f.text(j, "profile", true);
    const MixProfile* p = find_profile(s.profile);
    if (p == nullptr) f.fail("profile", fmt::format("\"{}\" is not a profile; known: {}", s.profile, profile_names()));
    s.pattern = p->pattern;
    s.read_pct = p->read_pct;
    s.block_sizes = p->block_sizes;
    return;
  }
  if (j.contains("pattern")) {
    s.pattern = f.parsed(j, "pattern", [](const std::string& t) { return workload::parse_access_pattern(t, "p"); });
  }
  if (j.contains("rw_mix")) {
    s.read_pct = f.parsed(j, "rw_mix", [](const std::string& t) { return pts::parse_rw_mix(t, "rw_mix"); }).read_pct;
  }
  if (j.contains("block_size") && j.contains("bs_split")) f.fail("bs_split", "give block_size or bs_split, not both");
  if (j.contains("block_size") && j.at("block_size").is_string() &&
      j.at("block_size").get<std::string>().find_first_of("/:") != std::string::npos) {
    f.fail("block_size", fmt::format("\"{}\" is a weighted split of sizes: give it as \"bs_split\"",
                                     j.at("block_size").get<std::string>()));
  }
  if (j.contains("block_size")) {
    s.block_sizes = {
        {f.parsed(j, "block_size", [](const std::string& t) { return units::parse_size_bytes(t, "b"); }), 1.0}};
  } else if (j.contains("bs_split")) {
    s.block_sizes = f.parsed(j, "bs_split", [](const std::string& t) { return workload::parse_bs_split(t, "b"); });
  }
}

StreamSpec parse_stream(const json& j, const Fields& f, const TargetRoles& roles) {
  f.only(j, {"name", "target", "profile", "pattern", "rw_mix", "block_size", "bs_split", "range", "threads",
             "queue_depth", "rate_iops", "rate_mbps"});
  StreamSpec s;
  s.name = f.text(j, "name", true);
  parse_mix(j, f, s);
  if (j.contains("target")) {
    const std::string t = f.text(j, "target", true);
    const auto it = std::find(roles.names.begin(), roles.names.end(), t);
    if (t != "each" && it == roles.names.end()) {
      f.fail("target", fmt::format("\"{}\" is neither \"each\" nor a role of targets.roles", t));
    }
    s.targets = t == "each" ? StreamTargets{} : StreamTargets{false, static_cast<uint32_t>(it - roles.names.begin())};
  }
  if (j.contains("range")) {
    s.range = f.parsed(j, "range", [](const std::string& t) { return workload::parse_range(t, "range"); });
  }
  s.threads = j.contains("threads") ? f.count(j, "threads", workload::k_max_threads) : 1;
  s.queue_depth = j.contains("queue_depth") ? f.count(j, "queue_depth", workload::k_max_queue_depth) : 1;
  if (j.contains("rate_iops") && j.contains("rate_mbps")) {
    f.fail("rate_mbps", "give rate_iops or rate_mbps, not both (one rate limit per stream)");
  }
  if (j.contains("rate_iops")) s.rate.iops = f.number(j, "rate_iops", 1, 1e9);
  if (j.contains("rate_mbps")) s.rate.mb_per_s = f.number(j, "rate_mbps", 0.001, 1e6);
  return s;
}

std::vector<StreamSpec> parse_streams(const json& j, const Fields& f, const TargetRoles& roles, bool one) {
  std::vector<StreamSpec> out;
  if (one) {
    if (!j.contains("stream")) f.fail("stream", "is required");
    out.push_back(parse_stream(j.at("stream"), f.child("stream"), roles));
    return out;
  }
  if (!j.contains("streams") || !j.at("streams").is_array() || j.at("streams").empty()) {
    f.fail("streams", "must be a non-empty list of streams");
  }
  std::set<std::string> names;
  for (size_t i = 0; i < j.at("streams").size(); ++i) {
    const Fields sf = f.child("streams").item(i);
    out.push_back(parse_stream(j.at("streams")[i], sf, roles));
    if (!names.insert(out.back().name).second) sf.fail("name", "another stream of this phase has this name");
  }
  return out;
}

std::vector<double> numbers(const json& j, const Fields& f, const char* key, double min, double max) {
  if (!j.contains(key) || !j.at(key).is_array() || j.at(key).empty()) f.fail(key, "must be a non-empty list");
  std::vector<double> out;
  for (size_t i = 0; i < j.at(key).size(); ++i) {
    const json& v = j.at(key)[i];
    if (!v.is_number() || !(v.get<double>() >= min && v.get<double>() <= max)) {
      f.child(key).item(i).fail("", fmt::format("must be a number from {} to {}", min, max));
    }
    out.push_back(v.get<double>());
  }
  return out;
}

std::vector<TxqPoint> parse_txq(const json& j, const Fields& f) {
  if (!j.contains("points") || !j.at("points").is_array() || j.at("points").empty()) {
    f.fail("points", "must be a non-empty list of [threads, queue_depth]");
  }
  std::vector<TxqPoint> out;
  for (size_t i = 0; i < j.at("points").size(); ++i) {
    const json& p = j.at("points")[i];
    if (!p.is_array() || p.size() != 2 || !p[0].is_number_integer() || !p[1].is_number_integer() ||
        p[0].get<int64_t>() < 1 || p[1].get<int64_t>() < 1 || p[0].get<int64_t>() > workload::k_max_threads ||
        p[1].get<int64_t>() > workload::k_max_queue_depth) {
      f.child("points").item(i).fail("", "must be [threads, queue_depth] with both at least 1");
    }
    out.push_back({p[0].get<uint32_t>(), p[1].get<uint32_t>()});
  }
  return out;
}

PhaseKind parse_kind(const Fields& f, const std::string& t) {
  static const std::pair<const char*, PhaseKind> k_kinds[] = {{"run", PhaseKind::run},
                                                              {"purge", PhaseKind::purge},
                                                              {"fill", PhaseKind::fill},
                                                              {"txq", PhaseKind::txq},
                                                              {"rate_ramp", PhaseKind::rate_ramp},
                                                              {"rate_steps", PhaseKind::rate_steps},
                                                              {"steady_state", PhaseKind::steady_state},
                                                              {"app", PhaseKind::app},
                                                              {"replay", PhaseKind::replay}};
  for (const auto& [name, kind] : k_kinds) {
    if (t == name) return kind;
  }
  f.fail(
      "kind",
      fmt::format("\"{}\" is not one of run, purge, fill, txq, rate_ramp, rate_steps, steady_state, app, replay", t));
}

// A replay phase (docs/replay.md): the capture must be a built-in or a file that exists now
// (its format is checked by check_scenario(), before anything is written).
void parse_replay(const json& j, const Fields& f, PhaseSpec& p) {
  f.only(j, {"name", "kind", "capture", "mode", "speed", "step"});
  p.capture = f.text(j, "capture", true);
  if (replay::builtin_capture_path(p.capture).empty() && !std::filesystem::is_regular_file(p.capture)) {
    std::string names;
    for (const std::string& n : replay::builtin_captures()) names += (names.empty() ? "" : ", ") + n;
    f.fail("capture", fmt::format("\"{}\" is neither a built-in capture ({}) nor a capture, fio iolog or blktrace "
                                  "file (a path is relative to the working directory)",
                                  p.capture, names));
  }
  if (j.contains("mode")) {
    const std::string mode = f.text(j, "mode", true);
    if (mode != "open" && mode != "closed") f.fail("mode", "must be open (at the captured times) or closed");
    p.closed_loop = mode == "closed";
  }
  // 1e6: a capture of 11.6 days replayed in one second; beyond, the time scale means nothing.
  if (j.contains("speed")) p.speed = f.number(j, "speed", 1e-6, 1e6);
  if (j.contains("step")) p.step_ns = duration_of(j, f, "step");
}

// app_targets: role names, each once; the application runs on their targets.
std::vector<uint32_t> parse_app_targets(const json& j, const Fields& f, const TargetRoles& roles) {
  if (!roles.exact) f.fail("app_targets", "needs targets.roles (the roles the application and the streams run on)");
  const json& list = j.at("app_targets");
  if (!list.is_array() || list.empty() || list.size() >= roles.names.size()) {
    f.fail("app_targets", "must be a list of roles of targets.roles, leaving at least one for the streams");
  }
  std::vector<uint32_t> out;
  for (size_t i = 0; i < list.size(); ++i) {
    const auto it = list[i].is_string() ? std::find(roles.names.begin(), roles.names.end(), list[i].get<std::string>())
                                        : roles.names.end();
    const auto role = static_cast<uint32_t>(it - roles.names.begin());
    if (it == roles.names.end() || std::find(out.begin(), out.end(), role) != out.end()) {
      f.child("app_targets").item(i).fail("", "must be a role of targets.roles, named once");
    }
    out.push_back(role);
  }
  return out;
}

// An app phase; with `streams` a mixed phase: the application on `app_targets`, the streams
// on the other targets (mkfs and mount need the application's devices to themselves).
void parse_app(const json& j, const Fields& f, const TargetRoles& roles, PhaseSpec& p) {
  f.only(j, {"name", "kind", "app", "settings", "app_targets", "streams", "interval", "charts"});
  p.app = f.text(j, "app", true);
  if (j.contains("settings")) {
    if (!j.at("settings").is_object()) f.fail("settings", "must be an object of setting: value");
    for (const auto& [k, v] : j.at("settings").items()) {
      if (!v.is_string() && !v.is_number_unsigned()) f.child("settings").fail(k, "must be a string or a count");
      p.app_settings.push_back(k + "=" + (v.is_string() ? v.get<std::string>() : v.dump()));
    }
  }
  if (j.contains("app_targets")) p.app_targets = parse_app_targets(j, f, roles);
  if (!j.contains("streams")) {
    if (j.contains("interval")) f.fail("interval", "is the streams' interval series: give streams, or remove it");
    return;
  }
  if (p.app_targets.empty()) {
    f.fail("app_targets",
           "is required with streams: the roles the application runs on (the streams run on the others)");
  }
  p.streams = parse_streams(j, f, roles, false);
  for (size_t i = 0; i < p.streams.size(); ++i) {
    const StreamTargets& t = p.streams[i].targets;
    if (!t.each && std::find(p.app_targets.begin(), p.app_targets.end(), t.role) != p.app_targets.end()) {
      f.child("streams").item(i).fail("target", "is a target of the application (app_targets): choose another role");
    }
  }
  // The streams' series at the drivers' progress period (1 s) unless the phase names one.
  p.interval_ns = j.contains("interval") ? interval_of(j, f) : 1'000'000'000;
}

void parse_generator(const json& j, const Fields& f, const std::vector<PhaseSpec>& before, PhaseSpec& p) {
  if (p.kind == PhaseKind::txq) {
    f.only(j, {"name", "kind", "duration", "interval", "segment_warmup", "stream", "points", "charts"});
    for (const char* key : {"threads", "queue_depth"}) {
      if (j.at("stream").contains(key)) {
        f.child("stream").fail(key, "is set by each of the txq phase's points [threads, queue_depth]; remove it");
      }
    }
    p.txq = parse_txq(j, f);
  } else if (p.kind == PhaseKind::rate_ramp) {
    f.only(j, {"name", "kind", "duration", "interval", "segment_warmup", "stream", "percent_of", "percents", "charts"});
    p.percent_of = f.text(j, "percent_of", true);
    const auto it =
        std::find_if(before.begin(), before.end(), [&](const PhaseSpec& b) { return b.name == p.percent_of; });
    if (it == before.end() || (it->kind != PhaseKind::run && it->kind != PhaseKind::steady_state)) {
      f.fail("percent_of", fmt::format("\"{}\" is not an earlier run or steady_state phase", p.percent_of));
    }
    p.percents = numbers(j, f, "percents", 0.1, 100);
  } else {
    f.only(j, {"name", "kind", "duration", "interval", "segment_warmup", "streams", "step_stream", "step_mbps",
               "step_iops", "charts"});
    p.step_stream = f.text(j, "step_stream", true);
    if (std::none_of(p.streams.begin(), p.streams.end(),
                     [&](const StreamSpec& s) { return s.name == p.step_stream; })) {
      f.fail("step_stream", fmt::format("\"{}\" is not a stream of this phase", p.step_stream));
    }
    if (j.contains("step_mbps") == j.contains("step_iops")) f.fail("step_mbps", "give step_mbps or step_iops");
    p.step_mb_per_s = j.contains("step_mbps");
    const json& range = j.at(p.step_mb_per_s ? "step_mbps" : "step_iops");
    const Fields rf = f.child(p.step_mb_per_s ? "step_mbps" : "step_iops");
    rf.only(range, {"from", "to", "step"});
    const double from = rf.number(range, "from", 0.001, 1e9);
    const double to = rf.number(range, "to", from, 1e9);
    const double step = rf.number(range, "step", 0.001, 1e9);
    if ((to - from) / step > 10000) rf.fail("step", "more than 10000 steps");
    // n = floor((to - from) / step + 1e-9) + 1 steps; the tolerance keeps an exact "to" reachable.
    const auto n = static_cast<size_t>((to - from) / step + 1e-9) + 1;
    for (size_t i = 0; i < n; ++i) p.step_rates.push_back(from + static_cast<double>(i) * step);
  }
}

PhaseSpec parse_phase(const json& j, const Fields& f, const TargetRoles& roles, const std::vector<PhaseSpec>& before) {
  PhaseSpec p;
  p.name = f.text(j, "name", true);
  p.kind = parse_kind(f, f.text(j, "kind", true));
  if (j.contains("charts") && !j.at("charts").is_boolean()) f.fail("charts", "must be true or false");
  p.charts = j.value("charts", true);
  switch (p.kind) {
    case PhaseKind::purge:
      f.only(j, {"name", "kind", "method"});
      if (j.contains("method")) p.purge_method = f.text(j, "method", true);
      return p;
    case PhaseKind::fill:
      f.only(j, {"name", "kind", "block_size", "capacity_multiple"});
      if (j.contains("block_size")) {
        p.fill_block_bytes =
            f.parsed(j, "block_size", [](const std::string& t) { return units::parse_size_bytes(t, "b"); });
      }
      if (j.contains("capacity_multiple")) p.fill_capacity_multiple = f.number(j, "capacity_multiple", 0.001, 100);
      return p;
    case PhaseKind::app:  // an application on every target at once (docs/app.md), or mixed
      parse_app(j, f, roles, p);
      return p;
    case PhaseKind::replay:
      parse_replay(j, f, p);
      return p;
    case PhaseKind::steady_state:
      f.only(j,
             {"name", "kind", "duration", "interval", "segment_warmup", "stream", "variable", "max_rounds", "charts"});
      p.variable = j.contains("variable") ? f.text(j, "variable", true) : "iops";
      if (p.variable != "iops" && p.variable != "mb_per_s" && p.variable != "mean_latency") {
        f.fail("variable", "must be iops, mb_per_s or mean_latency");
      }
      if (j.contains("max_rounds")) p.max_rounds = f.count(j, "max_rounds", 1000);
      break;
    case PhaseKind::run:
      f.only(j, {"name", "kind", "duration", "bytes", "interval", "segment_warmup", "streams", "charts"});
      if (j.contains("bytes")) {
        const workload::ByteLimit b =
            f.parsed(j, "bytes", [](const std::string& t) { return workload::parse_byte_limit(t, "bytes"); });
        p.bytes = b.bytes;
        p.bytes_range_multiple = b.range_multiple;
        if (!j.contains("duration")) {
          p.streams = parse_streams(j, f, roles, false);
          p.interval_ns = interval_of(j, f);
          if (j.contains("segment_warmup")) p.warmup_ns = duration_of(j, f, "segment_warmup");
          return p;
        }
      }
      break;
    default:
      break;
  }
  p.duration_ns = duration_of(j, f, "duration");
  p.interval_ns = interval_of(j, f);
  if (j.contains("segment_warmup")) p.warmup_ns = duration_of(j, f, "segment_warmup");
  const bool one = p.kind == PhaseKind::txq || p.kind == PhaseKind::rate_ramp || p.kind == PhaseKind::steady_state;
  p.streams = parse_streams(j, f, roles, one);
  if (p.kind != PhaseKind::run && p.kind != PhaseKind::steady_state) parse_generator(j, f, before, p);
  return p;
}

TargetRoles parse_targets(const json& j, const Fields& f) {
  TargetRoles t;
  if (!j.contains("targets")) return t;
  const Fields tf = f.child("targets");
  tf.only(j.at("targets"), {"roles"});
  const json& roles = j.at("targets").at("roles");
  if (!roles.is_array() || roles.empty()) tf.fail("roles", "must be a non-empty list of role names");
  for (size_t i = 0; i < roles.size(); ++i) {
    if (!roles[i].is_string() || roles[i].get<std::string>().empty() || roles[i] == "each") {
      tf.child("roles").item(i).fail("", "must be a role name (not \"each\")");
    }
    t.names.push_back(roles[i].get<std::string>());
  }
  t.count = static_cast<uint32_t>(t.names.size());
  t.exact = true;
  return t;
}

QuickForm parse_quick(const json& j, const Fields& f) {
  QuickForm q;
  if (!j.contains("quick")) return q;
  const Fields qf = f.child("quick");
  const json& o = j.at("quick");
  qf.only(o, {"duration", "fill_capacity_multiple", "max_rounds", "rate_steps_stride"});
  if (o.contains("duration")) q.duration_ns = duration_of(o, qf, "duration");
  if (o.contains("fill_capacity_multiple"))
    q.fill_capacity_multiple = qf.number(o, "fill_capacity_multiple", 0.001, 100);
  if (o.contains("max_rounds")) q.max_rounds = qf.count(o, "max_rounds", 1000);
  if (o.contains("rate_steps_stride")) q.rate_steps_stride = qf.count(o, "rate_steps_stride", 10000);
  return q;
}

}  // namespace

Scenario parse_scenario(const std::string& text, const std::string& where) {
  const json j = parse_json_input(text, where, k_user_json_limits);
  const Fields f(where, "", std::make_shared<JsonPositions>(text));
  f.only(j,
         {"format", "name", "title", "description", "reconstructs", "ptsuite_choices", "targets", "quick", "phases"});
  if (f.text(j, "format", true) != k_scenario_format)
    f.fail("format", fmt::format("must be \"{}\"", k_scenario_format));
  Scenario s;
  s.name = f.text(j, "name", true);
  s.title = f.text(j, "title", true);
  s.description = f.text(j, "description", false);
  s.reconstructs = f.text(j, "reconstructs", false);
  if (j.contains("ptsuite_choices")) {
    for (size_t i = 0; i < j.at("ptsuite_choices").size(); ++i) {
      if (!j.at("ptsuite_choices")[i].is_string()) f.child("ptsuite_choices").item(i).fail("", "must be a string");
      s.ptsuite_choices.push_back(j.at("ptsuite_choices")[i].get<std::string>());
    }
  }
  s.targets = parse_targets(j, f);
  s.quick = parse_quick(j, f);
  if (!j.contains("phases") || !j.at("phases").is_array() || j.at("phases").empty()) {
    f.fail("phases", "must be a non-empty list of phases");
  }
  std::set<std::string> names;
  for (size_t i = 0; i < j.at("phases").size(); ++i) {
    const Fields pf = f.child("phases").item(i);
    s.phases.push_back(parse_phase(j.at("phases")[i], pf, s.targets, s.phases));
    if (!names.insert(s.phases.back().name).second) pf.fail("name", "another phase has this name");
  }
  return s;
}

}  // namespace ptsuite::scenario
