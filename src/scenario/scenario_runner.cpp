// run_scenario(): phases -> steps -> concurrent stream instances (scenario_runner.hpp).
#include <ptsuite/scenario/scenario_runner.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <thread>

#include <ptsuite/device/purge.hpp>
#include <ptsuite/pts/steady_state_rule.hpp>
#include <ptsuite/results/app_run.hpp>
#include <ptsuite/results/scenario.hpp>
#include <ptsuite/results/scenario_writers.hpp>
#include <ptsuite/scenario/scenario_plan.hpp>
#include <ptsuite/stats/stats_json.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/rng.hpp>
#include <ptsuite/workload/workload_json.hpp>

#include "scenario/scenario_mixed.hpp"
#include "scenario/scenario_replay.hpp"

namespace ptsuite::scenario {

using nlohmann::json;

namespace {

using Instance = StepInstance;

struct StepResult {
  std::vector<Instance> instances;
  std::vector<workload::WorkloadResult> results;
};

// A stable per-step seed: the run seed mixed with the step's text (FNV-1a 64), so that a
// step's offsets do not depend on what ran before it.
uint64_t step_seed(uint64_t run_seed, const std::string& text) {
  uint64_t h = 1469598103934665603ULL;
  for (const char c : text) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return workload::derive_seed(run_seed ^ h, 0, workload::RngStream::io_decisions);
}

// The limits of one step of a phase: its duration, byte amount and interval series.
struct StepLimits {
  uint64_t duration_ns = 0;
  uint64_t bytes = 0;
  double bytes_range_multiple = 0;
  uint64_t interval_ns = 0;
};

StepLimits limits_of(const PhaseSpec& p) { return {p.duration_ns, p.bytes, p.bytes_range_multiple, p.interval_ns}; }

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

class PhaseRunner {
 public:
  PhaseRunner(const Scenario& s, const std::vector<ScenarioTarget>& targets, const ScenarioRunOptions& o)
      : m_s(s), m_targets(targets), m_o(o) {}

  // Appends each phase to `phases` before running it, so that a stop leaves every finished
  // step in place.
  void run(std::vector<results::ScenarioPhaseOut>& phases) {
    for (const PhaseSpec& p : m_s.phases) {
      results::ScenarioPhaseOut out;
      out.name = p.name;
      out.kind = to_string(p.kind);
      out.duration_ns = p.duration_ns;
      if (p.warmup_ns > 0) out.warmup_ns = p.warmup_ns;
      phases.push_back(std::move(out));
      m_figures.emplace_back();
      run_phase(p, phases.back());
    }
  }

 private:
  // Each step's per-target summaries, typed (results/scenario.hpp), per phase in order: what
  // rate ramps and steady-state checks read, for steps run now and journaled ones alike.
  using PhaseFigures = std::vector<std::vector<results::SummaryRecord>>;

  void message(const std::string& m) const {
    if (m_o.on_message) m_o.on_message(m);
  }

  void add_step(results::ScenarioPhaseOut& phase, json step) {
    m_figures.back().push_back(results::read_step_record(step).targets);
    phase.steps.push_back(std::move(step));
  }

  void measured(const PhaseSpec& p, results::ScenarioPhaseOut& phase, std::vector<Instance> in, std::string label,
                results::ScenarioStepX x) {
    const std::string key = fmt::format("{}/{}", p.name, phase.steps.size() + 1);
    if (std::optional<json> done = replayed(key)) {
      add_step(phase, std::move(*done));
      return;
    }
    if (p.warmup_ns > 0) warm_up(p, in, key);
    const StepResult r = run_step(std::move(in), m_targets, key, m_o);
    check_stopped(r);  // an interrupted step is dropped whole: it runs again on resume
    message(fmt::format("{} {}: {}", key, label, step_figures(r)));
    json step = step_json(r, m_targets.size(), std::move(label), std::move(x));
    if (m_o.on_step) m_o.on_step(key, step);
    add_step(phase, std::move(step));
  }

  // segment_warmup: the step's instances for the warm-up time, results discarded (not journaled;
  // a resumed step warms up again).
  void warm_up(const PhaseSpec& p, const std::vector<Instance>& in, const std::string& key) {
    std::vector<Instance> warm = in;
    for (Instance& i : warm) {
      i.spec.limits = {};
      i.spec.limits.duration_ns = p.warmup_ns;
      i.spec.interval_ns = 0;
    }
    check_stopped(run_step(std::move(warm), m_targets, key + "/warmup", m_o));
  }

  // A step (or purge) recorded by an earlier session of this run, if any.
  std::optional<json> replayed(const std::string& key) const {
    std::optional<json> done = m_o.replay ? m_o.replay(key) : std::nullopt;
    if (done) message(fmt::format("{}: done before the interruption (journal)", key));
    return done;
  }

