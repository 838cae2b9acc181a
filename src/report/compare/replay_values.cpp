// The values and ranking figures of a replay record in `ptsuite compare` (extractors.hpp):
// per step (x = the step's start on the capture's timeline, in s) the replayed IOPS and each
// direction's response times (mean, stddev, 99 / 99.9 / 99.99 %, max), the whole replay's
// response times, and a rate ramp's load curves (response time vs IOPS achieved, and per rate
// of the ramp). Values are copied from the record (ns, IOPS).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "report/compare/extractors.hpp"

namespace ptsuite::report::compare {

namespace {

using results::ReplayDirectionLatency;
using results::ReplayLatency;
using results::ReplayRecord;

constexpr double k_replay_ns_per_s = 1e9;

struct ReplayStat {
  const char* metric;  // "mean", "p99_9", ...
  const char* title;   // "average response time"
  double (*of)(const ReplayDirectionLatency&);
};
constexpr ReplayStat k_replay_stats[] = {
    {"mean", "average response time", [](const ReplayDirectionLatency& d) { return d.mean_ns; }},
    {"stddev", "response time standard deviation", [](const ReplayDirectionLatency& d) { return d.stddev_ns; }},
    {"p99", "99 % response time", [](const ReplayDirectionLatency& d) { return static_cast<double>(d.p99_ns); }},
    {"p99_9", "99.9 % response time", [](const ReplayDirectionLatency& d) { return static_cast<double>(d.p99_9_ns); }},
    {"p99_99", "99.99 % response time",
     [](const ReplayDirectionLatency& d) { return static_cast<double>(d.p99_99_ns); }},
    {"max", "maximum response time", [](const ReplayDirectionLatency& d) { return static_cast<double>(d.max_ns); }}};

struct ReplayDirectionPick {
  const char* name;  // "read", "write", "" (both)
  const ReplayDirectionLatency& (*of)(const ReplayLatency&);
};
constexpr ReplayDirectionPick k_replay_read{
    "read", [](const ReplayLatency& l) -> const ReplayDirectionLatency& { return l.read; }};
constexpr ReplayDirectionPick k_replay_write{
    "write", [](const ReplayLatency& l) -> const ReplayDirectionLatency& { return l.write; }};
constexpr ReplayDirectionPick k_replay_both{
    "", [](const ReplayLatency& l) -> const ReplayDirectionLatency& { return l.combined; }};

// The directions with IOs in the whole replay: read, write or both apart and then R+W.
std::vector<ReplayDirectionPick> replay_directions(const ReplayLatency& total) {
  std::vector<ReplayDirectionPick> out;
  if (total.read.ios > 0) out.push_back(k_replay_read);
  if (total.write.ios > 0) out.push_back(k_replay_write);
  if (out.size() != 1) out.push_back(k_replay_both);
  return out;
}

std::string replay_prefixed(const char* dir, const std::string& rest) {
  return std::string(dir).empty() ? rest : std::string(dir) + " " + rest;
}

Group replay_step_group(const std::string& id, const std::string& title, const std::string& metric,
                        const std::string& unit) {
  Group g{id,           title, metric, unit, GroupKind::cells, XAxis::linear, "Time on the capture's timeline (s)",
          unit == "ns", {}};
  g.x_unit = "s";
  g.lines = true;
  return g;
}

double replay_step_x(const results::ReplayStep& s) { return static_cast<double>(s.start_ns) / k_replay_ns_per_s; }

std::string replay_step_label(size_t k) { return fmt::format("step {}", k + 1); }

std::vector<Group> replay_step_groups(const ReplayRecord& r, const std::string& prefix) {
  std::vector<Group> out;
  Group iops = replay_step_group(prefix + "iops", "Replayed IOPS per step", "iops", "IOPS");
  for (size_t k = 0; k < r.steps.size(); ++k) {
    iops.values.push_back({replay_step_label(k), replay_step_x(r.steps[k]), r.steps[k].replayed.iops});
  }
  out.push_back(std::move(iops));
  if (!r.latency) return out;
  for (const ReplayDirectionPick& d : replay_directions(*r.latency)) {
    for (const ReplayStat& st : k_replay_stats) {
      Group g = replay_step_group(
          fmt::format("{}{}{}", prefix, std::string(d.name).empty() ? "" : std::string(d.name) + "-", st.metric),
          replay_prefixed(d.name, st.title) + " per step",
          fmt::format("{}latency_{}_ns", std::string(d.name).empty() ? "" : std::string(d.name) + "_", st.metric),
          "ns");
      for (size_t k = 0; k < r.steps.size(); ++k) {
        const std::optional<ReplayLatency>& l = r.steps[k].latency;
        const double y = l && d.of(*l).ios > 0 ? st.of(d.of(*l)) : std::nan("");
        g.values.push_back({replay_step_label(k), replay_step_x(r.steps[k]), y});
      }
      out.push_back(std::move(g));
    }
  }
  return out;
}

// The whole replay: IOPS per direction and every response-time statistic per direction.
std::vector<Group> replay_total_groups(const ReplayRecord& r, const std::string& prefix) {
  if (!r.latency) return {};
  Group iops{prefix + "total-iops",
             "IOPS achieved (whole replay)",
             "iops",
             "IOPS",
             GroupKind::cells,
             XAxis::category,
             "Direction",
             false,
             {}};
  Group lat{prefix + "total-latency",
            "Response times (whole replay)",
            "latency_ns",
            "ns",
            GroupKind::cells,
            XAxis::category,
            "Statistic",
            true,
            {}};
  for (const ReplayDirectionPick& d : replay_directions(*r.latency)) {
    const ReplayDirectionLatency& f = d.of(*r.latency);
    const std::string dir = std::string(d.name).empty() ? "R+W" : d.name;
    iops.values.push_back({dir, std::nan(""), f.iops});
    for (const ReplayStat& st : k_replay_stats) lat.values.push_back({dir + " " + st.metric, std::nan(""), st.of(f)});
  }
  return {iops, lat};
}

// A rate ramp: per rate (x = % of the limit) the IOPS achieved and the response times, and the
// load curves (x = IOPS achieved, each run its own).
std::vector<Group> replay_ramp_groups(const ReplayRecord& r, const std::string& prefix) {
  if (!r.ramp || r.ramp->points.empty()) return {};
  const results::ReplayRamp& ramp = *r.ramp;
  std::vector<Group> out;
  Group achieved{prefix + "ramp-iops", "Ramp: IOPS achieved per rate",      "iops", "IOPS", GroupKind::cells,
                 XAxis::linear,        "Rate (% of the closed-loop limit)", false,  {}};
  achieved.x_unit = "%";
  achieved.lines = true;
  for (const results::RampPoint& p : ramp.points) {
    achieved.values.push_back({fmt::format("{:g} %", p.percent), p.percent, p.latency.combined.iops});
  }
  out.push_back(std::move(achieved));
  for (const char* metric : {"mean", "p99", "p99_9", "max"}) {
    const ReplayStat& st = *std::find_if(std::begin(k_replay_stats), std::end(k_replay_stats),
                                         [&](const ReplayStat& s) { return std::string(s.metric) == metric; });
    Group curve{prefix + "ramp-curve-" + metric,
                std::string("Load curve: ") + st.title + " vs IOPS",
                fmt::format("latency_{}_ns", metric),
                "ns",
                GroupKind::series,
                XAxis::linear,
                "IOPS achieved",
                true,
                {}};
    curve.x_unit = "IOPS";
    curve.lines = true;
    Group per_rate{prefix + "ramp-" + metric,
                   std::string("Ramp: ") + st.title + " per rate",
                   fmt::format("latency_{}_ns", metric),
                   "ns",
                   GroupKind::cells,
                   XAxis::linear,
                   "Rate (% of the closed-loop limit)",
                   true,
                   {}};
    per_rate.x_unit = "%";
    per_rate.lines = true;
    for (const results::RampPoint& p : ramp.points) {
      const std::string cell = fmt::format("{:g} %", p.percent);
      curve.values.push_back({cell, p.latency.combined.iops, st.of(p.latency.combined)});
      per_rate.values.push_back({cell, p.percent, st.of(p.latency.combined)});
    }
    out.push_back(std::move(curve));
    out.push_back(std::move(per_rate));
  }
  return out;
}

}  // namespace

std::vector<Group> replay_groups(const ReplayRecord& r, const std::string& prefix) {
  std::vector<Group> out = replay_step_groups(r, prefix);
  for (Group& g : replay_total_groups(r, prefix)) out.push_back(std::move(g));
  for (Group& g : replay_ramp_groups(r, prefix)) out.push_back(std::move(g));
  return out;
}

std::vector<RankValue> replay_rank_values(const ReplayRecord& r, std::string& basis) {
  if (!r.latency) return {};
  const ReplayDirectionLatency& all = r.latency->combined;
  const RankValue mean{"latency_mean_ns", "average response time", "ns", true, all.mean_ns};
  const RankValue p999{"latency_p99_9_ns", "99.9 % response time", "ns", true, static_cast<double>(all.p99_9_ns)};
  if (r.mode == "closed") {
    basis = r.ramp ? "the ramp's limit: the IOPS of the closed-loop replay (higher is better), then the average and "
                     "99.9 % response time"
                   : "closed loop: the IOPS achieved replaying the capture as fast as the target serves its order and "
                     "outstanding IOs (higher is better), then the average and 99.9 % response time";
    return {RankValue{"iops", "IOPS achieved", "IOPS", false, all.iops}, mean, p999};
  }
  basis =
      "open loop at the captured times: the steps that could not keep up (fewer is better), then the average and "
      "99.9 % response time (lower is better)";
  return {
      {"steps_fell_behind", "steps that could not keep up", "steps", true, static_cast<double>(r.steps_fell_behind)},
      mean,
      p999};
}

}  // namespace ptsuite::report::compare
