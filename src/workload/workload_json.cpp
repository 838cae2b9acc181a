#include <ptsuite/workload/workload_json.hpp>

#include <fmt/format.h>

#include <cerrno>

#include <cstring>
#include <nlohmann/json.hpp>

#include <ptsuite/stats/stats_json.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/util/version.hpp>

namespace ptsuite::workload {

namespace {

using nlohmann::json;

json target_json(const engine::Target& target) {
  const engine::TargetGeometry& g = target.geometry();
  return {{"path", target.path()},
          {"kind", target.kind() == engine::TargetKind::block_device ? "block_device" : "regular_file"},
          {"capacity_bytes", g.capacity_bytes},
          {"logical_block_bytes", g.logical_block_bytes},
          {"physical_block_bytes", g.physical_block_bytes},
          {"memory_alignment_bytes", g.memory_alignment_bytes}};
}

json direction_json(const stats::DirectionSummary& summary, const stats::LatencyHistogram& histogram) {
  json j = summary;
  j["histogram"] = histogram;
  return j;
}

}  // namespace

double cpu_us_per_io(const WorkloadResult& result) noexcept {
  const uint64_t ios = result.stats.read.ios + result.stats.write.ios;
  return ios == 0 ? 0 : (result.cpu.user_s + result.cpu.system_s) * 1e6 / static_cast<double>(ios);
}

json config_json(const ResolvedWorkload& w, const engine::Target& target) {
  const WorkloadSpec& spec = w.spec;
  json sizes = json::array();
  for (size_t i = 0; i < w.block_sizes.size(); ++i) {
    sizes.push_back({{"bytes", w.block_sizes[i].bytes},
                     {"weight", spec.block_sizes[i].weight},
                     {"probability", w.block_sizes[i].probability},
                     {"align_bytes", w.block_sizes[i].align_bytes}});
  }
  json zones = json::array();
  for (size_t i = 0; i < spec.zones.size(); ++i) {
    zones.push_back({{"io_pct", spec.zones[i].io_pct},
                     {"range_pct", spec.zones[i].range_pct},
                     {"offset_bytes", w.zones[i].offset_bytes},
                     {"length_bytes", w.zones[i].length_bytes}});
  }
  json range = {{"offset_bytes", w.range_offset_bytes}, {"length_bytes", w.range_length_bytes}};
  range["pct"] = spec.active_range.length_bytes ? json(nullptr) : json(spec.active_range.pct);
  range["amount_bytes"] = w.addressed_bytes;
  range["segments"] =
      w.segmented ? json{{"count", w.zones.size()},
                         {"segment_bytes", w.zones.front().length_bytes},
                         {"stride_bytes", w.zones.size() > 1 ? w.zones[1].offset_bytes - w.zones[0].offset_bytes : 0}}
                  : json(nullptr);
  return {{"target", target_json(target)},
          {"pattern", to_string(spec.pattern)},
          {"read_pct", spec.read_pct},
          {"block_sizes", sizes},
          {"range", range},
          {"zones", zones},
          {"threads", spec.threads},
          {"queue_depth", spec.queue_depth},
          {"limits", {{"duration_ns", spec.limits.duration_ns}, {"bytes", w.byte_limit}, {"ios", spec.limits.ios}}},
          {"rate", {{"iops", spec.rate.iops}, {"mb_per_s", spec.rate.mb_per_s}}},
          {"seed", spec.seed},
          {"engine", spec.engine},
          {"submit_batch", spec.submit_batch},
          {"data_pattern", to_string(spec.data)},
          {"cpus", spec.cpus},
          {"interval_ns", spec.interval_ns}};
}

json error_json(const std::optional<engine::IoErrorRecord>& error, uint64_t error_count) {
  if (!error) {
    return nullptr;
  }
  return {{"errno", error->errnum},
          {"message", std::strerror(error->errnum)},
          {"op", engine::to_string(error->op)},
          {"offset_bytes", error->offset_bytes},
          {"length_bytes", error->length_bytes},
          {"result", error->result},
          {"short_transfer", error->short_transfer},
          {"count", error_count}};
}

std::string describe_io_error(const std::optional<engine::IoErrorRecord>& error, uint64_t error_count) {
  if (!error) {
    return "no IO error";
  }
  const engine::IoErrorRecord& e = *error;
  const std::string what = e.length_bytes == 0 ? std::string("the IO engine failed")
                                               : fmt::format("{} of {} at offset {} failed", engine::to_string(e.op),
                                                             units::format_size_binary(e.length_bytes), e.offset_bytes);
  std::string cause = e.short_transfer ? fmt::format("short transfer ({} bytes)", e.result) : std::strerror(e.errnum);
  // The block layer's mapping of device status (BLK_STS_MEDIUM -> ENODATA, BLK_STS_NOSPC ->
  // ENOSPC, a gone device -> ENODEV / ENXIO): say what the device reported.
  if (!e.short_transfer && e.errnum == ENODATA) {
    cause += " (ENODATA: the device reported a media error)";
  } else if (!e.short_transfer && (e.errnum == ENODEV || e.errnum == ENXIO)) {
    cause += " (the device is gone: removed, or its controller failed)";
  } else if (!e.short_transfer && e.errnum == ENOSPC) {
    cause += " (ENOSPC: a full file system, or a block device that vanished and now reports no capacity)";
  }
  return fmt::format("{}: {} ({} error{})", what, cause, error_count, error_count == 1 ? "" : "s");
}

json intervals_json(const std::vector<IntervalSample>& intervals) {
  json samples = json::array();
  for (const IntervalSample& s : intervals) {
    json sample{{"end_offset_ns", s.end_offset_ns},
                {"read_ios", s.ios[0]},
                {"write_ios", s.ios[1]},
                {"read_bytes", s.bytes[0]},
                {"write_bytes", s.bytes[1]},
                {"read_latency_sum_ns", s.latency_sum_ns[0]},
                {"write_latency_sum_ns", s.latency_sum_ns[1]}};
    if (s.has_p99) {
      sample["read_p99_ns"] = s.p99_ns[0];
      sample["write_p99_ns"] = s.p99_ns[1];
      sample["read_max_ns"] = s.max_ns[0];
      sample["write_max_ns"] = s.max_ns[1];
      sample["read_stddev_ns"] = s.stddev_ns[0];
      sample["write_stddev_ns"] = s.stddev_ns[1];
    }
    samples.push_back(std::move(sample));
  }
  return samples;
}

json results_json(const WorkloadResult& r, uint64_t interval_ns) {
  const stats::IoSummary summary = stats::summarize(r.stats, r.elapsed_ns);
  const stats::DirectionStats combined = r.stats.combined();
  const json samples = intervals_json(r.intervals);
  return {{"elapsed_ns", r.elapsed_ns},
          {"stop_reason", to_string(r.stop_reason)},
          {"read", direction_json(summary.read, r.stats.read.histogram)},
          {"write", direction_json(summary.write, r.stats.write.histogram)},
          {"combined", direction_json(summary.combined, combined.histogram)},
          {"cpu", {{"user_s", r.cpu.user_s}, {"system_s", r.cpu.system_s}, {"us_per_io", cpu_us_per_io(r)}}},
          {"submit_calls", r.submit_calls},
          {"error", error_json(r.first_error, r.error_count)},
          {"intervals", {{"interval_ns", interval_ns}, {"samples", samples}}},
          {"end_state", {{"sequential_cursor_bytes", r.end_state.sequential_cursor_bytes}}}};
}

json workload_document(const ResolvedWorkload& workload, const engine::Target& target, const WorkloadResult& result,
                       const std::string& started_at, const std::string& command, const std::string& target_note) {
  json config = config_json(workload, target);
  if (!target_note.empty()) {
    config["target"]["note"] = target_note;
  }
  return {{"schema_version", k_workload_schema_version},
          {"kind", "ptsuite.workload"},
          {"tool",
           {{"name", "ptsuite"}, {"version", std::string(version())}, {"git_revision", std::string(git_revision())}}},
          {"started_at", started_at},
          {"config", std::move(config)},
          {"results", results_json(result, workload.spec.interval_ns)},
          {"command", command}};
}

}  // namespace ptsuite::workload
