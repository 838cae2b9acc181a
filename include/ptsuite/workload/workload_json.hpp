// Contract: the results document of one workload run (`ptsuite workload --json`, `ptsuite
// demo`), as nlohmann::json. Pure functions of their arguments; the caller writes the document
// (atomically, util/output_file.hpp). Every key carries its unit; MB is decimal (10^6 bytes).
//
//   {"schema_version": 1, "kind": "ptsuite.workload",
//    "tool": {"name": "ptsuite", "version": "0.1.0", "git_revision": "abc123"},
//    "started_at": "2026-11-21T18:19:00Z",
//    "config": {   the echo of everything needed to repeat the run
//      "target": {"path", "kind": "block_device"|"regular_file", "capacity_bytes",
//                 "logical_block_bytes", "physical_block_bytes", "memory_alignment_bytes"},
//      "pattern", "read_pct", "block_sizes": [{"bytes", "weight", "probability", "align_bytes"}],
//      "range": {"offset_bytes", "length_bytes", "pct"|null},
//      "zones": [{"io_pct", "range_pct", "offset_bytes", "length_bytes"}] (empty = uniform),
//      "threads", "queue_depth", "limits": {"duration_ns", "bytes", "ios"} (0 = none),
//      "rate": {"iops", "mb_per_s"} (0 = unlimited), "seed", "engine", "data_pattern",
//      "cpus": [...], "interval_ns"},
//    "results": {
//      "elapsed_ns", "stop_reason": "duration"|"bytes"|"ios"|"io_error"|"interrupted",
//      "read"|"write"|"combined": DirectionSummary (stats_json.hpp) + "histogram" (sparse),
//      "cpu": {"user_s", "system_s", "us_per_io"},
//      "error": null | {"errno", "message", "op", "offset_bytes", "length_bytes", "result",
//                       "short_transfer", "count"},
//      "intervals": {"interval_ns", "samples": [{"end_offset_ns", "read_ios", "write_ios",
//                    "read_bytes", "write_bytes", "read_latency_sum_ns", "write_latency_sum_ns"}]},
//      "end_state": {"sequential_cursor_bytes": [...]}}}
// Bump k_workload_schema_version on any incompatible change.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include <ptsuite/engine/io_queue.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/workload/workload_runner.hpp>
#include <ptsuite/workload/workload_spec.hpp>

namespace ptsuite::workload {

inline constexpr int k_workload_schema_version = 1;

nlohmann::json config_json(const ResolvedWorkload& workload, const engine::Target& target);
nlohmann::json results_json(const WorkloadResult& result, uint64_t interval_ns);
nlohmann::json error_json(const std::optional<engine::IoErrorRecord>& error, uint64_t error_count);
// One line for the first IO error: "write of 4KiB at offset 134213632 failed: No data available
// (ENODATA: the device reported a media error) (1 error)"; "no IO error" when there was none.
std::string describe_io_error(const std::optional<engine::IoErrorRecord>& error, uint64_t error_count);
// An interval series as the results carry it: [{end_offset_ns, read_ios, write_ios, read_bytes,
// write_bytes, read_latency_sum_ns, write_latency_sum_ns}, ...] (also PTS segments, scenarios).
nlohmann::json intervals_json(const std::vector<IntervalSample>& intervals);

// The whole document: schema_version, kind, tool, started_at, config, results, and "command"
// (the command line that ran it); `target_note` ("" none) is config.target.note.
nlohmann::json workload_document(const ResolvedWorkload& workload, const engine::Target& target,
                                 const WorkloadResult& result, const std::string& started_at,
                                 const std::string& command, const std::string& target_note);

// CPU time per completed IO in microseconds (user + system); 0 when no IO completed.
double cpu_us_per_io(const WorkloadResult& result) noexcept;

}  // namespace ptsuite::workload