  void run_phase(const PhaseSpec& p, results::ScenarioPhaseOut& phase) {
    const size_t n = m_targets.size();
    switch (p.kind) {
      case PhaseKind::purge:
        purge(p, phase);
        return;
      case PhaseKind::fill:
        fill(p, phase);
        return;
      case PhaseKind::run:
        measured(p, phase, instances_of(p.streams, n, limits_of(p), m_o), "run", {});
        return;
      case PhaseKind::txq:
        for (const TxqPoint& pt : p.txq) {
          results::ScenarioStepX x;
          x.threads = pt.threads;
          x.queue_depth = pt.queue_depth;
          measured(p, phase, instances_of(txq_streams(p, pt), n, limits_of(p), m_o),
                   fmt::format("TC {} / QD {}", pt.threads, pt.queue_depth), std::move(x));
        }
        return;
      case PhaseKind::rate_ramp:
        ramp(p, phase);
        return;
      case PhaseKind::rate_steps:
        steps(p, phase);
        return;
      case PhaseKind::steady_state:
        steady_state(p, phase);
        return;
      case PhaseKind::app:
        app(p, phase);
        return;
      case PhaseKind::replay:
        replay_phase(p, phase);
        return;
    }
  }

  // Each target its own replay of the capture, all at once (replay/replay_runner.hpp); the
  // records go under "replays" ({target, replay}) and into the journal as one entry. A replay
  // that did not complete stops the scenario after every target's record is in the phase (it
  // is not journaled: a resumed run replays the phase again, whole).
  void replay_phase(const PhaseSpec& p, results::ScenarioPhaseOut& phase) {
    const std::string key = p.name + "/replay";
    if (std::optional<json> done = replayed(key)) {
      phase.replays = std::move(*done);
      return;
    }
    message(fmt::format("{}: {} on {} target(s)", p.name, replay_label(p), m_targets.size()));
    std::vector<uint64_t> seeds;
    for (size_t t = 0; t < m_targets.size(); ++t) seeds.push_back(step_seed(m_o.seed, fmt::format("{}/{}", key, t)));
    json replays;
    try {
      detail::replay_on_targets(p, m_targets, m_o, seeds, replays, [this](const std::string& m) { message(m); });
    } catch (...) {
      if (!replays.is_null()) phase.replays = std::move(replays);
      throw;
    }
    if (m_o.on_step) m_o.on_step(key, replays);
    phase.replays = std::move(replays);
  }

  // An app phase; with streams a mixed one (scenario_runner.hpp): the streams resolved first,
  // started by the application's runner when its measured period begins.
  void app(const PhaseSpec& p, results::ScenarioPhaseOut& phase) {
    if (!p.app_targets.empty()) phase.app_targets = p.app_targets;
    const std::string key = p.name + "/app";
    const bool mixed = !p.streams.empty();
    if (std::optional<json> done = replayed(key)) {
      if (!mixed) {
        phase.app = std::move(*done);
        return;
      }
      results::ScenarioMixedEntry e = results::read_mixed_entry(*done);
      phase.streams_start_ns = e.streams_start_ns;
      add_step(phase, std::move(e.step));
      phase.app = std::move(e.app);
      return;
    }
    if (!m_o.run_app) throw UsageError(p.name, "app phases need the application runner (ptsuite scenario run)");
    std::optional<detail::MixedStreams> streams;
    if (mixed) {
      std::vector<Instance> in = mixed_instances(p, m_targets.size(), m_o);
      for (Instance& i : in) i.spec.seed = step_seed(m_o.seed, fmt::format("{}/{}/{}", key, i.stream, i.target));
      streams.emplace(std::move(in), m_targets, key);
      message(fmt::format("{}: {} with {} stream instance(s) on the other targets", p.name, p.app,
                          streams->instances().size()));
    }
    json doc = m_o.run_app(p, [&streams](uint64_t start_ns, uint64_t duration_ns) {
      if (streams) streams->start(start_ns, duration_ns);
    });
    const results::AppRun run = results::read_app_run(doc);
    if (run.status != "completed") {
      const ExitCode code = run.status == "interrupted" ? ExitCode::interrupted : ExitCode::system;
      phase.app = std::move(doc);
      throw Error(code, fmt::format("{}: the application run did not complete ({})", p.name, run.status));
    }
    message(fmt::format("{}: {} completed", p.name, p.app));
    json record = doc;
    if (streams) record = mixed_record(p, *streams, doc, phase);
    if (m_o.on_step) m_o.on_step(key, record);
    phase.app = std::move(doc);
  }

