// Write Saturation, PTS 2.0.2 §10: from the purged state (no WIPC), write continuously at the
// test TOIO in fixed-length samples (1 minute) until wsat.capacity_multiple x user capacity
// (4X) is written or wsat.time_limit passes, whichever comes first. The last sample is
// byte-limited to what is left, so the run stops at the capacity multiple (to within one IO
// per thread), not up to a sample later. Every sample records IOPS, TGBW, drive fills, ART,
// 99.999 % and MRT. PTS 2.0 then adds a RND 4 KiB W response-time capture. The stimulus is
// RND 4 KiB 100 % W unless an optional 2.0 workload is chosen; the record's subtitle names it.
// With wsat.stop_rule=steady-state the capacity and time stops give way to a steady-state stop
// on every Round's check sample (SteadyStateStop below).
// `endurance-write` (pts/tests/endurance-write.json; a ptsuite extension, never a PTS test) is
// the same procedure with no capacity stop (its data has no "capacity_multiple"), no capture,
// a 600-minute default time limit and its own TOIO settings; record key "endurance".
#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include <ptsuite/pts/procedures/shared.hpp>
#include <ptsuite/results/write_stream.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

#include "pts/procedures/factories.hpp"

namespace ptsuite::pts {

namespace {

SegmentSpec wsat_segment(TestSpec& spec, TestContext& ctx, const std::string& workload, uint32_t tc, uint32_t qd,
                         uint64_t duration_ns) {
  const nlohmann::json w = spec.get("workloads").value.at(workload);
  const RwMix mix = parse_rw_mix(w.at("rw_mix").get<std::string>(), "wsat/workloads");
  const workload::AccessPattern pattern = parse_access_pattern(w.at("pattern").get<std::string>(), "wsat/workloads");
  if (w.value("composite", false)) {
    TestSpec cbw(ctx, "cbw");
    const CompositeMix cm = composite_mix(cbw, spec);
    SegmentSpec s = make_segment(pattern, mix, 4096, tc, qd, duration_ns);
    s.block_sizes = cm.block_sizes;
    s.zones = cm.zones;
    s.label = segment_label(pattern, s.block_sizes, mix);
    return s;
  }
  const uint64_t bs = units::parse_size_bytes(w.at("block_size").get<std::string>(), "wsat/workloads");
  if (bs % ctx.target.logical_block_bytes != 0) {
    throw UsageError("--set wsat.workload",
                     fmt::format("the {} workload's {} blocks are not a multiple of this device's "
                                 "{}-byte logical block",
                                 workload, units::format_size_binary(bs), ctx.target.logical_block_bytes));
  }
  SegmentSpec s = make_segment(pattern, mix, bs, tc, qd, duration_ns);
  if (pattern == workload::AccessPattern::sequential) {
    s.sequence_key = "wsat";
  }
  return s;
}

// Bytes (read + write) a sample may transfer so that the writes end at the target: what is
// left to write over the write share of the mix, rounded up to whole blocks per thread. 0 (no
// byte limit) for a mix without writes.
uint64_t sample_byte_limit(const SegmentSpec& s, uint64_t left_to_write) {
  const double write_share = (100.0 - s.mix.read_pct) / 100.0;
  if (write_share <= 0) {
    return 0;
  }
  uint64_t max_block = 0;
  for (const workload::BlockSizeWeight& b : s.block_sizes) {
    max_block = std::max(max_block, b.bytes);
  }
  const uint64_t unit = max_block * s.threads;
  const auto total = static_cast<uint64_t>(std::ceil(static_cast<double>(left_to_write) / write_share));
  return (total + unit - 1) / unit * unit;
}

// The target counts as written when less than one IO per thread is missing (an IO cannot be
// split).
bool capacity_reached(const SegmentSpec& s, uint64_t written, uint64_t target) {
  uint64_t min_block = UINT64_MAX;
  for (const workload::BlockSizeWeight& b : s.block_sizes) {
    min_block = std::min(min_block, b.bytes);
  }
  return written >= target || target - written < min_block;
}

results::WriteStreamSample sample_of(uint32_t n, const SegmentResult& r, uint64_t written_bytes, uint64_t elapsed_ns,
                                     uint64_t capacity_bytes, nlohmann::json health) {
  const stats::DirectionSummary& c = r.summary.combined;
  return {n,
          static_cast<double>(elapsed_ns) / 1e9,
          written_bytes,
          static_cast<double>(written_bytes) / 1e9,
          static_cast<double>(written_bytes) / static_cast<double>(capacity_bytes),
          c.iops,
          c.mb_per_s,
          response_times(c),
          results::Embedded(std::move(health)),
          results::Embedded(r)};
}

// wsat.stop_rule=steady-state (PTS-E 1.1's alternate method, a 2.0 option): every
// `round_samples`-th sample is a Round's check sample; from the common first check Round on,
// the check samples' IOPS are judged by the common rule (steady_state.hpp); the run stops when
// they attain steady state, or at the Round cap (judged on the last window, disclosed).
struct SteadyStateStop {
  bool enabled = false;
  uint32_t round_samples = 0;
  RoundLoopSpec rules;  // criteria, first_check_round and max_rounds (apply_round_rules)
  std::string name;     // the tracking variable's name
  std::vector<uint32_t> rounds;
  std::vector<double> values;
  std::vector<uint32_t> check_samples;
  SteadyStateVerdict verdict;

