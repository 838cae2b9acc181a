// A scenario's replay phase (scenario/scenario_replay.hpp).
#include "scenario/scenario_replay.hpp"

#include <fmt/format.h>

#include <exception>
#include <thread>

#include <ptsuite/replay/replay_plan.hpp>
#include <ptsuite/replay/replay_runner.hpp>
#include <ptsuite/replay/replay_source.hpp>
#include <ptsuite/results/replay.hpp>
#include <ptsuite/results/scenario_writers.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::scenario::detail {

using nlohmann::json;

namespace {

replay::ReplayOptions replay_options(const PhaseSpec& p, const ScenarioRunOptions& run, uint64_t seed) {
  replay::ReplayOptions o;
  o.mode = p.closed_loop ? replay::ReplayMode::closed_loop : replay::ReplayMode::open_loop;
  o.speed = p.speed;
  o.step_ns = p.step_ns;
  o.engine = run.engine;
  o.seed = seed;
  o.stop = run.stop;
  return o;
}

}  // namespace

// A replay phase's capture readable, with reads or writes, its largest IO within every target.
void check_replay(const PhaseSpec& p, const std::vector<engine::TargetGeometry>& targets) {
  const std::string where = fmt::format("phase {}: capture", p.name);
  replay::ReplayPlan plan;
  try {
    const replay::ReplaySource source({p.capture});
    plan = replay::plan_replay(*source.open(), 0, p.step_ns);
  } catch (const UsageError& e) {
    throw UsageError(where, fmt::format("{}; nothing was written", e.what()));
  }
  if (plan.replay_ios == 0) throw UsageError(where, fmt::format("{} holds no read or write to replay", p.capture));
  for (size_t t = 0; t < targets.size(); ++t) {
    if (plan.max_length_bytes > targets[t].capacity_bytes) {
      throw UsageError(where, fmt::format("target {} ({} bytes) is smaller than the capture's largest IO ({} bytes)",
                                          t + 1, targets[t].capacity_bytes, plan.max_length_bytes));
    }
  }
}

void replay_on_targets(const PhaseSpec& p, const std::vector<ScenarioTarget>& targets, const ScenarioRunOptions& o,
                       const std::vector<uint64_t>& seeds, json& replays,
                       const std::function<void(const std::string&)>& message) {
  const replay::ReplaySource source({p.capture});
  std::vector<results::ReplayRecord> records(targets.size());
  std::vector<std::exception_ptr> errors(targets.size());
  const std::string started = utc_now_iso8601();
  {
    std::vector<std::jthread> threads;
    for (size_t t = 0; t < targets.size(); ++t) {
      threads.emplace_back([&, t] {
        try {
          records[t] =
              replay::run_replay(*source.open(), source.name(), *targets[t].target, replay_options(p, o, seeds[t]));
        } catch (...) {
          errors[t] = std::current_exception();
        }
      });
    }
  }
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  json out = json::array();
  const results::ReplayRecord* stopped = nullptr;
  for (size_t t = 0; t < records.size(); ++t) {
    results::ReplayRecord& r = records[t];
    r.started_utc = started;
    r.command = fmt::format("scenario replay phase {} (target {})", p.name, t + 1);
    json doc;
    to_json(doc, r);
    out.push_back(results::scenario_replay_entry(static_cast<uint32_t>(t), std::move(doc)));
    message(fmt::format("{}: target {}: {} reads and writes replayed in {}{}", p.name, t + 1, r.replayed_ios,
                        units::format_duration(r.duration_ns),
                        p.closed_loop ? ""
                                      : fmt::format(", issue error p99 {}, {} of {} step(s) could not keep up",
                                                    units::format_latency(static_cast<double>(r.issue_error_p99_ns)),
                                                    r.steps_fell_behind, r.steps.size())));
    if (r.stop_reason != "complete" && stopped == nullptr) stopped = &r;
  }
  replays = out;
  if (stopped != nullptr && stopped->stop_reason == "interrupted") {
    throw Error(ExitCode::interrupted, "interrupted; the scenario's finished steps are in results.json");
  }
  if (stopped != nullptr) {
    throw Error(ExitCode::io_error, fmt::format("{}: an IO error stopped the replay ({}); the finished steps are in "
                                                "results.json",
                                                p.name, stopped->error));
  }
}

}  // namespace ptsuite::scenario::detail
