// Latency test, PTS 2.0.2 §9: purge, WIPC, Rounds of R/W mix (100/0, 65/35, 0/100) x block
// size (8, 4, 0.5 KiB) RND at TC 1 / QD 1 until the mean response time of RND 4 KiB 0/100
// attains steady state; then (PTS 2.0) a long RND 4 KiB 100 % W capture whose histogram gives
// the response-time distribution and confidence levels.
#include <ptsuite/pts/procedures/shared.hpp>
#include <ptsuite/util/units.hpp>

#include "pts/procedures/factories.hpp"

namespace ptsuite::pts {

namespace {

class LatencyTest final : public PtsTest {
 public:
  [[nodiscard]] std::string id() const override { return "latency"; }

 protected:
  [[nodiscard]] results::TestRecord procedure(TestContext& ctx) const override {
    TestSpec spec(ctx, id());
    results::TestRecord rec = begin_record(spec);
    results::GridMatrix matrix = run_mix_by_size_rounds(ctx, spec, id(), rec);

    const nlohmann::json capture = spec.get("capture").value;
    if (!capture.is_null()) {
      const SegmentSpec s = make_segment(
          workload::AccessPattern::random, parse_rw_mix(capture.at("rw_mix").get<std::string>(), "capture"),
          units::parse_size_bytes(capture.at("block_size").get<std::string>(), "latency/capture"),
          capture.at("threads").get<uint32_t>(), capture.at("queue_depth").get<uint32_t>(),
          spec.duration_ns("capture_duration"));
      const SegmentResult r = run_segment(ctx.exec, StepId{id(), "capture", "rt-histogram"}, s);
      rec.captures.push_back(capture_record("response-time-histogram", s, r));
    }
    return close_record(spec, std::move(rec), std::move(matrix));
  }
};

}  // namespace

std::unique_ptr<PtsTest> make_latency_test() { return std::make_unique<LatencyTest>(); }

}  // namespace ptsuite::pts
