// A step's stream instances and running them (scenario_steps.hpp); merged_summary() and
// step_record() (scenario_runner.hpp).
#include "scenario/scenario_steps.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <exception>
#include <thread>

#include <ptsuite/results/scenario_writers.hpp>
#include <ptsuite/stats/stats_json.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/rng.hpp>
#include <ptsuite/workload/workload_json.hpp>

namespace ptsuite::scenario {

using nlohmann::json;

namespace {

using detail::Instance;
using detail::StepLimits;

workload::WorkloadSpec workload_of(const StreamSpec& s, const StepLimits& l, const ScenarioRunOptions& o) {
  workload::WorkloadSpec w;
  w.pattern = s.pattern;
  w.read_pct = s.read_pct;
  w.block_sizes = s.block_sizes;
  w.active_range = s.range;
  w.threads = s.threads;
  w.queue_depth = s.queue_depth;
  w.rate = s.rate;
  w.limits.duration_ns = l.duration_ns;
  w.limits.bytes = l.bytes;
  w.limits.bytes_range_multiple = l.bytes_range_multiple;
  w.interval_ns = l.interval_ns;
  w.engine = o.engine;
  return w;
}

results::ScenarioInstanceOut instance_out(const Instance& in, const workload::WorkloadResult& r) {
  results::ScenarioInstanceOut out;
  out.stream = in.stream;
  out.target = in.target;
  out.threads = in.spec.threads;
  out.queue_depth = in.spec.queue_depth;
  out.rate_iops = in.spec.rate.iops;
  out.rate_mb_per_s = in.spec.rate.mb_per_s;
  out.seed = in.spec.seed;
  out.elapsed_ns = r.elapsed_ns;
  out.stop_reason = workload::to_string(r.stop_reason);
  out.summary = stats::summarize(r.stats, r.elapsed_ns);
  out.histogram_read = r.stats.read.histogram;
  out.histogram_write = r.stats.write.histogram;
  out.histogram_combined = r.stats.combined().histogram;
  if (!r.intervals.empty()) {
    out.interval_ns = in.spec.interval_ns;
    out.intervals = workload::intervals_json(r.intervals);
  }
  return out;
}

}  // namespace

namespace detail {

// A stable per-step seed: the run seed mixed with the step's text (FNV-1a 64), so that a
// step's offsets do not depend on what ran before it.
uint64_t step_seed(uint64_t run_seed, const std::string& text) {
  uint64_t h = 1469598103934665603ULL;
  for (const char c : text) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return workload::derive_seed(run_seed ^ h, 0, workload::RngStream::io_decisions);
}

StepLimits limits_of(const PhaseSpec& p) { return {p.duration_ns, p.bytes, p.bytes_range_multiple, p.interval_ns}; }

std::vector<Instance> instances_of(const std::vector<StreamSpec>& streams, size_t target_count, const StepLimits& l,
                                   const ScenarioRunOptions& o) {
  std::vector<Instance> out;
  for (const StreamSpec& s : streams) {
    for (uint32_t t = 0; t < target_count; ++t) {
      if (s.targets.each || s.targets.role == t) out.push_back({s.name, t, workload_of(s, l, o)});
    }
  }
  return out;
}

// The streams of a TxQ point and of a rate step (shared by the run and the pre-check).
std::vector<StreamSpec> txq_streams(const PhaseSpec& p, const TxqPoint& pt) {
  std::vector<StreamSpec> s = p.streams;
  s[0].threads = pt.threads;
  s[0].queue_depth = pt.queue_depth;
  return s;
}

std::vector<StreamSpec> rate_step_streams(const PhaseSpec& p, double rate) {
  std::vector<StreamSpec> s = p.streams;
  for (StreamSpec& st : s) {
    if (st.name != p.step_stream) continue;
    st.rate = {};
    (p.step_mb_per_s ? st.rate.mb_per_s : st.rate.iops) = rate;
  }
  return s;
}

// A fill phase: each target written sequentially, `fill_capacity_multiple` x its capacity.
std::vector<Instance> fill_instances(const PhaseSpec& p, size_t target_count, const ScenarioRunOptions& o) {
  std::vector<Instance> in;
  for (uint32_t t = 0; t < target_count; ++t) {
    workload::WorkloadSpec w;
    w.pattern = workload::AccessPattern::sequential;
    w.read_pct = 0;
    w.block_sizes = {{p.fill_block_bytes, 1.0}};
    w.queue_depth = 32;
    w.limits.bytes_range_multiple = p.fill_capacity_multiple;
    w.engine = o.engine;
    in.push_back({"fill", t, w});
  }
  return in;
}

// A mixed phase's streams: "each" on each target the application does not use. Their length
// is the application's measured period (known when it starts); 1 s stands in until then.
std::vector<Instance> mixed_instances(const PhaseSpec& p, size_t target_count, const ScenarioRunOptions& o) {
  std::vector<Instance> out;
  for (Instance& i : instances_of(p.streams, target_count, {1'000'000'000, 0, 0, p.interval_ns}, o)) {
    if (std::find(p.app_targets.begin(), p.app_targets.end(), i.target) == p.app_targets.end()) {
      out.push_back(std::move(i));
    }
  }
  return out;
}

// Resolves every instance (all input errors before any IO), then runs them concurrently.
StepResult run_step(std::vector<Instance> instances, const std::vector<ScenarioTarget>& targets,
                    const std::string& step_text, const ScenarioRunOptions& o) {
  std::vector<workload::ResolvedWorkload> resolved;
  for (Instance& in : instances) {
    in.spec.seed = step_seed(o.seed, fmt::format("{}/{}/{}", step_text, in.stream, in.target));
    try {
      resolved.push_back(workload::resolve(in.spec, targets[in.target].target->geometry()));
    } catch (const UsageError& e) {
      throw UsageError(fmt::format("{}: stream {} on target {}", step_text, in.stream, in.target + 1), e.what());
    }
  }
  StepResult out;
  out.results.resize(instances.size());
  workload::RunControl control;
  control.stop_requested = o.stop;
  std::vector<std::exception_ptr> errors(instances.size());
  {
    std::vector<std::jthread> threads;
    for (size_t i = 0; i < instances.size(); ++i) {
      threads.emplace_back([&, i] {
        try {
          out.results[i] = workload::run_workload(resolved[i], *targets[instances[i].target].target, control);
        } catch (...) {
          errors[i] = std::current_exception();
        }
      });
    }
  }
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  out.instances = std::move(instances);
  return out;
}

json step_json(const StepResult& r, size_t target_count, std::string label, results::ScenarioStepX x) {
  return step_record(r.instances, r.results, target_count, std::move(label), std::move(x));
}

void check_stopped(const StepResult& r) {
  for (const workload::WorkloadResult& w : r.results) {
    if (w.stop_reason == workload::StopReason::interrupted) {
      throw Error(ExitCode::interrupted, "interrupted; the scenario's finished steps are in results.json");
    }
    if (w.stop_reason == workload::StopReason::io_error) {
      throw Error(ExitCode::io_error, "an IO error stopped the scenario; the finished steps are in results.json");
    }
  }
}

// "12345 IOPS, 12.3 MB/s, mean 80.1us": what a step measured, over all its instances.
std::string step_figures(const StepResult& r) {
  std::vector<const workload::WorkloadResult*> all;
  for (const workload::WorkloadResult& w : r.results) all.push_back(&w);
  const stats::DirectionSummary c = merged_summary(all).combined;
  return fmt::format("{:.0f} IOPS, {:.1f} MB/s, mean {}", c.iops, c.mb_per_s, units::format_latency(c.latency_mean_ns));
}

}  // namespace detail

stats::IoSummary merged_summary(const std::vector<const workload::WorkloadResult*>& parts) {
  stats::IoStats merged;
  uint64_t elapsed_ns = 0;
  stats::IoSummary sums;
  for (const workload::WorkloadResult* p : parts) {
    merged.merge(p->stats);
    elapsed_ns = std::max(elapsed_ns, p->elapsed_ns);
    const stats::IoSummary s = stats::summarize(p->stats, p->elapsed_ns);
    for (auto [sum, part] : {std::pair{&sums.read, &s.read}, {&sums.write, &s.write}, {&sums.combined, &s.combined}}) {
      sum->iops += part->iops;
      sum->mb_per_s += part->mb_per_s;
    }
  }
  stats::IoSummary out = stats::summarize(merged, elapsed_ns);
  // Concurrent streams add up: the rates are sums of each stream's own rate over its own time.
  for (auto [o, sum] : {std::pair{&out.read, &sums.read}, {&out.write, &sums.write}, {&out.combined, &sums.combined}}) {
    o->iops = sum->iops;
    o->mb_per_s = sum->mb_per_s;
  }
  return out;
}

json step_record(const std::vector<StepInstance>& instances, const std::vector<workload::WorkloadResult>& results,
                 size_t target_count, std::string label, results::ScenarioStepX x) {
  results::ScenarioStepOut out;
  out.label = std::move(label);
  out.x = std::move(x);
  for (size_t i = 0; i < instances.size(); ++i) out.streams.push_back(instance_out(instances[i], results[i]));
  std::vector<const workload::WorkloadResult*> all;
  for (uint32_t t = 0; t < target_count; ++t) {
    std::vector<const workload::WorkloadResult*> parts;
    for (size_t i = 0; i < instances.size(); ++i) {
      if (instances[i].target == t) parts.push_back(&results[i]);
    }
    all.insert(all.end(), parts.begin(), parts.end());
    out.target_summaries.push_back(parts.empty() ? json() : json(merged_summary(parts)));
  }
  out.aggregate = merged_summary(all);
  return out;
}

}  // namespace ptsuite::scenario