  // The mixed phase's streams as its one step, next to the application's document.
  json mixed_record(const PhaseSpec& p, detail::MixedStreams& streams, const json& doc,
                    results::ScenarioPhaseOut& phase) {
    if (!streams.started()) {
      throw Error(ExitCode::system, fmt::format("{}: the application's measured period never began", p.name));
    }
    StepResult r;
    r.results = streams.finish();
    r.instances = streams.instances();
    check_stopped(r);
    message(fmt::format("{} streams: {}", p.name, step_figures(r)));
    results::ScenarioStepX x;
    x.app = p.app;
    results::ScenarioMixedEntry e{doc, step_json(r, m_targets.size(), fmt::format("with {}", p.app), std::move(x)),
                                  streams.start_offset_ns()};
    phase.streams_start_ns = e.streams_start_ns;
    add_step(phase, e.step);
    return json(e);
  }

  void purge(const PhaseSpec& p, results::ScenarioPhaseOut& phase) {
    const std::string key = p.name + "/purge";
    if (std::optional<json> done = replayed(key)) {
      phase.purges = std::move(*done);
      return;
    }
    json records = json::array();
    for (size_t t = 0; t < m_targets.size(); ++t) {
      if (m_targets[t].session == nullptr) throw Error(ExitCode::system, "purge needs a device session");
      device::PurgeOptions options;
      options.method = device::parse_purge_method(p.purge_method);
      options.allow_destructive = m_o.allow_destructive;
      options.confirm_serial = m_targets[t].confirm_serial;
      options.on_message = m_o.on_message;
      const device::PurgeRecord rec = m_targets[t].session->purge(options);
      if (rec.outcome != device::PurgeOutcome::succeeded) {
        throw Error(ExitCode::system, fmt::format("purge of target {} {}: {}", t + 1, device::to_string(rec.outcome),
                                                  rec.messages.empty() ? rec.description : rec.messages.back()));
      }
      records.push_back(results::scenario_purge_entry(rec, static_cast<uint32_t>(t)));
      message(fmt::format("{}: target {} purged ({})", p.name, t + 1, rec.description));
    }
    if (m_o.on_step) m_o.on_step(key, records);
    phase.purges = std::move(records);
  }

  void fill(const PhaseSpec& p, results::ScenarioPhaseOut& phase) {
    results::ScenarioStepX x;
    x.capacity_multiple = p.fill_capacity_multiple;
    measured(
        p, phase, fill_instances(p, m_targets.size(), m_o),
        fmt::format("SEQ {} W, {}x capacity", units::format_size_binary(p.fill_block_bytes), p.fill_capacity_multiple),
        std::move(x));
  }

  // 100 % = each target's aggregate IOPS in the last step of the `percent_of` phase.
  void ramp(const PhaseSpec& p, results::ScenarioPhaseOut& phase) {
    const auto ref =
        std::find_if(m_s.phases.begin(), m_s.phases.end(), [&](const PhaseSpec& d) { return d.name == p.percent_of; });
    const size_t index = static_cast<size_t>(ref - m_s.phases.begin());
    if (ref == m_s.phases.end() || index + 1 >= m_figures.size() || m_figures[index].empty()) {
      throw UsageError(p.name, fmt::format("percent_of \"{}\" measured nothing", p.percent_of));
    }
    const std::vector<results::SummaryRecord> last = m_figures[index].back();
    for (const double pct : p.percents) {
      std::vector<Instance> in = instances_of(p.streams, m_targets.size(), limits_of(p), m_o);
      results::ScenarioStepX x;
      x.percent = pct;
      x.instance_rates_iops.emplace();
      for (Instance& i : in) {
        const double peak = last.at(i.target).combined.iops;
        i.spec.rate.iops = std::max(1.0, peak * pct / 100.0);
        x.instance_rates_iops->push_back(i.spec.rate.iops);
      }
      measured(p, phase, std::move(in), fmt::format("{:g} % of peak", pct), std::move(x));
    }
  }

  void steps(const PhaseSpec& p, results::ScenarioPhaseOut& phase) {
    for (const double rate : p.step_rates) {
      results::ScenarioStepX x;
      (p.step_mb_per_s ? x.rate_mbps : x.rate_iops) = rate;
      measured(p, phase, instances_of(rate_step_streams(p, rate), m_targets.size(), limits_of(p), m_o),
               fmt::format("{} {:g} {}", p.step_stream, rate, p.step_mb_per_s ? "MB/s" : "IOPS"), std::move(x));
    }
  }

  static double variable_of(const results::SummaryRecord& summary, const std::string& variable) {
    if (variable == "mb_per_s") return summary.combined.mb_per_s;
    if (variable == "mean_latency") return summary.combined.latency.mean_ns;
    return summary.combined.iops;
  }

