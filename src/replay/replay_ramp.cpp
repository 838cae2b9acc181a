// A rate ramp over a capture: the closed-loop limit, then open-loop replays at percentages of it
// (replay/replay_ramp.hpp).
#include <ptsuite/replay/replay_ramp.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include <ptsuite/replay/replay_plan.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/workload/spec_parse.hpp>

namespace ptsuite::replay {

namespace {

constexpr double k_max_open_speed = 1e6;   // replay_runner's bound on --speed
constexpr size_t k_max_ramp_points = 100;  // each point replays the whole capture

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(separator, start);
    out.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

void check_percent(double p, const std::string& what) {
  if (!(p > 0) || p > k_max_ramp_percent) {
    throw UsageError(what, fmt::format("{} % is not a ramp rate; give percentages of the limit above 0 and at most {}",
                                       p, k_max_ramp_percent));
  }
}

results::RampPoint point_of(double percent, double speed, double target_iops, const results::ReplayRecord& r) {
  results::RampPoint p;
  p.percent = percent;
  p.speed = speed;
  p.target_iops = target_iops;
  p.replayed_ios = r.replayed_ios;
  p.duration_ns = r.duration_ns;
  p.latency = r.latency.value_or(results::ReplayLatency{});
  p.steps = r.steps.size();
  p.steps_fell_behind = r.steps_fell_behind;
  p.issue_error_p50_ns = r.issue_error_p50_ns;
  p.issue_error_p99_ns = r.issue_error_p99_ns;
  p.issue_error_max_ns = r.issue_error_max_ns;
  p.stop_reason = r.stop_reason;
  return p;
}

}  // namespace

std::vector<double> parse_ramp(const std::string& text, const std::string& what) {
  std::vector<double> out;
  const std::vector<std::string> range = split(text, ':');
  if (range.size() == 3) {
    const double from = workload::parse_decimal(range[0], what);
    const double to = workload::parse_decimal(range[1], what);
    const double step = workload::parse_decimal(range[2], what);
    if (!(step > 0) || !(to >= from)) {
      throw UsageError(what, fmt::format("\"{}\" is not a ramp: give FROM:TO:STEP with FROM <= TO and STEP > 0, "
                                         "e.g. 10:100:10",
                                         text));
    }
    // Counted in steps so that 10:100:10 ends at 100 exactly (no accumulated rounding).
    const double n = std::floor((to - from) / step + 1e-9);
    if (n + 1 > static_cast<double>(k_max_ramp_points)) {
      throw UsageError(what, fmt::format("\"{}\" has more than {} rates; give a larger step", text, k_max_ramp_points));
    }
    for (double k = 0; k <= n; ++k) out.push_back(from + k * step);
  } else if (range.size() == 1) {
    for (const std::string& item : split(text, ',')) out.push_back(workload::parse_decimal(item, what));
  } else {
    throw UsageError(what,
                     fmt::format("\"{}\" is not a ramp; give FROM:TO:STEP (10:100:10) or a list (10,50,100)", text));
  }
  for (const double p : out) check_percent(p, what);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (out.size() > k_max_ramp_points) {
    throw UsageError(what, fmt::format("\"{}\" has more than {} rates", text, k_max_ramp_points));
  }
  return out;
}

double ramp_speed(double percent, double limit_iops, double capture_iops) {
  const double speed = percent / 100.0 * limit_iops / capture_iops;
  if (!(speed > 0) || speed > k_max_open_speed || !std::isfinite(speed)) {
    throw UsageError("ramp", fmt::format("{} % of {:.0f} IOPS is {:g} x the capture's {:.1f} IOPS: outside the open "
                                         "loop's speeds (above 0, at most {:g})",
                                         percent, limit_iops, speed, capture_iops, k_max_open_speed));
  }
  return speed;
}

results::ReplayRecord run_ramp(capture::CaptureReader& reader, const std::string& capture_name,
                               const engine::Target& target, const ReplayOptions& options,
                               const std::vector<double>& percents,
                               const std::function<void(const results::RampPoint&)>& on_point) {
  if (percents.empty()) throw UsageError("ramp", "give at least one rate, e.g. 10:100:10");
  for (const double p : percents) check_percent(p, "ramp");
  const ReplayPlan plan = plan_replay(reader, options.device, options.step_ns);
  const double span_s = static_cast<double>(plan.last_issue_ns - plan.first_issue_ns) / 1e9;
  if (plan.replay_ios < 2 || !(span_s > 0)) {
    throw UsageError("ramp",
                     "the capture's reads and writes have no time span to scale (fewer than two, or all "
                     "issued at once); replay it closed loop instead");
  }
  const double capture_iops = static_cast<double>(plan.replay_ios) / span_s;
  ReplayOptions closed = options;
  closed.mode = ReplayMode::closed_loop;
  closed.speed = 1;
  results::ReplayRecord rec = run_replay(reader, capture_name, target, closed);
  results::ReplayRamp ramp;
  ramp.capture_iops = capture_iops;
  ramp.limit_source = "closed-loop replay";
  ramp.limit_iops =
      rec.duration_ns > 0 ? static_cast<double>(rec.replayed_ios) / (static_cast<double>(rec.duration_ns) / 1e9) : 0;
  if (rec.stop_reason != "complete" || !(ramp.limit_iops > 0)) {
    rec.ramp = std::move(ramp);
    return rec;
  }
  for (const double percent : percents) {
    ReplayOptions open = options;
    open.mode = ReplayMode::open_loop;
    open.speed = ramp_speed(percent, ramp.limit_iops, capture_iops);
    const results::ReplayRecord point = run_replay(reader, capture_name, target, open);
    ramp.points.push_back(point_of(percent, open.speed, percent / 100.0 * ramp.limit_iops, point));
    if (on_point) on_point(ramp.points.back());
    if (point.stop_reason != "complete") {
      rec.stop_reason = point.stop_reason;
      rec.error = point.error;
      break;
    }
  }
  rec.ramp = std::move(ramp);
  return rec;
}

}  // namespace ptsuite::replay
