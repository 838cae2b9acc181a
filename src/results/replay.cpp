// The replay document: writer and tolerant reader (results/replay.hpp).
#include <ptsuite/results/replay.hpp>
#include <ptsuite/results/replay_json_text.hpp>

#include <functional>
#include <string_view>

#include <string_view>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

namespace {

nlohmann::json direction_latency_json(const ReplayDirectionLatency& d) {
  return {{"ios", d.ios},         {"bytes", d.bytes},         {"iops", d.iops},         {"mb_per_s", d.mb_per_s},
          {"mean_ns", d.mean_ns}, {"stddev_ns", d.stddev_ns}, {"min_ns", d.min_ns},     {"max_ns", d.max_ns},
          {"p50_ns", d.p50_ns},   {"p99_ns", d.p99_ns},       {"p99_9_ns", d.p99_9_ns}, {"p99_99_ns", d.p99_99_ns}};
}

ReplayDirectionLatency read_direction_latency(const nlohmann::json& j) {
  ReplayDirectionLatency d;
  d.ios = count(at(j, "ios"));
  d.bytes = count(at(j, "bytes"));
  d.iops = num(at(j, "iops"));
  d.mb_per_s = num(at(j, "mb_per_s"));
  d.mean_ns = num(at(j, "mean_ns"));
  d.stddev_ns = num(at(j, "stddev_ns"));
  d.min_ns = count(at(j, "min_ns"));
  d.max_ns = count(at(j, "max_ns"));
  d.p50_ns = count(at(j, "p50_ns"));
  d.p99_ns = count(at(j, "p99_ns"));
  d.p99_9_ns = count(at(j, "p99_9_ns"));
  d.p99_99_ns = count(at(j, "p99_99_ns"));
  return d;
}

// A latency member that may be absent (older records) or null.
std::optional<ReplayLatency> read_optional_latency(const nlohmann::json& j) {
  if (!j.is_object()) return std::nullopt;
  return read_replay_latency(j);
}

nlohmann::json optional_latency_json(const std::optional<ReplayLatency>& l) {
  return l ? to_json(*l) : nlohmann::json();
}

nlohmann::json figures_json(const ReplayFigures& f) {
  nlohmann::json sizes = nlohmann::json::array();
  for (const SizeCount& s : f.sizes) sizes.push_back({{"size_bytes", s.size_bytes}, {"ios", s.ios}});
  return {{"ios", f.ios},
          {"read_ios", f.read_ios},
          {"write_ios", f.write_ios},
          {"bytes", f.bytes},
          {"length_ns", f.length_ns},
          {"iops", f.iops},
          {"mb_per_s", f.mb_per_s},
          {"read_pct", f.read_pct},
          {"outstanding_mean", f.outstanding_mean},
          {"outstanding_max", f.outstanding_max},
          {"sizes", sizes}};
}

ReplayFigures read_figures(const nlohmann::json& j) {
  ReplayFigures f;
  f.ios = count(at(j, "ios"));
  f.read_ios = count(at(j, "read_ios"));
  f.write_ios = count(at(j, "write_ios"));
  f.bytes = count(at(j, "bytes"));
  f.length_ns = count(at(j, "length_ns"));
  f.iops = num(at(j, "iops"));
  f.mb_per_s = num(at(j, "mb_per_s"));
  f.read_pct = num(at(j, "read_pct"));
  f.outstanding_mean = num(at(j, "outstanding_mean"));
  f.outstanding_max = count32(at(j, "outstanding_max"));
  const nlohmann::json& sizes = at(j, "sizes");
  if (sizes.is_array()) {
    for (const nlohmann::json& s : sizes) f.sizes.push_back({count32(at(s, "size_bytes")), count(at(s, "ios"))});
  }
  return f;
}

nlohmann::json step_json(const ReplayStep& s) {
  return {{"start_ns", s.start_ns},
          {"length_ns", s.length_ns},
          {"captured", figures_json(s.captured)},
          {"replayed", figures_json(s.replayed)},
          {"issue_error_p50_ns", s.issue_error_p50_ns},
          {"issue_error_p99_ns", s.issue_error_p99_ns},
          {"issue_error_max_ns", s.issue_error_max_ns},
          {"fell_behind", s.fell_behind},
          {"latency", optional_latency_json(s.latency)}};
}

ReplayStep read_replay_step(const nlohmann::json& j) {
  ReplayStep s;
  s.start_ns = count(at(j, "start_ns"));
  s.length_ns = count(at(j, "length_ns"));
  s.captured = read_figures(at(j, "captured"));
  s.replayed = read_figures(at(j, "replayed"));
  s.issue_error_p50_ns = count(at(j, "issue_error_p50_ns"));
  s.issue_error_p99_ns = count(at(j, "issue_error_p99_ns"));
  s.issue_error_max_ns = count(at(j, "issue_error_max_ns"));
  s.fell_behind = flag(at(j, "fell_behind"));
  s.latency = read_optional_latency(at(j, "latency"));
  return s;
}

nlohmann::json ramp_json(const ReplayRamp& r) {
  nlohmann::json points = nlohmann::json::array();
  for (const RampPoint& p : r.points) {
    points.push_back({{"percent", p.percent},
                      {"speed", p.speed},
                      {"target_iops", p.target_iops},
                      {"replayed_ios", p.replayed_ios},
                      {"duration_ns", p.duration_ns},
                      {"latency", to_json(p.latency)},
                      {"steps", p.steps},
                      {"steps_fell_behind", p.steps_fell_behind},
                      {"issue_error_p50_ns", p.issue_error_p50_ns},
                      {"issue_error_p99_ns", p.issue_error_p99_ns},
                      {"issue_error_max_ns", p.issue_error_max_ns},
                      {"stop_reason", p.stop_reason}});
  }
  return {{"capture_iops", r.capture_iops},
          {"limit_iops", r.limit_iops},
          {"limit_source", r.limit_source},
          {"points", points}};
}

std::optional<ReplayRamp> read_ramp(const nlohmann::json& j) {
  if (!j.is_object()) return std::nullopt;
  ReplayRamp r;
  r.capture_iops = num(at(j, "capture_iops"));
  r.limit_iops = num(at(j, "limit_iops"));
  r.limit_source = str(j, "limit_source");
  for (const nlohmann::json& e : array(j, "points")) {
    RampPoint p;
    p.percent = num(at(e, "percent"));
    p.speed = num(at(e, "speed"));
    p.target_iops = num(at(e, "target_iops"));
    p.replayed_ios = count(at(e, "replayed_ios"));
    p.duration_ns = count(at(e, "duration_ns"));
    p.latency = read_replay_latency(at(e, "latency"));
    p.steps = count(at(e, "steps"));
    p.steps_fell_behind = count(at(e, "steps_fell_behind"));
    p.issue_error_p50_ns = count(at(e, "issue_error_p50_ns"));
    p.issue_error_p99_ns = count(at(e, "issue_error_p99_ns"));
    p.issue_error_max_ns = count(at(e, "issue_error_max_ns"));
    p.stop_reason = str(e, "stop_reason");
    r.points.push_back(std::move(p));
  }
  return r;
}

}  // namespace

