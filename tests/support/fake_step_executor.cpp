#include "support/fake_step_executor.hpp"

#include <algorithm>

#include <ptsuite/stats/stats_json.hpp>

namespace ptsuite::pts::testing {

SegmentResult synthetic_result(const SegmentSpec& spec, double iops, uint64_t latency_ns) {
  SegmentResult r;
  const auto ios = static_cast<uint64_t>(iops);
  const uint64_t reads = static_cast<uint64_t>(static_cast<double>(ios) * spec.mix.read_pct / 100.0);
  const uint64_t bs = spec.block_sizes.empty() ? 4096 : spec.block_sizes.front().bytes;
  stats::IoStats st;
  for (uint64_t i = 0; i < ios; ++i) {
    (i < reads ? st.read : st.write).record(bs, latency_ns);
  }
  const uint64_t elapsed_ns = 1'000'000'000;
  r.summary.read = stats::summarize(st.read, elapsed_ns);
  r.summary.write = stats::summarize(st.write, elapsed_ns);
  const stats::DirectionStats combined = st.combined();
  r.summary.combined = stats::summarize(combined, elapsed_ns);
  r.read_histogram = st.read.histogram;
  r.write_histogram = st.write.histogram;
  r.combined_histogram = combined.histogram;
  r.elapsed_ns = elapsed_ns;
  r.stop_reason = "duration";
  return r;
}

nlohmann::json FakeExecutor::execute(const StepId& id, const StepRequest& request) {
  executed.push_back(id.text());
  if (request.kind == StepKind::purge) {
    return purge_result;
  }
  if (request.kind == StepKind::idle) {
    return nlohmann::json{{"kind", "idle"}, {"idle_ns", request.idle_ns}, {"elapsed_ns", request.idle_ns}};
  }
  if (request.kind != StepKind::segment) {
    return nlohmann::json{{"kind", to_string(request.kind)}};
  }
  segments.push_back(request.segment);
  const SegmentSpec& spec = request.segment;
  double iops = m_iops(id, spec);
  if (spec.bytes_limit > 0) {
    // A byte-limited segment stops at its limit, as the real runner does: a WIPC (no
    // duration) transfers exactly its limit; a timed segment at most its limit.
    const uint64_t bs = spec.block_sizes.empty() ? 4096 : spec.block_sizes.front().bytes;
    const auto limit_ios = static_cast<double>((spec.bytes_limit + bs - 1) / bs);
    iops = spec.duration_ns == 0 ? limit_ios : std::min(iops, limit_ios);
  }
  return synthetic_result(spec, iops, m_latency(id, spec));
}

void FakeExecutor::replayed(const StepId& id, const StepRequest&, const nlohmann::json&) {
  replays.push_back(id.text());
}

}  // namespace ptsuite::pts::testing
