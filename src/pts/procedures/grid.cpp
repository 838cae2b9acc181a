// Shared pieces of the grid tests: the R/W-mix x block-size template in either loop order,
// tracking lookup, the matrix of a phase, and the purge / WIPC / Rounds body of IOPS and
// Latency.
#include <fmt/format.h>
#include <cmath>

#include <ptsuite/pts/procedures/shared.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {

uint64_t percentile_ns(const stats::DirectionSummary& d, double percentile) {
  for (const stats::PercentileValue& p : d.percentiles) {
    if (std::fabs(p.percentile - percentile) < 1e-9) {
      return p.value_ns;
    }
  }
  return 0;
}

uint64_t p99_999_ns(const stats::DirectionSummary& d) { return percentile_ns(d, 99.999); }

results::ResponseTimes response_times(const stats::DirectionSummary& d) {
  return {d.latency_mean_ns,       percentile_ns(d, 99.0),   percentile_ns(d, 99.9),
          percentile_ns(d, 99.99), percentile_ns(d, 99.999), d.latency_max_ns};
}

void purge_and_wipc(TestSpec& spec, results::TestRecord& rec, uint32_t threads, uint32_t queue_depth) {
  if (spec.get("purge").value.get<bool>()) {
    rec.purges.push_back(purge_step(spec, "main"));
  }
  if (spec.get("wipc").value.get<bool>()) {
    rec.preconditioning.push_back(wipc_step(spec, "main", wipc_block_bytes(spec), threads, queue_depth));
  }
}

LoopOrder parse_loop_order(const std::string& text, const std::string& where) {
  if (text == "rw_mix_outer_block_size_inner") {
    return LoopOrder::mix_outer_size_inner;
  }
  if (text == "block_size_outer_rw_mix_inner") {
    return LoopOrder::size_outer_mix_inner;
  }
  throw Error(ExitCode::system, fmt::format("built-in PTS data {}: unknown loop order \"{}\"", where, text));
}

workload::AccessPattern parse_access_pattern(const std::string& text, const std::string& where) {
  if (text == "random") {
    return workload::AccessPattern::random;
  }
  if (text == "sequential") {
    return workload::AccessPattern::sequential;
  }
  throw Error(ExitCode::system, fmt::format("built-in PTS data {}: unknown access pattern \"{}\"", where, text));
}

size_t grid_index(LoopOrder order, size_t mix, size_t size, size_t mix_count, size_t size_count) {
  return order == LoopOrder::mix_outer_size_inner ? mix * size_count + size : size * mix_count + mix;
}

std::vector<SegmentSpec> mix_by_size_grid(const std::vector<RwMix>& mixes, const std::vector<uint64_t>& sizes,
                                          LoopOrder order, workload::AccessPattern pattern, uint32_t threads,
                                          uint32_t queue_depth, uint64_t duration_ns) {
  std::vector<SegmentSpec> out(mixes.size() * sizes.size());
  for (size_t m = 0; m < mixes.size(); ++m) {
    for (size_t s = 0; s < sizes.size(); ++s) {
      out[grid_index(order, m, s, mixes.size(), sizes.size())] =
          make_segment(pattern, mixes[m], sizes[s], threads, queue_depth, duration_ns);
    }
  }
  return out;
}

results::GridMatrix grid_matrix(const PhaseRecord& phase, const std::vector<RwMix>& mixes,
                                const std::vector<uint64_t>& sizes, LoopOrder order, const std::string& source) {
  if (source != "measurement-window-average" && source != "final-round") {
    throw Error(ExitCode::system, fmt::format("built-in PTS data: unknown reported_value \"{}\"", source));
  }
  results::GridMatrix m;
  for (uint64_t bs : sizes) {
    m.rows.push_back(results::block_size_key(bs));
  }
  for (const RwMix& mix : mixes) {
    m.columns.push_back({mix.read_pct, mix.write_pct(), format_rw_mix(mix)});
  }
  m.source = source;
  const bool final_round = source == "final-round";
  const uint32_t last = phase.rounds.empty() ? 0 : phase.rounds.back().round;
  m.window = final_round ? results::RoundRange{last, last}
                         : results::RoundRange{phase.window_first_round, phase.window_last_round};
  using results::GridMetric;
  for (size_t row = 0; row < sizes.size(); ++row) {
    for (auto& grid : m.cells) {
      grid.emplace_back(mixes.size());
    }
    for (size_t col = 0; col < mixes.size(); ++col) {
      const size_t i = grid_index(order, col, row, mixes.size(), sizes.size());
      const stats::DirectionSummary& c =
          final_round ? phase.rounds.back().segments.at(i).summary.combined : phase.window.at(i).combined;
      m.grid(GridMetric::iops)[row][col] = c.iops;
      m.grid(GridMetric::mb_per_s)[row][col] = c.mb_per_s;
      m.grid(GridMetric::latency_mean_ns)[row][col] = c.latency_mean_ns;
      m.grid(GridMetric::latency_p99_999_ns)[row][col] = static_cast<double>(p99_999_ns(c));
      m.grid(GridMetric::latency_max_ns)[row][col] = static_cast<double>(c.latency_max_ns);
      m.grid(GridMetric::latency_window_max_ns)[row][col] =
          static_cast<double>(final_round ? phase.rounds.back().segments.at(i).summary.combined.latency_max_ns
                                          : phase.window_max_ns.at(i).combined);
    }
  }
  return m;
}