nlohmann::json to_json(const ReplayLatency& latency) {
  return {{"read", direction_latency_json(latency.read)},
          {"write", direction_latency_json(latency.write)},
          {"combined", direction_latency_json(latency.combined)}};
}

ReplayLatency read_replay_latency(const nlohmann::json& j) {
  return {read_direction_latency(at(j, "read")), read_direction_latency(at(j, "write")),
          read_direction_latency(at(j, "combined"))};
}

namespace {

void replay_json(nlohmann::json& j, const ReplayRecord& r, bool with_steps) {
  nlohmann::json settings = nlohmann::json::array();
  for (const ReplaySetting& s : r.settings)
    settings.push_back({{"name", s.name}, {"value", s.value}, {"note", s.note}});
  nlohmann::json steps = nlohmann::json::array();
  if (with_steps) {
    for (const ReplayStep& s : r.steps) steps.push_back(step_json(s));
  }
  j = {{"kind", r.kind},
       {"started_utc", r.started_utc},
       {"command", r.command},
       {"capture",
        {{"file", r.capture_file},
         {"id", r.capture_id},
         {"source", r.capture_source},
         {"device", r.capture_device},
         {"capacity_bytes", r.capture_capacity_bytes},
         {"complete", r.capture_complete}}},
       {"target",
        {{"path", r.target},
         {"note", r.target_note},
         {"capacity_bytes", r.target_capacity_bytes},
         {"identity", to_json(r.target_identity)}}},
       {"engine", r.engine},
       {"mode", r.mode},
       {"speed", r.speed},
       {"queue_slots", r.queue_slots},
       {"step_ns", r.step_ns},
       {"seed", r.seed},
       {"settings", settings},
       {"capture_ios", r.capture_ios},
       {"replayed_ios", r.replayed_ios},
       {"skipped_ios", r.skipped_ios},
       {"resized_ios", r.resized_ios},
       {"remapped_ios", r.remapped_ios},
       {"duration_ns", r.duration_ns},
       {"issue_error_p50_ns", r.issue_error_p50_ns},
       {"issue_error_p99_ns", r.issue_error_p99_ns},
       {"issue_error_max_ns", r.issue_error_max_ns},
       {"steps_fell_behind", r.steps_fell_behind},
       {"stop_reason", r.stop_reason},
       {"error", r.error},
       {"steps", steps},
       {"latency", optional_latency_json(r.latency)},
       {"ramp", r.ramp ? ramp_json(*r.ramp) : nlohmann::json()}};
  // Written when known: a scenario's replay phases record none of these.
  if (!r.tool_version.empty()) j["tool"] = {{"version", r.tool_version}};
  if (!r.finished_utc.empty()) j["finished_utc"] = r.finished_utc;
  if (r.attestation) j["attestation"] = attestation_json(*r.attestation);
}

}  // namespace

