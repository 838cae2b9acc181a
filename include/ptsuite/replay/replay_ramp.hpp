// Contract: a rate ramp over a capture (docs/replay.md, "Rate ramp"): the load curve of a target
// under a captured workload. run_ramp() first replays the capture closed loop (as fast as the
// target serves the captured order and outstanding IOs): its IOPS is the ramp's limit, 100 %.
// Then, for each percentage p (ascending, as given), it replays the whole capture open loop at
// the speed whose mean rate is p % of the limit:
//     speed = p / 100 x limit_iops / capture_iops,
// capture_iops = the capture's replayable IOs / its span (first to last issue), so the open loop
// issues the captured IOs at their captured spacing scaled to that rate (bursts stay bursts).
// Each point keeps what the target achieved: IOPS and MB/s over the point's duration and the
// response times per direction (results::RampPoint), the steps that could not keep up and the
// issue-time error; the per-step figures of the points are not kept (bounded: one record's
// steps, those of the closed-loop replay, plus a fixed-size summary per point).
// The returned record is the closed-loop replay's, with `ramp` filled. Stops at the first point
// that did not complete (interrupted, IO error): the record's stop_reason is that point's.
// Throws UsageError("ramp", ...) for no percentage, a percentage outside (0, 1000], a capture
// without a time span, or a speed outside what the open loop accepts; run_replay()'s errors
// pass through. `on_point` (optional) is called after each point, e.g. to print progress.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <ptsuite/capture/capture_file.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/replay/replay_runner.hpp>
#include <ptsuite/results/replay.hpp>

namespace ptsuite::replay {

inline constexpr double k_max_ramp_percent = 1000;

// "10:100:10" (from:to:step, `to` included when reached) or "10,25,50,100"; UsageError naming
// `what` otherwise. The result is ascending, without duplicates.
std::vector<double> parse_ramp(const std::string& text, const std::string& what);

// The open-loop speed of a point (above); UsageError when it is outside (0, 1e6].
double ramp_speed(double percent, double limit_iops, double capture_iops);

results::ReplayRecord run_ramp(capture::CaptureReader& reader, const std::string& capture_name,
                               const engine::Target& target, const ReplayOptions& options,
                               const std::vector<double>& percents,
                               const std::function<void(const results::RampPoint&)>& on_point = {});

}  // namespace ptsuite::replay
