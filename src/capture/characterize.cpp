// Records -> streams, steps, queue depth, latency, heat map (capture/characterize.hpp).
#include <ptsuite/capture/characterize.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <functional>
#include <unordered_map>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::capture {

namespace {

constexpr double k_ns_per_s = 1e9;
constexpr double k_bytes_per_mb = 1e6;

using StreamKey = std::tuple<bool, uint32_t, uint8_t>;  // sequential, size, op

struct StreamAcc {
  StreamKey key{};
  uint64_t ios = 0;
  uint64_t bytes = 0;
  double latency_sum_ns = 0;
  uint64_t latency_count = 0;
  uint64_t latency_max_ns = 0;
};

// A stream's IOs and bytes within one step.
struct StepStream {
  uint64_t ios = 0;
  uint64_t bytes = 0;
};

struct StepAcc {
  uint64_t ios = 0;
  uint64_t bytes = 0;
  uint64_t read_ios = 0;
  uint64_t write_ios = 0;
  double busy_ns = 0;  // in-flight time of IOs that start or end within this step
  // IOs in flight over the whole of every step from this one on: +1 at the first step an IO
  // covers whole, -1 after its last (a prefix sum at the end gives each step's count; an IO
  // spanning many steps costs two additions, not one per step).
  int64_t whole_delta = 0;
  uint32_t qd_max = 0;
  double latency_sum_ns = 0;
  uint64_t latency_count = 0;
  uint64_t latency_max_ns = 0;
  uint64_t latency_p50_ns = 0;
  uint64_t latency_p99_ns = 0;
  // By stream id, only the streams this step has: a step costs what it holds, whatever the
  // number of streams of the whole capture (a hostile file with many sizes and many steps).
  std::map<size_t, StepStream> streams;
  std::vector<uint64_t> lba_ios;
};

std::string stream_name(const StreamKey& key) {
  const auto op = static_cast<IoOp>(std::get<2>(key));
  if (op == IoOp::flush) return "FLUSH";
  return fmt::format("{} {} {}", std::get<0>(key) ? "SEQ" : "RND", stream_size_text(std::get<1>(key)), op_letter(op));
}

}  // namespace

void check_step_index(uint64_t step, uint64_t step_ns) {
  if (step < k_max_steps) return;
  throw UsageError(
      "step", fmt::format("the capture runs past {} ({} steps of {}): give a longer --step, or "
                          "check the capture's times (a corrupt or merged trace?)",
                          units::format_duration(k_max_steps * step_ns), k_max_steps, units::format_duration(step_ns)));
}

std::string stream_size_text(uint32_t bytes) {
  if (bytes != 0 && bytes % (1024U * 1024U) == 0) return fmt::format("{}MiB", bytes / (1024U * 1024U));
  if (bytes != 0 && bytes % 1024U == 0) return fmt::format("{}KiB", bytes / 1024U);
  return fmt::format("{}B", bytes);
}

struct Characterizer::Impl {
  CaptureHeader header;
  CharacterizeOptions options;
  std::vector<StreamAcc> streams;
  std::map<StreamKey, size_t> stream_ids;
  std::vector<StepAcc> steps;
  size_t current_step = SIZE_MAX;
  stats::LatencyHistogram step_histogram;
  stats::LatencyHistogram histogram;
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<>> completions;
  std::map<std::pair<uint16_t, uint8_t>, std::vector<uint64_t>> recent_ends;  // ring per device, op
  std::map<std::pair<uint16_t, uint8_t>, size_t> recent_next;
  std::unordered_map<uint32_t, uint64_t> process_ios;
  uint64_t ios = 0, bytes = 0, read_ios = 0, write_ios = 0, other_ios = 0;
  double busy_ns = 0;
  uint32_t qd_max = 0;
  double latency_sum_ns = 0;
  uint64_t latency_count = 0;
  uint32_t min_size = UINT32_MAX, max_size = 0;
  uint64_t last_time_ns = 0;
  uint64_t unmatched = 0;
  std::optional<uint64_t> origin_ns;  // set by the options or the first record

  // `t_ns` (since t0) on the steps' timeline: since the origin, 0 for anything before it.
  [[nodiscard]] uint64_t since_origin(uint64_t t_ns) const { return t_ns > *origin_ns ? t_ns - *origin_ns : 0; }

  StepAcc& step(size_t k) {
    if (steps.size() <= k) {
      check_step_index(k, options.step_ns);
      steps.resize(k + 1);
    }
    StepAcc& s = steps[k];
    if (s.lba_ios.empty()) s.lba_ios.assign(options.lba_bins, 0);
    return s;
  }
  void close_step() {
    if (current_step == SIZE_MAX) return;
    StepAcc& s = steps[current_step];
    s.latency_p50_ns = step_histogram.value_at_percentile_ns(50);
    s.latency_p99_ns = step_histogram.value_at_percentile_ns(99);
    step_histogram.clear();
  }
  bool is_sequential(const IoRecord& r);
  size_t stream_id(const StreamKey& key);
  void add_busy(uint64_t issue_ns, uint64_t complete_ns);
  void add(const IoRecord& r);
};