void to_json(nlohmann::json& j, const ReplayRecord& r) { replay_json(j, r, true); }

void write_json_text(const ReplayRecord& r, const std::function<void(std::string_view)>& sink) {
  nlohmann::json head;
  replay_json(head, r, false);
  const std::string text = head.dump();
  static constexpr std::string_view k_empty_steps = "\"steps\":[]";
  const size_t at = text.find(k_empty_steps);
  if (at == std::string::npos || text.find(k_empty_steps, at + 1) != std::string::npos) {
    nlohmann::json full;  // unreachable: the document has one top-level "steps"
    replay_json(full, r, true);
    sink(full.dump() + "\n");
    return;
  }
  // The head up to the steps' '[', then the steps in chunks of ~1 MiB (a write per chunk, not
  // per step), then the rest of the head: never more than a chunk of text in memory.
  static constexpr size_t k_chunk_bytes = 1 << 20;
  const size_t open_end = at + k_empty_steps.size() - 1;
  std::string chunk = text.substr(0, open_end);
  for (size_t i = 0; i < r.steps.size(); ++i) {
    if (i > 0) chunk += ',';
    chunk += step_json(r.steps[i]).dump();
    if (chunk.size() >= k_chunk_bytes) {
      sink(chunk);
      chunk.clear();
    }
  }
  chunk.append(text, open_end);
  chunk += '\n';
  sink(chunk);
}

std::string to_json_text(const ReplayRecord& r) {
  std::string out;
  write_json_text(r, [&out](std::string_view part) { out += part; });
  return out;
}

ReplayRecord read_replay(const nlohmann::json& j) {
  ReplayRecord r;
  r.kind = str(j, "kind");
  r.tool_version = str(at(j, {"tool", "version"}));
  r.started_utc = str(j, "started_utc");
  r.finished_utc = str(j, "finished_utc");
  r.command = str(j, "command");
  const nlohmann::json& c = at(j, "capture");
  r.capture_file = str(c, "file");
  r.capture_id = str(c, "id");
  r.capture_source = str(c, "source");
  r.capture_device = str(c, "device");
  r.capture_capacity_bytes = count(at(c, "capacity_bytes"));
  r.capture_complete = flag(at(c, "complete"));
  const nlohmann::json& t = at(j, "target");
  r.target = str(t, "path");
  r.target_note = str(t, "note");
  r.target_capacity_bytes = count(at(t, "capacity_bytes"));
  r.target_identity = read_drive_identity(at(t, "identity"));
  r.engine = str(j, "engine");
  r.mode = str(j, "mode");
  r.speed = num(at(j, "speed"));
  r.queue_slots = count32(at(j, "queue_slots"));
  r.step_ns = count(at(j, "step_ns"));
  r.seed = count(at(j, "seed"));
  if (const nlohmann::json& s = at(j, "settings"); s.is_array()) {
    for (const nlohmann::json& e : s) r.settings.push_back({str(e, "name"), str(e, "value"), str(e, "note")});
  }
  r.capture_ios = count(at(j, "capture_ios"));
  r.replayed_ios = count(at(j, "replayed_ios"));
  r.skipped_ios = count(at(j, "skipped_ios"));
  r.resized_ios = count(at(j, "resized_ios"));
  r.remapped_ios = count(at(j, "remapped_ios"));
  r.duration_ns = count(at(j, "duration_ns"));
  r.issue_error_p50_ns = count(at(j, "issue_error_p50_ns"));
  r.issue_error_p99_ns = count(at(j, "issue_error_p99_ns"));
  r.issue_error_max_ns = count(at(j, "issue_error_max_ns"));
  r.steps_fell_behind = count(at(j, "steps_fell_behind"));
  r.stop_reason = str(j, "stop_reason");
  r.error = str(j, "error");
  if (const nlohmann::json& s = at(j, "steps"); s.is_array()) {
    for (const nlohmann::json& e : s) r.steps.push_back(read_replay_step(e));
  }
  r.attestation = read_attestation(j);
  r.latency = read_optional_latency(at(j, "latency"));
  r.ramp = read_ramp(at(j, "ramp"));
  return r;
}

}  // namespace ptsuite::results