  void steady_state(const PhaseSpec& p, results::ScenarioPhaseOut& phase) {
    const pts::SteadyStateCriteria& criteria = pts::common_steady_state_rule().criteria;  // pts/common.json
    std::vector<std::vector<double>> values(m_targets.size());
    std::vector<uint32_t> rounds;
    results::ScenarioSteadyStateOut out;
    out.verdicts = json::array();
    bool attained = false;
    for (uint32_t round = 1; round <= p.max_rounds && !attained; ++round) {
      results::ScenarioStepX x;
      x.round = round;
      measured(p, phase, instances_of(p.streams, m_targets.size(), limits_of(p), m_o), fmt::format("Round {}", round),
               std::move(x));
      rounds.push_back(round);
      out.verdicts = json::array();
      attained = true;
      for (size_t t = 0; t < m_targets.size(); ++t) {
        values[t].push_back(variable_of(m_figures.back().back().at(t), p.variable));
        const pts::SteadyStateVerdict v =
            pts::evaluate_window(fmt::format("target {} {}", t, p.variable), rounds, values[t], criteria);
        attained = attained && v.attained;
        out.verdicts.push_back(v);
      }
    }
    out.attained = attained;
    out.variable = p.variable;
    out.rounds_run = rounds.size();
    out.max_rounds = p.max_rounds;
    phase.steady_state = std::move(out);
    message(fmt::format("{}: steady state {} after {} Round(s)", p.name, attained ? "attained" : "NOT attained",
                        rounds.size()));
  }

  const Scenario& m_s;
  const std::vector<ScenarioTarget>& m_targets;
  const ScenarioRunOptions& m_o;
  std::vector<PhaseFigures> m_figures;  // per phase so far (rate_ramp reads an earlier one)
};

}  // namespace

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

void run_scenario(const Scenario& s, const std::vector<ScenarioTarget>& targets, const ScenarioRunOptions& options,
                  std::vector<results::ScenarioPhaseOut>& phases) {
  if (targets.empty()) throw UsageError("--target", "a scenario needs at least one target");
  if (s.targets.exact && targets.size() != s.targets.count) {
    throw UsageError("--target", fmt::format("{} needs exactly {} targets (roles: {}); {} given", s.name,
                                             s.targets.count, fmt::join(s.targets.names, ", "), targets.size()));
  }
  phases.clear();
  PhaseRunner(s, targets, options).run(phases);
}

namespace {

// Every stream instance a phase can run, as the runner builds them (a rate ramp at 1 IOPS: its
// rates are known only when it runs, and never change what resolve() checks).
std::vector<std::vector<Instance>> phase_instances(const PhaseSpec& p, size_t n, const ScenarioRunOptions& o) {
  std::vector<std::vector<Instance>> out;
  switch (p.kind) {
    case PhaseKind::purge:
    case PhaseKind::replay:
      break;
    case PhaseKind::app:
      if (!p.streams.empty()) out.push_back(mixed_instances(p, n, o));
      break;
    case PhaseKind::fill:
      out.push_back(fill_instances(p, n, o));
      break;
    case PhaseKind::run:
    case PhaseKind::steady_state:
      out.push_back(instances_of(p.streams, n, limits_of(p), o));
      break;
    case PhaseKind::txq:
      for (const TxqPoint& pt : p.txq) out.push_back(instances_of(txq_streams(p, pt), n, limits_of(p), o));
      break;
    case PhaseKind::rate_ramp:
      out.push_back(instances_of(p.streams, n, limits_of(p), o));
      for (Instance& i : out.back()) i.spec.rate.iops = 1;
      break;
    case PhaseKind::rate_steps:
      for (const double rate : p.step_rates) {
        out.push_back(instances_of(rate_step_streams(p, rate), n, limits_of(p), o));
      }
      break;
  }
  return out;
}

}  // namespace

void check_scenario(const Scenario& s, const std::vector<engine::TargetGeometry>& targets,
                    const ScenarioRunOptions& options) {
  for (const PhaseSpec& p : s.phases) {
    if (p.kind == PhaseKind::replay) detail::check_replay(p, targets);
    if (p.kind == PhaseKind::purge) {
      try {
        (void)device::parse_purge_method(p.purge_method);
      } catch (const UsageError&) {
        throw UsageError(fmt::format("phase {}: purge_method", p.name),
                         fmt::format("unknown purge method \"{}\" (one of: {}); nothing was written", p.purge_method,
                                     fmt::join(device::purge_method_names(), ", ")));
      }
    }
    for (const std::vector<Instance>& step : phase_instances(p, targets.size(), options)) {
      for (const Instance& in : step) {
        try {
          (void)workload::resolve(in.spec, targets.at(in.target));
        } catch (const UsageError& e) {
          throw UsageError(fmt::format("phase {}: stream {} on target {}", p.name, in.stream, in.target + 1),
                           fmt::format("{}; nothing was written", e.what()));
        }
      }
    }
  }
}

}  // namespace ptsuite::scenario
