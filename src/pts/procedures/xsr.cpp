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
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

#include "pts/procedures/factories.hpp"

namespace ptsuite::pts {

namespace {

struct GroupTotals {
  uint64_t write_bytes = 0;
  uint64_t elapsed_ns = 0;
  double last_mb_per_s = 0;
  double peak_art_ns = 0;
  uint64_t peak_mrt_ns = 0;
  uint32_t samples = 0;
  uint32_t first_sample = 0;
};

nlohmann::json group_json(const nlohmann::json& group, const SegmentSpec& spec, uint64_t duration_ns,
                          const GroupTotals& t) {
  const double seconds = static_cast<double>(t.elapsed_ns) / 1e9;
  return {{"name", group.at("name")},
          {"label", spec.label},
          {"stimulus", stimulus_text(spec)},
          {"spec", spec},
          {"duration_ns", duration_ns},
          {"samples", t.samples},
          {"first_sample", t.first_sample},
          {"write_bytes", t.write_bytes},
          {"elapsed_ns", t.elapsed_ns},
          {"average_mb_per_s", seconds > 0 ? static_cast<double>(t.write_bytes) / seconds / 1e6 : 0.0},
          {"end_mb_per_s", t.last_mb_per_s},
          {"peak_latency_mean_ns", t.peak_art_ns},
          {"peak_latency_max_ns", t.peak_mrt_ns}};
}

// Recovery of access group 3 against access group 1 (xsr.json "recovery"): the first sample
// of group 3 whose write MB/s reaches threshold_pct % of group 1's reference throughput.
nlohmann::json recovery_json(const nlohmann::json& rule, const nlohmann::json& groups, const nlohmann::json& samples) {
  const std::string reference = rule.at("reference").get<std::string>();
  if (reference != "access-1-average" && reference != "access-1-end") {
    throw Error(ExitCode::system, fmt::format("built-in PTS data xsr/recovery: unknown reference \"{}\"", reference));
  }
  const double pct = rule.at("threshold_pct").get<double>();
  const nlohmann::json& first = groups.front();
  const nlohmann::json& last = groups.back();
  const double reference_mb =
      first.at(reference == "access-1-average" ? "average_mb_per_s" : "end_mb_per_s").get<double>();
  const double threshold = reference_mb * pct / 100.0;
  nlohmann::json out = {
      {"reference", reference},          {"threshold_pct", pct},      {"reference_mb_per_s", reference_mb},
      {"threshold_mb_per_s", threshold}, {"group", last.at("name")},  {"recovered", false},
      {"recovery_time_s", nullptr},      {"recovery_sample", nullptr}};
  for (const nlohmann::json& s : samples) {
    if (s.at("group") == last.at("name") && s.at("mb_per_s").get<double>() >= threshold) {
      out["recovered"] = true;
      out["recovery_time_s"] = s.at("group_end_s");
      out["recovery_sample"] = s.at("sample");
      break;
    }
  }
  return out;
}

class CrossStimulusRecoveryTest final : public PtsTest {
 public:
  [[nodiscard]] std::string id() const override { return "xsr"; }

 protected:
  [[nodiscard]] nlohmann::json procedure(TestContext& ctx) const override;

 private:
  // Runs one access group in samples; appends them to `samples`, returns the group record.
  nlohmann::json run_group(TestContext& ctx, const nlohmann::json& group, SegmentSpec spec, uint64_t duration_ns,
                           uint64_t sample_ns, double& test_time_s, nlohmann::json& samples) const;
};

nlohmann::json CrossStimulusRecoveryTest::run_group(TestContext& ctx, const nlohmann::json& group, SegmentSpec spec,
                                                    uint64_t duration_ns, uint64_t sample_ns, double& test_time_s,
                                                    nlohmann::json& samples) const {
  const std::string name = group.at("name").get<std::string>();
  GroupTotals t;
  t.first_sample = static_cast<uint32_t>(samples.size()) + 1;
  double group_time_s = 0;
  for (uint64_t done_ns = 0, n = 1; done_ns < duration_ns; done_ns += spec.duration_ns, ++n) {
    spec.duration_ns = std::min(sample_ns, duration_ns - done_ns);
    const SegmentResult r = run_segment(ctx.exec, StepId{id(), name, fmt::format("sample-{:05}", n)}, spec);
    StepRequest health;
    health.kind = StepKind::health;
    nlohmann::json h = ctx.exec.execute(StepId{id(), name, fmt::format("sample-{:05}-health", n)}, health);
    const double seconds = static_cast<double>(r.elapsed_ns) / 1e9;
    test_time_s += seconds;
    group_time_s += seconds;
    const stats::DirectionSummary& c = r.summary.combined;
    t.write_bytes += r.summary.write.bytes;
    t.elapsed_ns += r.elapsed_ns;
    t.last_mb_per_s = r.summary.write.mb_per_s;
    t.peak_art_ns = std::max(t.peak_art_ns, c.latency_mean_ns);
    t.peak_mrt_ns = std::max(t.peak_mrt_ns, c.latency_max_ns);
    ++t.samples;
    samples.push_back({{"sample", samples.size() + 1},
                       {"group", name},
                       {"end_s", test_time_s},
                       {"group_end_s", group_time_s},
                       {"mb_per_s", r.summary.write.mb_per_s},
                       {"iops", c.iops},
                       {"latency_mean_ns", c.latency_mean_ns},
                       {"latency_p99_999_ns", p99_999_ns(c)},
                       {"latency_max_ns", c.latency_max_ns},
                       {"health", std::move(h)},
                       {"result", r}});
  }
  spec.duration_ns = sample_ns;
  return group_json(group, spec, duration_ns, t);
}

nlohmann::json CrossStimulusRecoveryTest::procedure(TestContext& ctx) const {
  TestSpec spec(ctx, id());
  nlohmann::json rec = begin_record(spec);
  const uint32_t tc = spec.threads();
  const uint32_t qd = spec.queue_depth();
  purge_and_wipc(spec, rec, tc, qd);
  const nlohmann::json groups = spec.get("access_groups").value;
  const uint64_t sample_ns = spec.duration_ns("sample_duration");
  nlohmann::json samples = nlohmann::json::array();
  nlohmann::json group_records = nlohmann::json::array();
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
    group_records.push_back(run_group(ctx, group, s, duration_ns, sample_ns, test_time_s, samples));
  }
  rec["xsr"] = {{"groups", group_records},
                {"samples", samples},
                {"sample_duration_ns", sample_ns},
                {"recovery", recovery_json(spec.get("recovery").value, group_records, samples)}};
  rec["parameters"] = spec.parameters();
  rec["omitted"] = spec.omitted();
  return rec;
}

}  // namespace

std::unique_ptr<PtsTest> make_xsr_test() { return std::make_unique<CrossStimulusRecoveryTest>(); }

}  // namespace ptsuite::pts