  // After sample `n` with `iops`: "steady_state", "round_cap" or "" (go on).
  std::string after(uint32_t n, double iops) {
    if (!enabled || n % round_samples != 0) return {};
    const uint32_t round = n / round_samples;
    rounds.push_back(round);
    values.push_back(iops);
    check_samples.push_back(n);
    if (round >= rules.first_check_round || round >= rules.max_rounds) {
      verdict = evaluate_window(name, rounds, values, rules.criteria);
      if (verdict.attained) return "steady_state";
    }
    return round >= rules.max_rounds ? "round_cap" : "";
  }

  [[nodiscard]] results::WriteStreamSteadyState record() const {
    return {round_samples, rounds.size(),    rules.first_check_round, rules.max_rounds,
            check_samples, verdict.attained, record_of(verdict)};
  }
};

class WriteSaturationTest final : public PtsTest {
 public:
  explicit WriteSaturationTest(std::string id) : m_id(std::move(id)) {}
  [[nodiscard]] std::string id() const override { return m_id; }

 protected:
  [[nodiscard]] results::TestRecord procedure(TestContext& ctx) const override;

 private:
  std::string m_id;
};

results::TestRecord WriteSaturationTest::procedure(TestContext& ctx) const {
  TestSpec spec(ctx, id());
  results::TestRecord rec = begin_record(spec);
  const uint32_t tc = spec.threads();
  const uint32_t qd = spec.queue_depth();
  purge_and_wipc(spec, rec, tc, qd);
  const std::string workload_name = spec.get("workload").value.get<std::string>();
  const uint64_t sample_ns = spec.duration_ns("sample_duration");
  // No "capacity_multiple" (endurance-write): the time limit is the only stop rule; target 0.
  const double multiple = spec.has("capacity_multiple") ? spec.get("capacity_multiple").value.get<double>() : 0.0;
  const uint64_t time_limit_ns = spec.duration_ns("time_limit");
  const auto target_bytes = static_cast<uint64_t>(multiple * static_cast<double>(ctx.target.capacity_bytes));
  const SegmentSpec sample_spec = wsat_segment(spec, ctx, workload_name, tc, qd, sample_ns);
  rec.header.subtitle = subtitle_for(spec, sample_spec);
  SteadyStateStop ss;
  if (spec.has("stop_rule")) {  // WSAT (endurance-write has only the time limit)
    ss.enabled = spec.get("stop_rule").value == "steady-state";
    ss.round_samples = spec.get("ss_round_samples").value.get<uint32_t>();
    if (ss.enabled) {
      apply_round_rules(spec, ss.rules);
      ss.name = sample_spec.label + " check-sample IOPS";
    }
  }

  results::WriteStreamBlock block;
  uint64_t written_bytes = 0;
  uint64_t elapsed_ns = 0;
  std::string stop_reason;
  for (uint32_t n = 1; stop_reason.empty(); ++n) {
    SegmentSpec s = sample_spec;
    s.bytes_limit = target_bytes == 0 || ss.enabled ? 0 : sample_byte_limit(s, target_bytes - written_bytes);
    const uint32_t round = ss.enabled ? (n + ss.round_samples - 1) / ss.round_samples : 0;
    const uint64_t limit_ns = ss.enabled ? 0 : time_limit_ns;  // the loop's time stop, for the ETA
    const SegmentResult r =
        run_segment(ctx.exec, StepId{id(), "main", fmt::format("sample-{:05}", n)}, s, round, limit_ns);
    StepRequest health;
    health.kind = StepKind::health;
    health.plan_time_limit_ns = limit_ns;
    nlohmann::json h = ctx.exec.execute(StepId{id(), "main", fmt::format("sample-{:05}-health", n)}, health);
    written_bytes += r.summary.write.bytes;
    elapsed_ns += r.clock_ns();  // the run's clock: a simulated drive's drain at the modelled drive's speed
    block.samples.push_back(sample_of(n, r, written_bytes, elapsed_ns, ctx.target.capacity_bytes, std::move(h)));
    if (ss.enabled) {
      stop_reason = ss.after(n, r.summary.combined.iops);
    } else if (target_bytes > 0 && capacity_reached(s, written_bytes, target_bytes)) {
      stop_reason = "capacity";
    } else if (elapsed_ns >= time_limit_ns) {
      stop_reason = "time_limit";
    }
  }

  const nlohmann::json capture = spec.has("capture") ? spec.get("capture").value : nlohmann::json();
  if (!capture.is_null()) {
    const SegmentSpec s = make_segment(
        workload::AccessPattern::random, parse_rw_mix(capture.at("rw_mix").get<std::string>(), "wsat/capture"),
        units::parse_size_bytes(capture.at("block_size").get<std::string>(), "wsat/capture"), tc, qd,
        spec.duration_ns("capture_duration"));
    rec.captures.push_back(capture_record("response-time-histogram", s,
                                          run_segment(ctx.exec, StepId{id(), "capture", "rt-histogram"}, s)));
  }
  block.workload = workload_name;
  block.segment = results::Embedded(sample_spec);
  block.stop_reason = stop_reason;
  block.capacity_bytes = ctx.target.capacity_bytes;
  block.target_bytes = target_bytes;
  block.time_limit_ns = time_limit_ns;
  block.written_bytes = written_bytes;
  block.elapsed_ns = elapsed_ns;
  if (ss.enabled) {
    block.steady_state = ss.record();
  }
  return close_record(spec, std::move(rec), std::move(block));
}

}  // namespace

std::unique_ptr<PtsTest> make_wsat_test() { return std::make_unique<WriteSaturationTest>("wsat"); }
std::unique_ptr<PtsTest> make_endurance_write_test() {
  return std::make_unique<WriteSaturationTest>("endurance-write");
}

}  // namespace ptsuite::pts