results::GridMatrix run_mix_by_size_rounds(TestContext& ctx, TestSpec& spec, const std::string& test_id,
                                           results::TestRecord& rec) {
  const uint32_t tc = spec.threads();
  const uint32_t qd = spec.queue_depth();
  // The WIPC runs at the test's TOIO unless the test names its own (latency.wipc_threads / _queue_depth).
  const bool own_wipc_toio = spec.has("wipc_threads");
  purge_and_wipc(spec, rec, own_wipc_toio ? spec.get("wipc_threads").value.get<uint32_t>() : tc,
                 own_wipc_toio ? spec.get("wipc_queue_depth").value.get<uint32_t>() : qd);
  const SpecValue pattern = spec.get("pattern");
  const SpecValue order_value = spec.get("loop_order");
  const LoopOrder order = parse_loop_order(order_value.value.get<std::string>(), order_value.path);
  const std::vector<RwMix> mixes = spec.rw_mixes("rw_mixes");
  const std::vector<uint64_t> sizes = spec.block_sizes("block_sizes");

  RoundLoopSpec loop;
  loop.test = test_id;
  loop.phase = "main";
  loop.segments =
      mix_by_size_grid(mixes, sizes, order, parse_access_pattern(pattern.value.get<std::string>(), pattern.path), tc,
                       qd, spec.duration_ns("segment_duration"));
  for (const nlohmann::json& t : spec.get("tracking").value) {
    loop.tracking.push_back(resolve_tracking(t, loop.segments));
  }
  apply_round_rules(spec, loop);
  const PhaseRecord phase = run_rounds(ctx.exec, loop);
  rec.phases.push_back(record_of(phase));
  return grid_matrix(phase, mixes, sizes, order, spec.get("reported_value").value.get<std::string>());
}

TrackingSpec resolve_tracking(const nlohmann::json& entry, const std::vector<SegmentSpec>& segments) {
  const Metric metric = parse_metric(entry.at("metric").get<std::string>());
  for (size_t i = 0; i < segments.size(); ++i) {
    const SegmentSpec& s = segments[i];
    bool match = true;
    if (entry.contains("rw_mix")) {
      match = match && parse_rw_mix(entry.at("rw_mix").get<std::string>(), "tracking") == s.mix;
    }
    if (entry.contains("block_size")) {
      const uint64_t bs = units::parse_size_bytes(entry.at("block_size").get<std::string>(), "tracking");
      match = match && s.block_sizes.size() == 1 && s.block_sizes.front().bytes == bs;
    }
    if (entry.contains("threads")) {
      match = match && s.threads == entry.at("threads").get<uint32_t>();
    }
    if (entry.contains("queue_depth")) {
      match = match && s.queue_depth == entry.at("queue_depth").get<uint32_t>();
    }
    if (match) {
      return TrackingSpec{
          fmt::format("{} {}", s.label, metric_unit(metric) == std::string("ns") ? "ART" : metric_unit(metric)), i,
          metric};
    }
  }
  throw Error(ExitCode::usage,
              fmt::format("the tracking variable {} is not part of this run (its block size may be omitted on this "
                          "device, or a changed list such as the block sizes, mixes, TC or QD leaves it out); steady "
                          "state cannot be judged",
                          entry.dump()));
}

}  // namespace ptsuite::pts