bool Characterizer::Impl::is_sequential(const IoRecord& r) {
  const std::pair<uint16_t, uint8_t> key{r.device, static_cast<uint8_t>(r.op)};
  std::vector<uint64_t>& ring = recent_ends[key];
  const bool seq = std::find(ring.begin(), ring.end(), r.offset_bytes) != ring.end();
  const uint64_t end = r.offset_bytes + r.length_bytes;
  if (ring.size() < options.seq_lookback) {
    ring.push_back(end);
  } else if (!ring.empty()) {
    size_t& next = recent_next[key];
    ring[next] = end;
    next = (next + 1) % ring.size();
  }
  return seq;
}

size_t Characterizer::Impl::stream_id(const StreamKey& key) {
  const auto [it, inserted] = stream_ids.try_emplace(key, streams.size());
  if (inserted) streams.push_back(StreamAcc{key});
  return it->second;
}

void Characterizer::Impl::add_busy(uint64_t issue_ns, uint64_t complete_ns) {
  busy_ns += static_cast<double>(complete_ns - issue_ns);
  if (complete_ns <= issue_ns) return;
  const uint64_t len = options.step_ns;
  const uint64_t first = issue_ns / len;
  const uint64_t last = (complete_ns - 1) / len;  // the last step the IO is in flight in
  step(last);                                     // bounds the steps (check_step_index) first
  if (first == last) {
    step(first).busy_ns += static_cast<double>(complete_ns - issue_ns);
    return;
  }
  step(first).busy_ns += static_cast<double>((first + 1) * len - issue_ns);
  step(last).busy_ns += static_cast<double>(complete_ns - last * len);
  if (last > first + 1) {  // the steps in between are in flight whole
    ++step(first + 1).whole_delta;
    --step(last).whole_delta;
  }
}

void Characterizer::Impl::add(const IoRecord& r) {
  if (options.device >= 0 && r.device != options.device) return;
  if (!origin_ns) origin_ns = options.origin_ns.value_or(r.issue_ns);
  const size_t k = since_origin(r.issue_ns) / options.step_ns;
  if (k != current_step) {
    close_step();
    current_step = k;
  }
  StepAcc& s = step(k);
  const bool flush = r.op == IoOp::flush;
  const StreamKey key{!flush && is_sequential(r), flush ? 0 : r.length_bytes, static_cast<uint8_t>(r.op)};
  const size_t id = stream_id(key);
  StreamAcc& st = streams[id];
  ++st.ios;
  st.bytes += r.length_bytes;
  ++ios;
  bytes += r.length_bytes;
  ++s.ios;
  s.bytes += r.length_bytes;
  StepStream& in_step = s.streams[id];
  ++in_step.ios;
  in_step.bytes += r.length_bytes;
  read_ios += r.op == IoOp::read ? 1 : 0;
  write_ios += r.op == IoOp::write ? 1 : 0;
  other_ios += r.op != IoOp::read && r.op != IoOp::write ? 1 : 0;
  s.read_ios += r.op == IoOp::read ? 1 : 0;
  s.write_ios += r.op == IoOp::write ? 1 : 0;
  if (r.length_bytes != 0) {
    min_size = std::min(min_size, r.length_bytes);
    max_size = std::max(max_size, r.length_bytes);
  }
  const uint64_t capacity = r.device < header.devices.size() ? header.devices[r.device].capacity_bytes : 0;
  if (capacity != 0 && options.lba_bins != 0) {
    const auto bin = static_cast<size_t>(std::min<uint64_t>(
        static_cast<uint64_t>(static_cast<double>(r.offset_bytes) / static_cast<double>(capacity) * options.lba_bins),
        options.lba_bins - 1));
    ++s.lba_ios[bin];
  }
  if (r.pid != 0) ++process_ios[r.pid];
  last_time_ns = std::max(last_time_ns, r.issue_ns);
  while (!completions.empty() && completions.top() <= r.issue_ns) completions.pop();
  if (!r.completed() || r.complete_ns < r.issue_ns) {
    ++unmatched;
    return;
  }
  completions.push(r.complete_ns);
  const auto qd = static_cast<uint32_t>(completions.size());
  s.qd_max = std::max(s.qd_max, qd);
  qd_max = std::max(qd_max, qd);
  const uint64_t lat = r.latency_ns();
  last_time_ns = std::max(last_time_ns, r.complete_ns);
  histogram.record(lat);
  step_histogram.record(lat);
  latency_sum_ns += static_cast<double>(lat);
  ++latency_count;
  s.latency_sum_ns += static_cast<double>(lat);
  ++s.latency_count;
  s.latency_max_ns = std::max(s.latency_max_ns, lat);
  st.latency_sum_ns += static_cast<double>(lat);
  ++st.latency_count;
  st.latency_max_ns = std::max(st.latency_max_ns, lat);
  // Last: it may add steps, which moves the step vector `s` refers to.
  add_busy(since_origin(r.issue_ns), since_origin(r.complete_ns));
}

