// Cross Stimulus Recovery, PTS 2.0.2 §12 (pts-spec.md §3.6): purge, no WIPC, then three access
// groups back to back at TC 1 / QD 32, all 100 % write: SEQ 1024 KiB, RND 8 KiB, SEQ 1024 KiB
// (pts/tests/xsr.json "access_groups"), each for its duration ([U]: ADATA 8/6/8 h, PTSU 6/8/6 h)
// in 1-minute samples. Every sample records write MB/s, IOPS, ART, 99.999 % and MRT; each
// group its average and end-of-group throughput and its peak ART and MRT; the recovery time is
// how long access group 3 takes to reach access group 1's throughput (xsr.json "recovery").
// A sequential group continues where its previous sample stopped (one sequence key per group).
#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include <ptsuite/pts/procedures/shared.hpp>
#include <ptsuite/results/xsr.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

#include "pts/procedures/factories.hpp"

namespace ptsuite::pts {

namespace {

// Recovery of access group 3 against access group 1 (xsr.json "recovery"): the first sample
// of group 3 whose write MB/s reaches threshold_pct % of group 1's reference throughput.
results::XsrRecovery recovery_of(const nlohmann::json& rule, const results::XsrBlock& xsr) {
  const std::string reference = rule.at("reference").get<std::string>();
  if (reference != "access-1-average" && reference != "access-1-end") {
    throw Error(ExitCode::system, fmt::format("built-in PTS data xsr/recovery: unknown reference \"{}\"", reference));
  }
  results::XsrRecovery r;
  r.reference = reference;
  r.threshold_pct = rule.at("threshold_pct").get<double>();
  const results::XsrGroup& first = xsr.groups.front();
  r.reference_mb_per_s = reference == "access-1-average" ? first.average_mb_per_s : first.end_mb_per_s;
  r.threshold_mb_per_s = r.reference_mb_per_s * r.threshold_pct / 100.0;
  r.group = xsr.groups.back().name;
  for (const results::XsrSample& s : xsr.samples) {
    if (s.group == r.group && s.mb_per_s >= r.threshold_mb_per_s) {
      r.recovered = true;
      r.recovery_time_s = s.group_end_s;
      r.recovery_sample = s.sample;
      break;
    }
  }
  return r;
}

class CrossStimulusRecoveryTest final : public PtsTest {
 public:
  [[nodiscard]] std::string id() const override { return "xsr"; }

 protected:
  [[nodiscard]] results::TestRecord procedure(TestContext& ctx) const override;

 private:
  // Runs one access group in samples; appends them to xsr.samples, returns the group record.
  results::XsrGroup run_group(TestContext& ctx, const std::string& name, SegmentSpec spec, uint64_t duration_ns,
                              uint64_t sample_ns, double& test_time_s, results::XsrBlock& xsr) const;
};

results::XsrGroup CrossStimulusRecoveryTest::run_group(TestContext& ctx, const std::string& name, SegmentSpec spec,
                                                       uint64_t duration_ns, uint64_t sample_ns, double& test_time_s,
                                                       results::XsrBlock& xsr) const {
  results::XsrGroup g;
  g.name = name;
  g.duration_ns = duration_ns;
  g.first_sample = static_cast<uint32_t>(xsr.samples.size()) + 1;
  double group_time_s = 0;
  for (uint64_t done_ns = 0, n = 1; done_ns < duration_ns; done_ns += spec.duration_ns, ++n) {
    spec.duration_ns = std::min(sample_ns, duration_ns - done_ns);
    const SegmentResult r = run_segment(ctx.exec, StepId{id(), name, fmt::format("sample-{:05}", n)}, spec);
    StepRequest health;
    health.kind = StepKind::health;
    nlohmann::json h = ctx.exec.execute(StepId{id(), name, fmt::format("sample-{:05}-health", n)}, health);
    const double seconds = static_cast<double>(r.clock_ns()) / 1e9;  // the run's clock (the time axis)
    test_time_s += seconds;
    group_time_s += seconds;
    const stats::DirectionSummary& c = r.summary.combined;
    g.write_bytes += r.summary.write.bytes;
    g.elapsed_ns += r.elapsed_ns;
    g.end_mb_per_s = r.summary.write.mb_per_s;
    g.peak_latency_mean_ns = std::max(g.peak_latency_mean_ns, c.latency_mean_ns);
    g.peak_latency_max_ns = std::max(g.peak_latency_max_ns, c.latency_max_ns);
    ++g.samples;
    xsr.samples.push_back({static_cast<uint32_t>(xsr.samples.size() + 1), name, test_time_s, group_time_s,
                           r.summary.write.mb_per_s, c.iops, c.latency_mean_ns, p99_999_ns(c), c.latency_max_ns,
                           results::Embedded(std::move(h)), results::Embedded(r)});
  }
  spec.duration_ns = sample_ns;
  g.label = spec.label;
  g.stimulus = stimulus_text(spec);
  g.spec = results::Embedded(spec);
  const double seconds = static_cast<double>(g.elapsed_ns) / 1e9;
  g.average_mb_per_s = seconds > 0 ? static_cast<double>(g.write_bytes) / seconds / 1e6 : 0.0;
  return g;
}

results::TestRecord CrossStimulusRecoveryTest::procedure(TestContext& ctx) const {
  TestSpec spec(ctx, id());
  results::TestRecord rec = begin_record(spec);
  const uint32_t tc = spec.threads();
  const uint32_t qd = spec.queue_depth();
  purge_and_wipc(spec, rec, tc, qd);
  const nlohmann::json groups = spec.get("access_groups").value;
  const uint64_t sample_ns = spec.duration_ns("sample_duration");
  results::XsrBlock xsr;
  xsr.sample_duration_ns = sample_ns;
  double test_time_s = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    const nlohmann::json& group = groups[g];
    const std::string where = fmt::format("xsr/access_groups/{}", g);
    const uint64_t bs = units::parse_size_bytes(group.at("block_size").get<std::string>(), where);
    if (bs % ctx.target.logical_block_bytes != 0) {
      throw UsageError("xsr", fmt::format("{} blocks are not a multiple of this device's {}-byte logical block",
                                          units::format_size_binary(bs), ctx.target.logical_block_bytes));
    }
    const workload::AccessPattern pattern = parse_access_pattern(group.at("pattern").get<std::string>(), where);
    SegmentSpec s =
        make_segment(pattern, parse_rw_mix(group.at("rw_mix").get<std::string>(), where), bs, tc, qd, sample_ns);
    if (pattern == workload::AccessPattern::sequential) {
      s.sequence_key = "xsr-" + group.at("name").get<std::string>();
    }
    const uint64_t duration_ns = spec.duration_ns(fmt::format("access_{}_duration", g + 1));
    xsr.groups.push_back(
        run_group(ctx, group.at("name").get<std::string>(), s, duration_ns, sample_ns, test_time_s, xsr));
  }
  xsr.recovery = recovery_of(spec.get("recovery").value, xsr);
  return close_record(spec, std::move(rec), std::move(xsr));
}

}  // namespace

std::unique_ptr<PtsTest> make_xsr_test() { return std::make_unique<CrossStimulusRecoveryTest>(); }

}  // namespace ptsuite::pts
