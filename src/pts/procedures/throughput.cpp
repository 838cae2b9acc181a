// Throughput test, PTS 2.0.2 §8: for each block size (1024 KiB, then 128 KiB): purge, WIPC
// with SEQ writes of that block size, then Rounds of SEQ 100 % read and SEQ 100 % write at
// TC 1 / QD 32 until the write MB/s attains steady state. Each direction's sequential position
// carries over from Round to Round (the segments share a sequence key). The data's "purge"
// (per-block-size / once / none), "wipc" (test-block-size / common / none), "pattern" and
// "reported_value" drive the run.
#include <fmt/format.h>

#include <ptsuite/pts/procedures/shared.hpp>
#include <ptsuite/results/throughput_table.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

#include "pts/procedures/factories.hpp"

namespace ptsuite::pts {

namespace {

std::string text_of(const SpecValue& v) { return v.value.is_string() ? v.value.get<std::string>() : v.value.dump(); }

[[noreturn]] void bad_value(const SpecValue& v, const char* expected) {
  throw Error(ExitCode::system,
              fmt::format("built-in PTS data {}: \"{}\" is not one of {}", v.path, text_of(v), expected));
}

class ThroughputTest final : public PtsTest {
 public:
  [[nodiscard]] std::string id() const override { return "throughput"; }

 protected:
  [[nodiscard]] results::TestRecord procedure(TestContext& ctx) const override;
};

results::TestRecord ThroughputTest::procedure(TestContext& ctx) const {
  TestSpec spec(ctx, id());
  results::TestRecord rec = begin_record(spec);
  const uint32_t tc = spec.threads();
  const uint32_t qd = spec.queue_depth();
  const SpecValue purge = spec.get("purge");
  const SpecValue wipc = spec.get("wipc");
  if (text_of(purge) != "per-block-size" && text_of(purge) != "once" && text_of(purge) != "none") {
    bad_value(purge, "per-block-size, once, none");
  }
  if (text_of(wipc) != "test-block-size" && text_of(wipc) != "common" && text_of(wipc) != "none") {
    bad_value(wipc, "test-block-size, common, none");
  }
  const SpecValue pattern_value = spec.get("pattern");
  const workload::AccessPattern pattern = parse_access_pattern(text_of(pattern_value), pattern_value.path);
  const SpecValue reported = spec.get("reported_value");
  if (text_of(reported) != "measurement-window-average" && text_of(reported) != "final-round") {
    bad_value(reported, "measurement-window-average, final-round");
  }
  const std::vector<RwMix> mixes = spec.rw_mixes("rw_mixes");
  const uint64_t duration_ns = spec.duration_ns("segment_duration");
  const nlohmann::json tracking = spec.get("tracking").value;

  std::vector<results::ThroughputRow> table;
  const std::vector<uint64_t> sizes = spec.block_sizes("block_sizes");
  for (size_t b = 0; b < sizes.size(); ++b) {
    const uint64_t bs = sizes[b];
    const std::string phase_name = units::format_size_binary(bs);
    if (text_of(purge) == "per-block-size" || (text_of(purge) == "once" && b == 0)) {
      rec.purges.push_back(purge_step(spec, phase_name));
    }
    if (text_of(wipc) != "none") {
      const uint64_t wipc_bs = text_of(wipc) == "test-block-size" ? bs : wipc_block_bytes(spec);
      rec.preconditioning.push_back(wipc_step(spec, phase_name, wipc_bs, tc, qd));
    }

    RoundLoopSpec loop;
    loop.test = id();
    loop.phase = phase_name;
    for (const RwMix& mix : mixes) {
      SegmentSpec s = make_segment(pattern, mix, bs, tc, qd, duration_ns);
      if (pattern == workload::AccessPattern::sequential) {
        s.sequence_key = "throughput-" + phase_name + "-" + format_rw_mix(mix);
      }
      loop.segments.push_back(s);
    }
    for (const nlohmann::json& t : tracking) {
      loop.tracking.push_back(resolve_tracking(t, loop.segments));
    }
    apply_round_rules(spec, loop);
    const PhaseRecord phase = run_rounds(ctx.exec, loop);
    rec.phases.push_back(record_of(phase));
    results::ThroughputRow row{phase_name, bs};
    for (size_t i = 0; i < mixes.size(); ++i) {
      const stats::IoSummary& cell =
          text_of(reported) == "final-round" ? phase.rounds.back().segments[i].summary : phase.window[i];
      if (mixes[i].read_pct > 0) {
        row.read_mb_per_s = cell.read.mb_per_s;
      } else {
        row.write_mb_per_s = cell.write.mb_per_s;
      }
    }
    table.push_back(row);
  }
  return close_record(spec, std::move(rec), results::ThroughputTable{std::move(table)});
}

}  // namespace

std::unique_ptr<PtsTest> make_throughput_test() { return std::make_unique<ThroughputTest>(); }

}  // namespace ptsuite::pts