Characterizer::Characterizer(const CaptureHeader& header, CharacterizeOptions options)
    : m_impl(std::make_unique<Impl>()) {
  if (options.step_ns == 0) options.step_ns = k_default_step_ns;
  m_impl->header = header;
  m_impl->options = options;
}

Characterizer::~Characterizer() = default;

void Characterizer::add(const IoRecord& record) { m_impl->add(record); }

namespace {

// Streams most IOs first (ties by name), the count that covers >= 80 %, and the mapping from
// stream ids to their rank.
std::vector<size_t> rank_streams(const std::vector<StreamAcc>& streams) {
  std::vector<size_t> order(streams.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (streams[a].ios != streams[b].ios) return streams[a].ios > streams[b].ios;
    return stream_name(streams[a].key) < stream_name(streams[b].key);
  });
  return order;
}

results::CharacterizationStep finish_step(const StepAcc& s, uint64_t start_ns, uint64_t length_ns,
                                          const std::vector<size_t>& order, uint32_t top) {
  results::CharacterizationStep out;
  out.start_ns = start_ns;
  out.length_ns = length_ns;
  out.ios = s.ios;
  out.bytes = s.bytes;
  out.read_ios = s.read_ios;
  out.write_ios = s.write_ios;
  const double secs = static_cast<double>(length_ns) / k_ns_per_s;
  out.iops = secs > 0 ? static_cast<double>(s.ios) / secs : 0;
  out.mb_per_s = secs > 0 ? static_cast<double>(s.bytes) / k_bytes_per_mb / secs : 0;
  out.qd_mean = length_ns > 0 ? s.busy_ns / static_cast<double>(length_ns) : 0;
  out.qd_max = s.qd_max;
  out.latency_mean_ns = s.latency_count > 0 ? s.latency_sum_ns / static_cast<double>(s.latency_count) : 0;
  out.latency_p50_ns = s.latency_p50_ns;
  out.latency_p99_ns = s.latency_p99_ns;
  out.latency_max_ns = s.latency_max_ns;
  uint64_t listed = 0;
  uint64_t listed_bytes = 0;
  for (uint32_t i = 0; i < top; ++i) {
    const auto it = s.streams.find(order[i]);
    const uint64_t n = it != s.streams.end() ? it->second.ios : 0;
    const uint64_t b = it != s.streams.end() ? it->second.bytes : 0;
    out.stream_ios.push_back(n);
    out.stream_bytes.push_back(b);
    listed += n;
    listed_bytes += b;
  }
  out.stream_ios.push_back(s.ios - listed);
  out.stream_bytes.push_back(s.bytes - listed_bytes);
  out.lba_ios = s.lba_ios;
  return out;
}

}  // namespace

