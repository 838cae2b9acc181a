#include <ptsuite/pts/test_procedure.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include <ptsuite/pts/procedures/registry.hpp>
#include <ptsuite/pts/segment.hpp>
#include <ptsuite/pts/setting_record.hpp>
#include <ptsuite/results/json_read.hpp>
#include <ptsuite/stats/stats_json.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {

using nlohmann::json;

namespace {

const json& navigate(const json& root, std::string_view key, const std::string& where) {
  const json* node = &root;
  size_t start = 0;
  while (start <= key.size()) {
    const size_t slash = key.find('/', start);
    const std::string part(key.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (!node->is_object() || !node->contains(part)) {
      throw Error(ExitCode::system, fmt::format("built-in PTS data {} has no {}", where, key));
    }
    node = &node->at(part);
    if (slash == std::string_view::npos) {
      break;
    }
    start = slash + 1;
  }
  return *node;
}

results::SpecValue spec_value_record(const SpecValue& v) {
  return {v.value, v.provenance.clause, to_tag(v.provenance.tag), v.provenance.source};
}

// Watches the steps a procedure asks for: the deepest queue any segment used and the LBA
// zones segments addressed (for PtsTest::run()).
class TallyExecutor final : public StepExecutor {
 public:
  // `ar_amount_bytes` / `ar_segments`: the active_range.amount / .segments settings, which the
  // device executor applies to random segments without LBA zones.
  TallyExecutor(StepExecutor& inner, uint64_t ar_amount_bytes, uint64_t ar_segments)
      : m_inner(inner), m_ar_amount_bytes(ar_amount_bytes), m_ar_segments(ar_segments) {}
  json execute(const StepId& id, const StepRequest& request) override {
    if (request.kind == StepKind::segment) {
      const SegmentSpec& s = request.segment;
      m_max_queue_depth = std::max(m_max_queue_depth, s.queue_depth);
      if (s.zones.size() > m_zones.size()) {
        m_zones = s.zones;
      }
      m_random_unzoned |= s.pattern == workload::AccessPattern::random && s.zones.empty();
    }
    return m_inner.execute(id, request);
  }
  void replayed(const StepId& id, const StepRequest& request, const json& result) override {
    m_inner.replayed(id, request, result);
  }
  [[nodiscard]] uint32_t max_queue_depth() const { return m_max_queue_depth; }
  // One segment, the whole ActiveRange; the AR Amount's segments; or the zones the stimulus used.
  [[nodiscard]] results::ArSegments ar_segments() const {
    const bool amount = m_ar_amount_bytes != 0 || m_ar_segments != 1;
    if (m_zones.empty() && amount && m_random_unzoned) {
      return {m_ar_segments,
              fmt::format("{} equal segment{} holding {} of the ActiveRange (the AR Amount), spread over it; random "
                          "IO only, sequential IO spans the whole AR",
                          m_ar_segments, m_ar_segments == 1 ? "" : "s", units::format_size_binary(m_ar_amount_bytes)),
              m_ar_amount_bytes};
    }
    if (m_zones.empty()) {
      return {1,
              amount ? "1 (the whole ActiveRange, uniformly; the AR Amount applies to random IO only and this test "
                       "has none)"
                     : "1 (the whole ActiveRange, uniformly)",
              std::nullopt};
    }
    std::string text;
    double start_pct = 0;
    for (const workload::AccessZone& z : m_zones) {
      text += fmt::format("{}{} % of IOs in {}-{} %", text.empty() ? "" : "; ", z.io_pct, start_pct,
                          start_pct + z.range_pct);
      start_pct += z.range_pct;
    }
    return {m_zones.size(), fmt::format("{} LBA zones of the ActiveRange: {}", m_zones.size(), text), std::nullopt};
  }

 private:
  StepExecutor& m_inner;
  uint64_t m_ar_amount_bytes = 0;
  uint64_t m_ar_segments = 1;
  uint32_t m_max_queue_depth = 0;
  std::vector<workload::AccessZone> m_zones;
  bool m_random_unzoned = false;
};

}  // namespace

results::TestRecord PtsTest::run(TestContext& ctx) const {
  TallyExecutor tally(ctx.exec, ctx.settings.size_bytes("active_range.amount"),
                      ctx.settings.count("active_range.segments"));
  TestContext watched{ctx.defs, ctx.spec, ctx.settings, tally, ctx.target};
  results::TestRecord rec = procedure(watched);
  rec.header.max_queue_depth = tally.max_queue_depth();
  rec.header.ar_segments = tally.ar_segments();
  return rec;
}

TestSpec::TestSpec(const TestContext& ctx, std::string test_id)
    : m_ctx(ctx), m_id(std::move(test_id)), m_file(ctx.defs.test(m_id)) {}

bool TestSpec::has(std::string_view key) const {
  try {
    (void)navigate(m_file, key, m_id);
    return true;
  } catch (const Error&) {
    return false;
  }
}

SpecValue TestSpec::get(std::string_view key) {
  SpecValue v = m_ctx.settings.apply(
      DefinitionSet::resolve_field(navigate(m_file, key, m_id), m_ctx.spec, m_id + "/" + std::string(key)));
  if (std::none_of(m_read.begin(), m_read.end(), [&](const SpecValue& r) { return r.path == v.path; })) {
    m_read.push_back(v);
  }
  return v;
}

SpecValue TestSpec::common(std::string_view key) {
  SpecValue v = m_ctx.settings.apply(DefinitionSet::resolve_field(navigate(m_ctx.defs.common(), key, "common"),
                                                                  m_ctx.spec, "common/" + std::string(key)));
  if (std::none_of(m_read.begin(), m_read.end(), [&](const SpecValue& r) { return r.path == v.path; })) {
    m_read.push_back(v);
  }
  return v;
}

uint64_t TestSpec::duration_ns(std::string_view key) {
  const SpecValue v = get(key);
  return units::parse_duration_ns(v.value.get<std::string>(), v.path);
}

std::vector<uint64_t> TestSpec::block_sizes(std::string_view key) {
  const SpecValue v = get(key);
  std::vector<uint64_t> out;
  for (const json& item : v.value) {
    const uint64_t bytes = units::parse_size_bytes(item.get<std::string>(), v.path);
    if (bytes % m_ctx.target.logical_block_bytes != 0) {
      omit(units::format_size_binary(bytes),
           fmt::format("not a multiple of the device's {}-byte logical block", m_ctx.target.logical_block_bytes));
      continue;
    }
    out.push_back(bytes);
  }
  return out;
}

std::vector<RwMix> TestSpec::rw_mixes(std::string_view key) {
  const SpecValue v = get(key);
  std::vector<RwMix> out;
  for (const json& item : v.value) {
    out.push_back(parse_rw_mix(item.get<std::string>(), v.path));
  }
  return out;
}

RwMix TestSpec::rw_mix(std::string_view key) {
  const SpecValue v = get(key);
  return parse_rw_mix(v.value.get<std::string>(), v.path);
}

std::vector<uint32_t> TestSpec::counts(std::string_view key) {
  const SpecValue v = get(key);
  std::vector<uint32_t> out;
  for (const json& item : v.value) {
    out.push_back(item.get<uint32_t>());
  }
  return out;
}

// One TOIO member ("threads" or "queue_depth"): the <test>.<member> setting when given, else
// the test file's toio (resolved for the profile).
uint32_t TestSpec::toio_member(const std::string& member) const {
  const std::string name = m_id + "." + member;
  if (m_ctx.settings.has(name)) {
    return static_cast<uint32_t>(m_ctx.settings.count(name));
  }
  return DefinitionSet::resolve_field(m_file.at("toio"), m_ctx.spec, m_id + "/toio").value.at(member).get<uint32_t>();
}

uint32_t TestSpec::threads() const { return toio_member("threads"); }

uint32_t TestSpec::queue_depth() const { return toio_member("queue_depth"); }

void TestSpec::omit(const std::string& what, const std::string& why) {
  if (std::none_of(m_omitted.begin(), m_omitted.end(),
                   [&](const results::OmittedEntry& o) { return o.what == what; })) {
    m_omitted.push_back({what, why});
  }
}

std::vector<results::ParameterRecord> TestSpec::parameters() const {
  std::vector<results::ParameterRecord> out;
  for (const SpecValue& v : m_read) {
    out.push_back({v.path, v.value, v.provenance.clause, to_tag(v.provenance.tag), v.provenance.source, v.setting});
  }
  return out;
}

results::TestRecord begin_record(TestSpec& spec) {
  const TestContext& ctx = spec.context();
  const SpecValue wc = DefinitionSet::resolve_field(ctx.defs.profile(ctx.spec.profile).at("write_cache"), ctx.spec,
                                                    "profiles/" + ctx.spec.profile + "/write_cache");
  results::TestRecord rec;
  results::TestHeader& h = rec.header;
  h.id = spec.test_id();
  h.title = spec.file().value("title", spec.test_id());
  h.subtitle = spec.file().value("subtitle", "");
  h.section = spec_value_record(spec.get("section"));
  h.spec_revision = ctx.spec.revision;
  h.profile = ctx.spec.profile;
  // Tests without one TOIO (CBW sweeps a TC x QD grid) record none; only a test with one has
  // TOIO settings (settings.cpp).
  if (spec.has("toio")) {
    const SpecValue node = spec.get("toio");
    h.toio = results::ToioRecord{spec.threads(), spec.queue_depth(), node.operator_choice, std::nullopt, std::nullopt};
    if (ctx.settings.has(spec.test_id() + ".threads")) {
      h.toio->threads_setting = record_of(ctx.settings.record(spec.test_id() + ".threads"));
      h.toio->queue_depth_setting = record_of(ctx.settings.record(spec.test_id() + ".queue_depth"));
    }
  }
  h.active_range_pct = ctx.settings.number("active_range_pct");
  h.write_cache_required = spec_value_record(wc);
  h.data_pattern = spec.common("data_pattern").value.get<std::string>();
  h.alignment = spec.common("alignment").value.get<std::string>();
  return rec;
}

results::TestRecord close_record(const TestSpec& spec, results::TestRecord rec, results::TestBlock block) {
  rec.block_key = std::string(find_procedure(spec.test_id()).record_key);
  rec.block = std::move(block);
  rec.header.parameters = spec.parameters();
  rec.header.omitted = spec.omitted();
  return rec;
}

results::PurgeRecord purge_step(TestSpec& spec, const std::string& phase) {
  StepRequest request;
  request.kind = StepKind::purge;
  request.purge_method = spec.common("purge/method").value.get<std::string>();
  // The executor's step result (journaled as JSON, so read back through the typed reader).
  const json step = spec.context().exec.execute(StepId{spec.test_id(), phase, "purge"}, request);
  results::PurgeRecord record = results::read_purge(step);
  const json& write_cache = results::at(step, "write_cache_after_purge");
  if (!write_cache.is_null()) {
    record.write_cache_after_purge = results::Embedded(write_cache);  // owned: `step` is local
  }
  record.phase = phase;
  return record;
}

SegmentSpec make_segment(workload::AccessPattern pattern, RwMix mix, uint64_t block_bytes, uint32_t threads,
                         uint32_t queue_depth, uint64_t duration_ns) {
  SegmentSpec s;
  s.pattern = pattern;
  s.mix = mix;
  s.block_sizes = {{block_bytes, 1.0}};
  s.threads = threads;
  s.queue_depth = queue_depth;
  s.duration_ns = duration_ns;
  s.label = segment_label(pattern, s.block_sizes, mix);
  return s;
}

namespace {

// A WIPC pass: 100 % writes of `multiple` x the user capacity, the amount rounded down to
// whole blocks per thread so that every thread's share is exact (at least one block each).
SegmentSpec wipc_segment(workload::AccessPattern pattern, uint64_t block_bytes, uint32_t threads, uint32_t queue_depth,
                         double multiple, uint64_t capacity_bytes) {
  SegmentSpec s = make_segment(pattern, RwMix{0}, block_bytes, threads, queue_depth, 0);
  const uint64_t unit = block_bytes * threads;
  s.bytes_limit =
      std::max<uint64_t>(unit, static_cast<uint64_t>(multiple * static_cast<double>(capacity_bytes)) / unit * unit);
  s.label = fmt::format("WIPC {}", s.label);
  return s;
}

}  // namespace

results::WipcRecord wipc_step(TestSpec& spec, const std::string& phase, uint64_t block_bytes, uint32_t threads,
                              uint32_t queue_depth) {
  const TestContext& ctx = spec.context();
  const double multiple = spec.common("wipc/capacity_multiple").value.get<double>();
  const SpecValue pattern = spec.common("wipc/pattern");
  const std::string pattern_name = pattern.value.get<std::string>();
  if (pattern_name != "sequential" && pattern_name != "random") {
    throw Error(ExitCode::system,
                fmt::format("built-in PTS data {}: unknown pattern \"{}\"", pattern.path, pattern_name));
  }
  const SegmentSpec s =
      wipc_segment(pattern_name == "sequential" ? workload::AccessPattern::sequential : workload::AccessPattern::random,
                   block_bytes, threads, queue_depth, multiple, ctx.target.capacity_bytes);
  const SegmentResult r = run_segment(ctx.exec, StepId{spec.test_id(), phase, "wipc"}, s);
  results::WipcRecord out;
  out.phase = phase;
  out.pass = {block_bytes, multiple, s.bytes_limit, results::Embedded(json(s)), results::Embedded(json(r))};
  // PTS-C: WIPC "may include both sequential and random preconditioning" (wipc.random).
  if (spec.common("wipc/random").value.get<bool>()) {
    const SpecValue bs = spec.common("wipc/random_block_size");
    const uint64_t random_block_bytes = units::parse_size_bytes(bs.value.get<std::string>(), bs.path);
    const double random_multiple = spec.common("wipc/random_capacity_multiple").value.get<double>();
    const SegmentSpec rs = wipc_segment(workload::AccessPattern::random, random_block_bytes, threads, queue_depth,
                                        random_multiple, ctx.target.capacity_bytes);
    const SegmentResult rr = run_segment(ctx.exec, StepId{spec.test_id(), phase, "wipc-random"}, rs);
    out.random_pass = results::WipcPass{random_block_bytes, random_multiple, rs.bytes_limit,
                                        results::Embedded(json(rs)), results::Embedded(json(rr))};
  }
  return out;
}

uint64_t wipc_block_bytes(TestSpec& spec) {
  const SpecValue v = spec.common("wipc/block_size");
  return units::parse_size_bytes(v.value.get<std::string>(), v.path);
}

void apply_round_rules(TestSpec& spec, RoundLoopSpec& loop) {
  loop.criteria.window_rounds = spec.common("steady_state/window_rounds").value.get<uint32_t>();
  loop.criteria.data_excursion_pct = spec.common("steady_state/data_excursion_pct").value.get<double>();
  loop.criteria.slope_excursion_pct = spec.common("steady_state/slope_excursion_pct").value.get<double>();
  loop.first_check_round = spec.common("steady_state/first_check_round").value.get<uint32_t>();
  loop.max_rounds = spec.common("steady_state/max_rounds").value.get<uint32_t>();
  loop.window_statistics.art_round_mean = spec.common("window_statistics/art").value == "round-mean";
  loop.window_statistics.mrt_round_mean = spec.common("window_statistics/mrt").value == "round-mean";
  // The disclosed deviations (common.json measurement_window, segment_warmup): a fixed number of
  // Rounds (no stop at steady state), a window of the last N of them, a warm-up per segment.
  loop.window_last_rounds = spec.common("measurement_window/last_rounds").value.get<uint32_t>();
  const uint32_t fixed_rounds = spec.common("measurement_window/fixed_rounds").value.get<uint32_t>();
  if (fixed_rounds > 0) {
    loop.max_rounds = fixed_rounds;
    loop.stop_at_steady_state = false;
    loop.cap_setting = "window.fixed_rounds";
  }
  const SpecValue warmup = spec.common("segment_warmup");
  loop.segment_warmup_ns = units::parse_duration_ns(warmup.value.get<std::string>(), warmup.path);
}

results::CaptureRecord capture_record(const std::string& name, const SegmentSpec& spec, const SegmentResult& result) {
  results::CaptureRecord out;
  out.name = name;
  out.label = spec.label;
  out.spec = results::Embedded(json(spec));
  out.result = results::Embedded(json(result));
  // Confidence-level series: for each non-empty bucket of the combined histogram, the share of
  // IOs at or below the bucket's upper bound (clamped to the recorded maximum), in percent.
  const uint64_t total = result.combined_histogram.total_count();
  uint64_t cumulative = 0;
  for (const auto& [index, count] : result.combined_histogram.nonzero_buckets()) {
    cumulative += count;
    const uint64_t upper =
        std::min(stats::LatencyHistogram::bucket_upper_ns(index), result.summary.combined.latency_max_ns);
    out.confidence_levels.push_back({upper, 100.0 * static_cast<double>(cumulative) / static_cast<double>(total)});
  }
  out.histogram_bars = histogram_bars(result.combined_histogram);
  if (result.read_histogram.total_count() > 0 && result.write_histogram.total_count() > 0) {
    out.read_bars = histogram_bars(result.read_histogram);
    out.write_bars = histogram_bars(result.write_histogram);
  }
  return out;
}

std::vector<results::HistogramBar> histogram_bars(const stats::LatencyHistogram& histogram) {
  // 8 of the 128 buckets per octave (stats/latency_histogram.hpp) make one bar: 1/16 octave.
  constexpr size_t k_buckets_per_bar = 8;
  std::vector<results::HistogramBar> bars;
  for (const auto& [index, count] : histogram.nonzero_buckets()) {
    const size_t first = index / k_buckets_per_bar * k_buckets_per_bar;
    const uint64_t lower = stats::LatencyHistogram::bucket_lower_ns(first);
    const uint64_t upper = stats::LatencyHistogram::bucket_upper_ns(first + k_buckets_per_bar - 1) + 1;
    if (!bars.empty() && bars.back().lower_ns == lower) {
      bars.back().count += count;
    } else {
      bars.push_back({lower, upper, count});
    }
  }
  return bars;
}

std::string stimulus_text(const SegmentSpec& spec) {
  const char* pattern = spec.pattern == workload::AccessPattern::random ? "RND" : "SEQ";
  const std::string size =
      spec.block_sizes.size() == 1 ? units::format_size_binary(spec.block_sizes.front().bytes) : "CBW mix";
  const std::string mix = spec.mix.read_pct <= 0     ? "100% W"
                          : spec.mix.read_pct >= 100 ? "100% R"
                                                     : "R/W " + format_rw_mix(spec.mix);
  return fmt::format("{} {} {}", pattern, size, mix);
}

std::string subtitle_for(TestSpec& spec, const SegmentSpec& stimulus) {
  std::string subtitle = spec.file().value("subtitle", "");
  const std::string key = "{stimulus}";
  const size_t at = subtitle.find(key);
  if (at != std::string::npos) {
    subtitle.replace(at, key.size(), stimulus_text(stimulus));
  }
  return subtitle;
}

}  // namespace ptsuite::pts
