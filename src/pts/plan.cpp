#include <ptsuite/pts/plan.hpp>

#include <algorithm>
#include <cmath>

#include <ptsuite/stats/stats_json.hpp>

namespace ptsuite::pts {

using nlohmann::json;

namespace {

stats::DirectionSummary synthetic_direction(uint64_t ios, uint64_t bytes, uint64_t latency_ns, uint64_t elapsed_ns) {
  stats::DirectionSummary d;
  d.ios = ios;
  d.bytes = bytes;
  const double seconds = static_cast<double>(elapsed_ns) / 1e9;
  d.iops = seconds > 0 ? static_cast<double>(ios) / seconds : 0;
  d.mb_per_s = seconds > 0 ? static_cast<double>(bytes) / seconds / 1e6 : 0;
  if (ios > 0) {
    d.latency_min_ns = latency_ns;
    d.latency_max_ns = latency_ns;
    d.latency_mean_ns = static_cast<double>(latency_ns);
    for (double p : stats::k_standard_percentiles) {
      d.percentiles.push_back({p, latency_ns});
    }
  }
  return d;
}

// The slot a segment occupies in its Round ("iops/main/s12" for "iops/main/r003-s12"), so that
// the worst case can alternate values Round by Round per slot.
std::string slot_of(const StepId& id) {
  const size_t dash = id.name.find('-');
  return id.test + "/" + id.phase + "/" + (dash == std::string::npos ? id.name : id.name.substr(dash + 1));
}

}  // namespace

SegmentResult synthetic_segment_result(const SegmentSpec& spec, double iops, uint64_t latency_ns, uint64_t elapsed_ns) {
  SegmentResult r;
  double mean_bytes = 0;
  double weight_sum = 0;
  for (const workload::BlockSizeWeight& b : spec.block_sizes) {
    mean_bytes += static_cast<double>(b.bytes) * b.weight;
    weight_sum += b.weight;
  }
  mean_bytes = weight_sum > 0 ? mean_bytes / weight_sum : 4096;
  const auto ios = static_cast<uint64_t>(std::llround(iops * static_cast<double>(elapsed_ns) / 1e9));
  const auto reads = static_cast<uint64_t>(std::llround(static_cast<double>(ios) * spec.mix.read_pct / 100.0));
  const uint64_t writes = ios - reads;
  const auto bytes_of = [&](uint64_t n) {
    return static_cast<uint64_t>(std::llround(static_cast<double>(n) * mean_bytes));
  };
  r.summary.read = synthetic_direction(reads, bytes_of(reads), latency_ns, elapsed_ns);
  r.summary.write = synthetic_direction(writes, bytes_of(writes), latency_ns, elapsed_ns);
  r.summary.combined = synthetic_direction(ios, bytes_of(ios), latency_ns, elapsed_ns);
  r.read_histogram.record_n(latency_ns, reads);
  r.write_histogram.record_n(latency_ns, writes);
  r.combined_histogram.record_n(latency_ns, ios);
  r.elapsed_ns = elapsed_ns;
  r.stop_reason = "planned";
  return r;
}

json PlanningExecutor::execute(const StepId& id, const StepRequest& request) {
  PlanStep step;
  step.id = id.text();
  step.kind = to_string(request.kind);
  step.loop_time_limit_ns = request.plan_time_limit_ns;
  if (step.loop_time_limit_ns > 0) step.loop = id.test + "/" + id.phase;
  if (request.kind == StepKind::purge) {
    step.label = "purge (" + request.purge_method + ")";
    step.duration_ns = m_assumptions.purge_ns;
    step.estimated = true;
    m_steps.push_back(step);
    return PlannedStepResult{request.purge_method};
  }
  if (request.kind == StepKind::idle) {
    step.label = "host idle";
    step.duration_ns = request.idle_ns;
    m_steps.push_back(step);
    return IdleStepResult{request.idle_ns, request.idle_ns, "", "", true};
  }
  if (request.kind != StepKind::segment) {
    step.label = to_string(request.kind);
    step.overhead_ns = request.kind == StepKind::health ? m_assumptions.health_ns : 0;
    m_steps.push_back(step);
    return PlannedStepResult{};
  }
  const SegmentSpec& s = request.segment;
  const bool sequential_rate =
      s.pattern == workload::AccessPattern::sequential && m_assumptions.sequential_write_mb_per_s > 0;
  const double rate_mb_per_s =
      sequential_rate ? m_assumptions.sequential_write_mb_per_s : m_assumptions.write_rate(s.threads, s.queue_depth);
  const double rate_bytes_per_ns = rate_mb_per_s * 1e6 / 1e9;
  step.label = s.label;
  step.threads = s.threads;
  step.queue_depth = s.queue_depth;
  for (const workload::BlockSizeWeight& b : s.block_sizes) {
    step.max_block_bytes = std::max<uint64_t>(step.max_block_bytes, b.bytes);
  }
  step.overhead_ns = m_assumptions.segment_overhead_ns(
      s.threads, segment_footprint_bytes(s.threads, s.queue_depth, step.max_block_bytes));
  step.duration_ns = s.duration_ns;
  // A timed step with a byte limit (WSAT's samples) reaches the limit only if it writes: the
  // worst case writes nothing, so it lasts its full length. Before, a small target's samples
  // were timed at its few bytes and a 6-hour WSAT planned hundreds of thousands of them.
  if (s.bytes_limit > 0 && !(m_case == PlanCase::worst && s.duration_ns > 0)) {
    const auto byte_time_ns = static_cast<uint64_t>(static_cast<double>(s.bytes_limit) / rate_bytes_per_ns);
    step.duration_ns = s.duration_ns > 0 ? std::min(s.duration_ns, byte_time_ns) : byte_time_ns;
    step.estimated = s.duration_ns == 0 || byte_time_ns < s.duration_ns;
  }
  // A step's own bytes: what it moves in its time at the assumed rate, at most its limit (a
  // WSAT sample's limit is all that is left of the 4X target, not what one sample writes).
  const bool byte_limited = s.bytes_limit > 0 && (s.duration_ns == 0 || step.duration_ns < s.duration_ns);
  step.bytes =
      byte_limited ? s.bytes_limit : static_cast<uint64_t>(static_cast<double>(step.duration_ns) * rate_bytes_per_ns);
  const uint64_t measured_ns = step.duration_ns;
  // segment.warmup: the unmeasured run before the measured one takes its time and moves its bytes.
  step.duration_ns += s.warmup_ns;
  step.bytes += static_cast<uint64_t>(static_cast<double>(s.warmup_ns) * rate_bytes_per_ns);
  m_steps.push_back(step);

  // Worst case: each Round slot alternates between two values 3x apart in IOPS, MB/s AND
  // response time (a 100 % excursion never passes the 20 % rule, whatever the tracking metric:
  // Latency tracks the mean response time) and writes nothing, so WSAT runs to its time limit.
  // Best case: constant values at the assumed write rate.
  const std::string slot = slot_of(id);
  auto it = std::find_if(m_calls.begin(), m_calls.end(), [&](const auto& c) { return c.first == slot; });
  if (it == m_calls.end()) {
    m_calls.emplace_back(slot, 0);
    it = m_calls.end() - 1;
  }
  // A step that names its Round (WSAT's samples under stop_rule=steady-state) swings by Round,
  // so its check samples never attain steady state in the worst case.
  const uint64_t call = request.plan_round > 0 ? request.plan_round - 1 : it->second;
  ++it->second;
  const double mean_block = s.block_sizes.empty() ? 4096.0 : static_cast<double>(s.block_sizes.front().bytes);
  double iops = (sequential_rate ? rate_mb_per_s : m_assumptions.write_mb_per_s) * 1e6 / mean_block;
  uint64_t latency_ns = 100'000;
  if (m_case == PlanCase::worst) {
    iops = call % 2 == 0 ? 1000.0 : 3000.0;
    latency_ns = call % 2 == 0 ? 300'000 : 100'000;
  }
  const uint64_t elapsed_ns = measured_ns + (m_assumptions.overhead_in_elapsed ? step.overhead_ns : 0);
  SegmentResult r = synthetic_segment_result(s, iops, latency_ns, std::max<uint64_t>(elapsed_ns, 1));
  if (m_case == PlanCase::worst) {
    r.summary.write.bytes = 0;
  }
  // Lean: no test decides on histograms or percentiles (tracking variables are IOPS, MB/s and
  // mean / max response times), so a planned result carries neither; the record a plan builds
  // then costs a few KiB per segment (plan memory grows by that per Round: docs/performance.md).
  r.read_histogram = r.write_histogram = r.combined_histogram = stats::LatencyHistogram();
  for (stats::DirectionSummary* d : {&r.summary.read, &r.summary.write, &r.summary.combined}) {
    d->percentiles.clear();
  }
  return r;
}

Plan make_plan(const std::vector<std::string>& test_ids, const DefinitionSet& defs, const SpecContext& spec,
               const Settings& settings, TargetFacts target, PlanCase plan_case, PlanAssumptions assumptions) {
  PlanningExecutor exec(plan_case, assumptions);
  TestContext ctx{defs, spec, settings, exec, target};
  for (const std::string& id : test_ids) {
    (void)make_test(id)->run(ctx);
  }
  return plan_of(exec.steps(), assumptions);
}

Plan plan_of(std::vector<PlanStep> steps, const PlanAssumptions& assumptions) {
  Plan plan;
  plan.steps = std::move(steps);
  plan.assumptions = assumptions;
  std::string test;
  uint64_t steps_so_far = 0;
  const auto document_ns = [&](uint64_t step_count) {
    return static_cast<uint64_t>(static_cast<double>(step_count * k_record_bytes_per_step) *
                                 assumptions.document_ns_per_byte);
  };
  for (const PlanStep& s : plan.steps) {
    const std::string step_test = s.id.substr(0, s.id.find('/'));
    if (!test.empty() && step_test != test) {
      plan.documents_ns += document_ns(steps_so_far);
    }
    test = step_test;
    ++steps_so_far;
    plan.total_ns += s.duration_ns + s.overhead_ns;
  }
  if (!test.empty()) {
    plan.documents_ns += document_ns(steps_so_far);
  }
  plan.total_ns += plan.documents_ns;
  return plan;
}

double PlanAssumptions::write_rate(uint32_t threads, uint32_t queue_depth) const {
  for (const WriteRate& r : write_rates) {
    if (r.threads == threads && r.queue_depth == queue_depth) {
      return r.mb_per_s;
    }
  }
  return write_mb_per_s;
}

uint64_t PlanAssumptions::segment_overhead_ns(uint32_t threads, uint64_t footprint_bytes) const {
  return step_overhead_ns + overhead_per_thread_ns * threads +
         static_cast<uint64_t>(static_cast<double>(overhead_per_mib_ns) * static_cast<double>(footprint_bytes) /
                               (1024.0 * 1024.0));
}

void to_json(json& j, const PlanAssumptions& a) {
  json rates = json::array();
  for (const WriteRate& r : a.write_rates) {
    rates.push_back({{"threads", r.threads}, {"queue_depth", r.queue_depth}, {"mb_per_s", r.mb_per_s}});
  }
  j = json{{"write_mb_per_s", a.write_mb_per_s},
           {"write_rates", std::move(rates)},
           {"write_basis", a.write_basis},
           {"purge_ns", a.purge_ns},
           {"purge_basis", a.purge_basis},
           {"step_overhead_ns", a.step_overhead_ns},
           {"overhead_per_thread_ns", a.overhead_per_thread_ns},
           {"overhead_per_mib_ns", a.overhead_per_mib_ns},
           {"health_ns", a.health_ns},
           {"document_ns_per_byte", a.document_ns_per_byte},
           {"overhead_basis", a.overhead_basis}};
}

void to_json(json& j, const PlanStep& s) {
  j = json{{"id", s.id},
           {"kind", s.kind},
           {"label", s.label},
           {"threads", s.threads},
           {"queue_depth", s.queue_depth},
           {"duration_ns", s.duration_ns},
           {"bytes", s.bytes},
           {"estimated", s.estimated},
           {"overhead_ns", s.overhead_ns}};
}

}  // namespace ptsuite::pts