results::IoCharacterization Characterizer::finish(const std::optional<CaptureTrailer>& trailer) {
  Impl& m = *m_impl;
  m.close_step();
  results::IoCharacterization c;
  c.source = m.header.source;
  const size_t dev = m.options.device >= 0 ? static_cast<size_t>(m.options.device) : 0;
  if (dev < m.header.devices.size()) {
    c.device = m.header.devices[dev].path;
    c.capacity_bytes = m.header.devices[dev].capacity_bytes;
  }
  c.started_utc = m.header.started_utc;
  c.duration_ns = std::max(trailer ? trailer->duration_ns : 0, m.last_time_ns);
  c.origin_ns = std::min(m.origin_ns.value_or(m.options.origin_ns.value_or(0)), c.duration_ns);
  c.step_ns = m.options.step_ns;
  c.seq_lookback = m.options.seq_lookback;
  c.lba_bins = m.options.lba_bins;
  c.ios = m.ios;
  c.bytes = m.bytes;
  c.read_ios = m.read_ios;
  c.write_ios = m.write_ios;
  c.other_ios = m.other_ios;
  // Rates over the steps' span (origin to end), the time the workload was seen.
  const uint64_t span_ns = c.duration_ns - c.origin_ns;
  const double secs = static_cast<double>(span_ns) / k_ns_per_s;
  c.iops = secs > 0 ? static_cast<double>(m.ios) / secs : 0;
  c.mb_per_s = secs > 0 ? static_cast<double>(m.bytes) / k_bytes_per_mb / secs : 0;
  c.qd_mean = span_ns > 0 ? m.busy_ns / static_cast<double>(span_ns) : 0;
  c.qd_max = m.qd_max;
  c.latency_mean_ns = m.latency_count > 0 ? m.latency_sum_ns / static_cast<double>(m.latency_count) : 0;
  c.latency_p50_ns = m.histogram.value_at_percentile_ns(50);
  c.latency_p99_ns = m.histogram.value_at_percentile_ns(99);
  c.latency_p999_ns = m.histogram.value_at_percentile_ns(99.9);
  c.latency_max_ns = m.histogram.total_count() > 0 ? m.histogram.value_at_percentile_ns(100) : 0;
  for (const StreamAcc& s : m.streams) c.latency_max_ns = std::max(c.latency_max_ns, s.latency_max_ns);
  c.min_size_bytes = m.min_size == UINT32_MAX ? 0 : m.min_size;
  c.max_size_bytes = m.max_size;
  c.capture_complete = trailer.has_value();
  if (trailer) {
    c.stop_reason = trailer->stop_reason;
    c.lost_events = trailer->lost_events;
    c.unmatched_issues = trailer->unmatched_issues;
    c.unmatched_completions = trailer->unmatched_completions;
  } else {
    c.unmatched_issues = m.unmatched;
  }
  const std::vector<size_t> order = rank_streams(m.streams);
  uint64_t covered = 0;
  for (const size_t id : order) {
    const StreamAcc& s = m.streams[id];
    results::IoStreamStats out;
    out.name = stream_name(s.key);
    out.sequential = std::get<0>(s.key);
    out.size_bytes = std::get<1>(s.key);
    out.op = std::string(op_name(static_cast<IoOp>(std::get<2>(s.key))));
    out.ios = s.ios;
    out.bytes = s.bytes;
    out.io_share = m.ios > 0 ? static_cast<double>(s.ios) / static_cast<double>(m.ios) : 0;
    out.byte_share = m.bytes > 0 ? static_cast<double>(s.bytes) / static_cast<double>(m.bytes) : 0;
    out.latency_mean_ns = s.latency_count > 0 ? s.latency_sum_ns / static_cast<double>(s.latency_count) : 0;
    out.latency_max_ns = s.latency_max_ns;
    if (covered * 10 < m.ios * 8) ++c.streams_for_80pct;  // still below 80 % before this one
    covered += s.ios;
    c.streams.push_back(std::move(out));
  }
  c.step_streams = static_cast<uint32_t>(std::min<size_t>(m.options.step_streams, order.size()));
  const uint64_t n_steps = span_ns == 0 ? m.steps.size() : (span_ns + c.step_ns - 1) / c.step_ns;
  int64_t whole = 0;  // IOs in flight over the whole step (the prefix sum of whole_delta)
  for (uint64_t k = 0; k < n_steps; ++k) {
    const uint64_t start = k * c.step_ns;  // since the origin
    const uint64_t length = std::min(c.step_ns, span_ns > start ? span_ns - start : c.step_ns);
    StepAcc& s = m.step(k);
    whole += s.whole_delta;
    s.busy_ns += static_cast<double>(whole) * static_cast<double>(c.step_ns);
    results::CharacterizationStep step = finish_step(s, c.origin_ns + start, length, order, c.step_streams);
    step.partial = length < c.step_ns;
    c.steps.push_back(std::move(step));
  }
  std::map<uint32_t, std::string> names;
  if (trailer) {
    for (const ProcessName& p : trailer->processes) names[p.pid] = p.comm;
  }
  for (const auto& [pid, n] : m.process_ios) {
    c.processes.push_back({pid, names[pid], n, m.ios > 0 ? static_cast<double>(n) / static_cast<double>(m.ios) : 0});
  }
  std::sort(c.processes.begin(), c.processes.end(),
            [](const results::ProcessShare& a, const results::ProcessShare& b) { return a.ios > b.ios; });
  return c;
}

results::IoCharacterization characterize_reader(CaptureReader& reader, const CharacterizeOptions& options) {
  Characterizer characterizer(reader.header(), options);
  std::vector<IoRecord> batch(4096);
  while (const size_t n = reader.read(batch)) {
    for (size_t i = 0; i < n; ++i) characterizer.add(batch[i]);
  }
  return characterizer.finish(reader.trailer());
}

results::IoCharacterization characterize_file(const std::string& path, const CharacterizeOptions& options) {
  CaptureReader reader(path);
  results::IoCharacterization c = characterize_reader(reader, options);
  c.capture_file = path;
  return c;
}

results::IoCharacterization characterize_bytes(std::string_view bytes, const std::string& name,
                                               const CharacterizeOptions& options) {
  CaptureReader reader(bytes, name);
  results::IoCharacterization c = characterize_reader(reader, options);
  c.capture_file = name;
  return c;
}

}  // namespace ptsuite::capture
