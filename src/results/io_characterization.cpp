// The capture characterization document: writer and tolerant reader (results/io_characterization.hpp).
#include <ptsuite/results/io_characterization.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

namespace {

std::vector<uint64_t> counts64(const nlohmann::json& j) {
  std::vector<uint64_t> out;
  if (j.is_array()) {
    out.reserve(j.size());
    for (const nlohmann::json& v : j) out.push_back(count(v));
  }
  return out;
}

nlohmann::json step_json(const CharacterizationStep& s) {
  return {{"start_ns", s.start_ns},
          {"length_ns", s.length_ns},
          {"partial", s.partial},
          {"ios", s.ios},
          {"bytes", s.bytes},
          {"read_ios", s.read_ios},
          {"write_ios", s.write_ios},
          {"iops", s.iops},
          {"mb_per_s", s.mb_per_s},
          {"qd_mean", s.qd_mean},
          {"qd_max", s.qd_max},
          {"latency_mean_ns", s.latency_mean_ns},
          {"latency_p50_ns", s.latency_p50_ns},
          {"latency_p99_ns", s.latency_p99_ns},
          {"latency_max_ns", s.latency_max_ns},
          {"stream_ios", s.stream_ios},
          {"stream_bytes", s.stream_bytes},
          {"lba_ios", s.lba_ios}};
}

CharacterizationStep read_step(const nlohmann::json& j) {
  CharacterizationStep s;
  s.start_ns = count(at(j, "start_ns"));
  s.length_ns = count(at(j, "length_ns"));
  s.partial = at(j, "partial").is_boolean() && at(j, "partial").get<bool>();
  s.ios = count(at(j, "ios"));
  s.bytes = count(at(j, "bytes"));
  s.read_ios = count(at(j, "read_ios"));
  s.write_ios = count(at(j, "write_ios"));
  s.iops = num(at(j, "iops"));
  s.mb_per_s = num(at(j, "mb_per_s"));
  s.qd_mean = num(at(j, "qd_mean"));
  s.qd_max = count32(at(j, "qd_max"));
  s.latency_mean_ns = num(at(j, "latency_mean_ns"));
  s.latency_p50_ns = count(at(j, "latency_p50_ns"));
  s.latency_p99_ns = count(at(j, "latency_p99_ns"));
  s.latency_max_ns = count(at(j, "latency_max_ns"));
  s.stream_ios = counts64(at(j, "stream_ios"));
  s.stream_bytes = counts64(at(j, "stream_bytes"));
  s.lba_ios = counts64(at(j, "lba_ios"));
  return s;
}

nlohmann::json stream_json(const IoStreamStats& s) {
  return {{"name", s.name},
          {"sequential", s.sequential},
          {"size_bytes", s.size_bytes},
          {"op", s.op},
          {"ios", s.ios},
          {"bytes", s.bytes},
          {"io_share", s.io_share},
          {"byte_share", s.byte_share},
          {"latency_mean_ns", s.latency_mean_ns},
          {"latency_max_ns", s.latency_max_ns}};
}

IoStreamStats read_stream(const nlohmann::json& j) {
  IoStreamStats s;
  s.name = str(j, "name");
  s.sequential = at(j, "sequential") == true;
  s.size_bytes = count32(at(j, "size_bytes"));
  s.op = str(j, "op");
  s.ios = count(at(j, "ios"));
  s.bytes = count(at(j, "bytes"));
  s.io_share = num(at(j, "io_share"));
  s.byte_share = num(at(j, "byte_share"));
  s.latency_mean_ns = num(at(j, "latency_mean_ns"));
  s.latency_max_ns = count(at(j, "latency_max_ns"));
  return s;
}

}  // namespace

void to_json(nlohmann::json& j, const IoCharacterization& c) {
  nlohmann::json streams = nlohmann::json::array();
  for (const IoStreamStats& s : c.streams) streams.push_back(stream_json(s));
  nlohmann::json steps = nlohmann::json::array();
  for (const CharacterizationStep& s : c.steps) steps.push_back(step_json(s));
  nlohmann::json processes = nlohmann::json::array();
  for (const ProcessShare& p : c.processes) {
    processes.push_back({{"pid", p.pid}, {"comm", p.comm}, {"ios", p.ios}, {"io_share", p.io_share}});
  }
  j = {{"kind", c.kind},
       {"capture_file", c.capture_file},
       {"source", c.source},
       {"device", c.device},
       {"capacity_bytes", c.capacity_bytes},
       {"started_utc", c.started_utc},
       {"duration_ns", c.duration_ns},
       {"origin_ns", c.origin_ns},
       {"step_ns", c.step_ns},
       {"seq_lookback", c.seq_lookback},
       {"lba_bins", c.lba_bins},
       {"totals",
        {{"ios", c.ios},
         {"bytes", c.bytes},
         {"read_ios", c.read_ios},
         {"write_ios", c.write_ios},
         {"other_ios", c.other_ios},
         {"iops", c.iops},
         {"mb_per_s", c.mb_per_s},
         {"qd_mean", c.qd_mean},
         {"qd_max", c.qd_max},
         {"latency_mean_ns", c.latency_mean_ns},
         {"latency_p50_ns", c.latency_p50_ns},
         {"latency_p99_ns", c.latency_p99_ns},
         {"latency_p999_ns", c.latency_p999_ns},
         {"latency_max_ns", c.latency_max_ns},
         {"min_size_bytes", c.min_size_bytes},
         {"max_size_bytes", c.max_size_bytes}}},
       {"losses",
        {{"lost_events", c.lost_events},
         {"unmatched_issues", c.unmatched_issues},
         {"unmatched_completions", c.unmatched_completions},
         {"capture_complete", c.capture_complete}}},
       {"streams", std::move(streams)},
       {"streams_for_80pct", c.streams_for_80pct},
       {"step_streams", c.step_streams},
       {"steps", std::move(steps)},
       {"processes", std::move(processes)}};
  if (!c.stop_reason.empty()) j["losses"]["stop_reason"] = c.stop_reason;
  // Written when known: `ptsuite capture` stamps its own document; `capture show` and an app
  // run's embedded characterization carry neither.
  if (!c.tool_version.empty()) j["tool"] = {{"version", c.tool_version}};
  if (!c.capture_command.empty()) j["command"] = c.capture_command;
  if (c.attestation) j["attestation"] = attestation_json(*c.attestation);
}

IoCharacterization read_io_characterization(const nlohmann::json& j) {
  IoCharacterization c;
  c.kind = str(j, "kind");
  c.capture_file = str(j, "capture_file");
  c.source = str(j, "source");
  c.device = str(j, "device");
  c.capacity_bytes = count(at(j, "capacity_bytes"));
  c.started_utc = str(j, "started_utc");
  c.duration_ns = count(at(j, "duration_ns"));
  c.origin_ns = count(at(j, "origin_ns"));
  c.step_ns = count(at(j, "step_ns"));
  c.seq_lookback = count32(at(j, "seq_lookback"));
  c.lba_bins = count32(at(j, "lba_bins"));
  const nlohmann::json& t = at(j, "totals");
  c.ios = count(at(t, "ios"));
  c.bytes = count(at(t, "bytes"));
  c.read_ios = count(at(t, "read_ios"));
  c.write_ios = count(at(t, "write_ios"));
  c.other_ios = count(at(t, "other_ios"));
  c.iops = num(at(t, "iops"));
  c.mb_per_s = num(at(t, "mb_per_s"));
  c.qd_mean = num(at(t, "qd_mean"));
  c.qd_max = count32(at(t, "qd_max"));
  c.latency_mean_ns = num(at(t, "latency_mean_ns"));
  c.latency_p50_ns = count(at(t, "latency_p50_ns"));
  c.latency_p99_ns = count(at(t, "latency_p99_ns"));
  c.latency_p999_ns = count(at(t, "latency_p999_ns"));
  c.latency_max_ns = count(at(t, "latency_max_ns"));
  c.min_size_bytes = count32(at(t, "min_size_bytes"));
  c.max_size_bytes = count32(at(t, "max_size_bytes"));
  const nlohmann::json& l = at(j, "losses");
  c.lost_events = count(at(l, "lost_events"));
  c.unmatched_issues = count(at(l, "unmatched_issues"));
  c.unmatched_completions = count(at(l, "unmatched_completions"));
  c.capture_complete = at(l, "capture_complete") != false;
  c.stop_reason = str(l, "stop_reason");
  c.streams = read_each(at(j, "streams"), read_stream);
  c.streams_for_80pct = count32(at(j, "streams_for_80pct"));
  c.step_streams = count32(at(j, "step_streams"));
  c.steps = read_each(at(j, "steps"), read_step);
  for (const nlohmann::json& p : array(j, "processes")) {
    c.processes.push_back({count32(at(p, "pid")), str(p, "comm"), count(at(p, "ios")), num(at(p, "io_share"))});
  }
  c.tool_version = str(at(j, {"tool", "version"}));
  c.capture_command = str(j, "command");
  c.attestation = read_attestation(j);
  return c;
}

}  // namespace ptsuite::results
