#include "support/results_fixture.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include <ptsuite/device/health.hpp>
#include <ptsuite/device/identity.hpp>
#include <ptsuite/device/platform.hpp>
#include <ptsuite/device/purge.hpp>
#include <ptsuite/device/write_cache.hpp>
#include <ptsuite/pts/compliance.hpp>
#include <ptsuite/pts/device_executor.hpp>
#include <ptsuite/pts/plan.hpp>
#include <ptsuite/pts/run.hpp>
#include <ptsuite/pts/test_procedure.hpp>
#include <ptsuite/stats/latency_stats.hpp>
#include <ptsuite/stats/stats_json.hpp>
#include <ptsuite/util/version.hpp>

#include "pts/run_support.hpp"
#include "support/fixture_model.hpp"

namespace ptsuite::test_support {

namespace {

using nlohmann::json;
using pts::SegmentResult;
using pts::SegmentSpec;
using pts::StepId;

// --- the device model ------------------------------------------------------------------------
//
// IOPS of a segment = a smooth minimum of the device's ceiling for the block size and mix
// (IOPS and bandwidth limits per direction, harmonic mix of read and write) and what the
// outstanding IOs allow (TC x QD over the QD 1 service time of the mix). Writes are faster
// fresh out of the box and settle with drive fills written since the purge (the WSAT curve);
// Rounds settle from a few percent high in Round 1. Every value gets a little deterministic
// noise; an "oscillating" phase keeps swinging by +-oscillation_pct (steady state never
// attained). Mean latency follows from Little's law (TC x QD / IOPS) split between reads and
// writes by their service times, spread over a few buckets (a long-tail shape) so
// percentiles, 99.999 % and the maximum differ like a real drive's.
struct DeviceModel {
  double read_iops_max = 760e3;
  double write_iops_max = 92e3;  // steady state, after preconditioning
  double read_mb_max = 3300;
  double write_mb_max = 1150;
  double seq_read_mb_max = 3450;
  double seq_write_mb_max = 2050;
  double read_service_ns = 78e3;  // QD 1, 4 KiB
  double write_service_ns = 21e3;
  double read_ns_per_kib = 290;
  double write_ns_per_kib = 470;
  double fob_boost = 2.6;         // write ceilings x (1 + boost) fresh out of the box
  double fob_fills_tau = 0.55;    // ... decaying with drive fills written since the purge
  double round_settle = 0.09;     // Round 1 this much above the settled value
  double round_settle_tau = 1.1;  // in Rounds
  double noise_pct = 1.1;
  double oscillation_pct = 14;  // for oscillating phases
  double cpu_ns_per_io = 1400;
};

struct DeviceFacts {
  bool loop = false;  // scratch loop device (no PTS purge, no write cache, no health data)
  std::string kernel_name = "nvme0n1";
  std::string model = "FX-3840 Fixture NVMe SSD";
  std::string serial = "FX0000000001";
  std::string firmware = "FXFW1.00";
  uint64_t capacity_bytes = 400'088'457'216;
  uint32_t logical_block_bytes = 512;
};

struct FixtureConfig {
  std::string name;
  std::vector<std::string> tests;
  std::vector<std::string> presets;
  std::string tested_by;
  uint64_t seed = 1;
  std::time_t start_epoch = 0;
  DeviceFacts device;
  DeviceModel model;
  // Phases ("test/phase") whose performance keeps oscillating.
  std::vector<std::string> oscillating;
  bool oscillate_all = false;     // every phase oscillates (no steady state: Round cap)
  bool dense_histograms = false;  // dense_shape() in every segment (the size worst case)
};

class FixtureExecutor : public pts::StepExecutor {
 public:
  explicit FixtureExecutor(const FixtureConfig& config) : m_config(config), m_clock(config.start_epoch) {}

  json execute(const StepId& id, const pts::StepRequest& request) override {
    ++m_steps;
    switch (request.kind) {
      case pts::StepKind::purge:
        return purge(id, request.purge_method);
      case pts::StepKind::health:
        return health();
      case pts::StepKind::idle: {
        const auto idle_s = static_cast<std::time_t>(request.idle_ns / 1'000'000'000);
        advance(idle_s);
        return json{{"kind", "idle"}, {"idle_ns", request.idle_ns}, {"elapsed_ns", request.idle_ns}};
      }
      case pts::StepKind::segment:
        break;
    }
    return segment(id, request.segment);
  }
  void replayed(const StepId&, const pts::StepRequest&, const json&) override {}

  [[nodiscard]] std::time_t now() const { return m_clock; }
  void advance(std::time_t seconds) { m_clock += seconds; }
  [[nodiscard]] size_t steps() const { return m_steps; }
  [[nodiscard]] const device::ThrottleMonitor& throttle() const { return m_throttle; }

 private:
  json purge(const StepId& id, const std::string& requested) {
    device::PurgeRecord r;
    r.target = m_config.device.loop ? "/dev/loop0" : "/dev/" + m_config.device.kernel_name;
    r.device_model = m_config.device.model;
    r.device_serial = m_config.device.loop ? "" : m_config.device.serial;
    r.requested_method = requested;
    r.started_utc = utc_text(m_clock);
    if (m_config.device.loop) {
      r.method = "discard";
      r.description = "BLKDISCARD / TRIM over the whole target (NOT a PTS purge)";
      r.pts_compliant = false;
      r.duration_ns = 612'000;
      r.progress = {{0, 1.0, "discard"}};
      r.messages = {"not a PTS purge: discard and zero-fill do not return the device to a fresh-out-of-box state",
                    "secure-discard is not supported by /dev/loop0; trying discard",
                    fmt::format("discard completed over {} bytes (not a PTS purge)", m_config.device.capacity_bytes)};
      r.parameters.bytes = m_config.device.capacity_bytes;
    } else {
      r.method = "nvme-format";
      r.description = "NVMe Format NVM, SES=1 (user data erase), LBA format kept";
      r.pts_compliant = true;
      r.duration_ns = 7'400'000'000;
      r.progress = {{0, 0.0, "format issued"}, {7400, 1.0, "format complete"}};
      r.messages = {"NVMe Format NVM, SES=1 on namespace 1", "format completed in 7.4 s"};
      r.parameters.ses = 1;
      r.parameters.lbaf = m_config.device.logical_block_bytes == 4096 ? 1 : 0;
      r.parameters.nsid = 1;
    }
    r.outcome = device::PurgeOutcome::succeeded;
    m_clock += static_cast<std::time_t>(r.duration_ns / 1'000'000'000 + 1);
    r.ended_utc = utc_text(m_clock);
    m_written_since_purge = 0;
    json j = r;
    j["step"] = id.text();
    return j;
  }

  json health() {
    device::HealthSnapshot s;
    s.taken_utc = utc_text(m_clock);
    if (m_config.device.loop) {
      s.source = "none";
      s.note = "no health data for a loop target";
    } else {
      s.source = "nvme-smart-log";
      s.temperature_celsius = 36.0 + std::min<double>(14.0, static_cast<double>(m_throttle.snapshots()) / 4.0);
      s.warning_threshold_celsius = 70;
      s.critical_threshold_celsius = 80;
      s.critical_warning = 0;
      s.percentage_used = 1;
      s.media_errors = 0;
      s.available_spare_percent = 100;
      s.power_on_hours = 1200 + static_cast<uint64_t>((m_clock - m_config.start_epoch) / 3600);
      s.warning_temperature_minutes = 0;
      s.thermal_transitions = 0;
    }
    const bool throttling = m_throttle.observe(s);
    json j = s;
    j["throttling"] = throttling;
    return j;
  }

  json segment(const StepId& id, const SegmentSpec& s) {
    const DeviceModel& m = m_config.model;
    const double capacity = static_cast<double>(m_config.device.capacity_bytes);
    double weight_sum = 0;
    double mean_bytes = 0;
    for (const auto& b : s.block_sizes) {
      mean_bytes += static_cast<double>(b.bytes) * b.weight;
      weight_sum += b.weight;
    }
    mean_bytes /= weight_sum;
    const double kib = mean_bytes / 1024.0;
    const double r = s.mix.read_pct / 100.0;
    const bool seq = s.pattern == workload::AccessPattern::sequential;

    const double fills = static_cast<double>(m_written_since_purge) / capacity;
    const double fob = 1.0 + m.fob_boost * std::exp(-fills / m.fob_fills_tau);
    const double write_state = seq ? std::pow(fob, 0.25) : fob;
    const double cap_r =
        seq ? m.seq_read_mb_max * 1e6 / mean_bytes : std::min(m.read_iops_max, m.read_mb_max * 1e6 / mean_bytes);
    const double cap_w = write_state * (seq ? m.seq_write_mb_max * 1e6 / mean_bytes
                                            : std::min(m.write_iops_max, m.write_mb_max * 1e6 / mean_bytes));
    const double cap = 1.0 / (r / cap_r + (1.0 - r) / cap_w);
    const double svc_r = m.read_service_ns + kib * m.read_ns_per_kib;
    const double svc_w = (m.write_service_ns + kib * m.write_ns_per_kib) / std::sqrt(write_state);
    const double svc = r * svc_r + (1.0 - r) * svc_w;
    const double outstanding = static_cast<double>(s.threads) * static_cast<double>(s.queue_depth);
    const double conc = outstanding / svc * 1e9;
    double iops = std::pow(std::pow(cap, -4.0) + std::pow(conc, -4.0), -0.25);

    const uint32_t round = round_of(id);
    if (round > 0) {
      iops *= 1.0 + m.round_settle * (0.3 + 0.7 * (1.0 - r)) * std::exp(-(round - 1.0) / m.round_settle_tau);
      const std::string phase = id.test + "/" + id.phase;
      if (m_config.oscillate_all ||
          std::find(m_config.oscillating.begin(), m_config.oscillating.end(), phase) != m_config.oscillating.end()) {
        iops *= 1.0 + m.oscillation_pct / 100.0 * (0.3 + 0.7 * (1.0 - r)) * std::sin(1.9 * round + 0.4);
      }
    }
    iops *= 1.0 + m.noise_pct / 100.0 * noise(m_config.seed, id, 1);

    SegmentResult out;
    uint64_t ios = 0;
    const uint64_t timed_ios =
        static_cast<uint64_t>(std::llround(iops * static_cast<double>(s.duration_ns + 1'000'000) / 1e9));
    if (s.bytes_limit > 0 && (s.duration_ns == 0 || s.bytes_limit / static_cast<uint64_t>(mean_bytes) < timed_ios)) {
      // A byte-limited segment (WIPC, WSAT's last sample) transfers exactly its limit.
      ios = s.bytes_limit / static_cast<uint64_t>(mean_bytes);
      out.elapsed_ns = static_cast<uint64_t>(std::llround(static_cast<double>(ios) / iops * 1e9));
      out.stop_reason = "bytes";
    } else {
      out.elapsed_ns = s.duration_ns + 1'000'000 + static_cast<uint64_t>(400'000 * (1.0 + noise(m_config.seed, id, 2)));
      ios = static_cast<uint64_t>(std::llround(iops * static_cast<double>(out.elapsed_ns) / 1e9));
      out.stop_reason = "duration";
    }
    const auto reads = static_cast<uint64_t>(std::llround(static_cast<double>(ios) * r));
    const uint64_t writes = ios - reads;
    // Little's law: mean response time = outstanding IOs / IOPS, split by service time.
    const double mean_total_ns =
        outstanding * static_cast<double>(out.elapsed_ns) / static_cast<double>(std::max<uint64_t>(ios, 1));
    const double k = mean_total_ns / svc;
    const bool capture = id.phase == "capture" || id.name == "capture";
    const Shape& shape = m_config.dense_histograms ? dense_shape() : capture ? capture_shape() : round_shape();
    stats::IoStats st;
    fill_direction(st.read, reads, bytes_for(reads, s.block_sizes), svc_r * k, shape);
    fill_direction(st.write, writes, bytes_for(writes, s.block_sizes), svc_w * k, shape);
    const stats::DirectionStats combined = st.combined();
    out.summary.read = stats::summarize(st.read, out.elapsed_ns);
    out.summary.write = stats::summarize(st.write, out.elapsed_ns);
    out.summary.combined = stats::summarize(combined, out.elapsed_ns);
    out.read_histogram = st.read.histogram;
    out.write_histogram = st.write.histogram;
    out.combined_histogram = combined.histogram;
    const double cpu_s = static_cast<double>(ios) * m.cpu_ns_per_io / 1e9;
    out.cpu_user_s = std::round(cpu_s * 0.28 * 1e4) / 1e4;
    out.cpu_system_s = std::round(cpu_s * 0.72 * 1e4) / 1e4;
    out.started_utc = utc_text(m_clock);
    m_clock += static_cast<std::time_t>((out.elapsed_ns + 999'999'999) / 1'000'000'000);
    out.finished_utc = utc_text(m_clock);
    out.seed = pts::step_seed(m_config.seed, id);

    // Sequential positions per thread (each thread owns an equal slice of the range).
    out.end_cursor_bytes.assign(s.threads, 0);
    if (seq) {
      const uint64_t slice = m_config.device.capacity_bytes / s.threads;
      const uint64_t per_thread = (st.read.bytes + st.write.bytes) / s.threads;
      uint64_t& start = m_cursors[s.sequence_key.empty() ? id.text() : s.sequence_key];
      start = (start + per_thread) % slice;
      std::fill(out.end_cursor_bytes.begin(), out.end_cursor_bytes.end(), start);
    }
    if (s.interval_ns > 0) {
      const uint64_t n = std::max<uint64_t>(1, s.duration_ns / s.interval_ns);
      uint64_t left_r = reads, left_w = writes;
      for (uint64_t i = 0; i < n; ++i) {
        const double share = (1.0 + 0.04 * noise(m_config.seed, id, 100 + i)) / static_cast<double>(n - i);
        const uint64_t ir =
            i + 1 == n ? left_r : std::min(left_r, static_cast<uint64_t>(static_cast<double>(left_r) * share));
        const uint64_t iw =
            i + 1 == n ? left_w : std::min(left_w, static_cast<uint64_t>(static_cast<double>(left_w) * share));
        left_r -= ir;
        left_w -= iw;
        out.intervals.push_back({{"end_offset_ns", (i + 1) * s.interval_ns},
                                 {"read_ios", ir},
                                 {"write_ios", iw},
                                 {"read_bytes", bytes_for(ir, s.block_sizes)},
                                 {"write_bytes", bytes_for(iw, s.block_sizes)},
                                 {"read_latency_sum_ns", static_cast<uint64_t>(static_cast<double>(ir) * svc_r * k)},
                                 {"write_latency_sum_ns", static_cast<uint64_t>(static_cast<double>(iw) * svc_w * k)}});
      }
    }
    m_written_since_purge += st.write.bytes;
    return out;
  }

  const FixtureConfig& m_config;
  std::time_t m_clock;
  size_t m_steps = 0;
  uint64_t m_written_since_purge = 0;
  std::map<std::string, uint64_t> m_cursors;
  device::ThrottleMonitor m_throttle;
};

// --- the fixtures -----------------------------------------------------------------------------

FixtureConfig fixture_config(const std::string& name) {
  FixtureConfig c;
  c.name = name;
  if (name == "steady") {
    c.tests = {"iops", "latency"};
    c.tested_by = "Fixture Labs, Inc.";
    c.seed = 7;
    c.start_epoch = 1'767'261'600;  // 2026-01-01T10:00:00Z
  } else if (name == "not-attained") {
    c.tests = {"latency", "throughput", "wsat"};
    c.tested_by = "Fixture Labs, Inc.";
    c.seed = 11;
    c.start_epoch = 1'768'471'200;  // 2026-01-15T10:00:00Z
    c.device.kernel_name = "nvme1n1";
    c.device.model = "FX-960 Fixture NVMe SSD (4Kn)";
    c.device.serial = "FX0000000960";
    c.device.firmware = "FXFW0.97";
    c.device.capacity_bytes = 96'000'000'000 / 4096 * 4096;
    c.device.logical_block_bytes = 4096;
    c.model.write_iops_max = 41e3;
    c.model.write_mb_max = 620;
    c.model.seq_write_mb_max = 1150;
    c.oscillating = {"latency/main", "throughput/128KiB"};
  } else if (name == "quick") {
    c.tests = {"throughput", "wsat", "cbw", "hir", "xsr"};
    c.presets = {"quick"};
    c.tested_by = "ptsuite CI";
    c.seed = 1;
    c.start_epoch = 1'769'162'400;
    c.device.loop = true;
    c.device.kernel_name = "loop0";
    c.device.model = "Linux loop device";
    c.device.serial = "";
    c.device.firmware = "";
    c.device.capacity_bytes = uint64_t{8} << 30;
    // A loop device over a RAM-backed file, but on a small VM (2 CPUs): CPU-bound, little
    // write penalty, no fresh-out-of-box effect. WSAT then stops at its 20 s quick limit.
    c.model.read_iops_max = 180e3;
    c.model.write_iops_max = 70e3;
    c.model.read_mb_max = 2600;
    c.model.write_mb_max = 1400;
    c.model.seq_read_mb_max = 3200;
    c.model.seq_write_mb_max = 1800;
    c.model.read_service_ns = 48e3;  // syscall, loop and page-cache path per IO
    c.model.write_service_ns = 57e3;
    c.model.read_ns_per_kib = 160;
    c.model.write_ns_per_kib = 230;
    c.model.fob_boost = 0.05;
    c.model.noise_pct = 1.8;
  } else if (name == "dirth") {
    // DIRTH (test 14) on its own: the CBW machinery over OLTP RND 8 KiB 65/35, quick form.
    c.tests = {"dirth"};
    c.presets = {"quick"};
    c.tested_by = "Fixture Labs, Inc.";
    c.seed = 14;
    c.start_epoch = 1'769'767'200;  // 2026-01-30T10:00:00Z
  } else if (name == "rww") {
    // The real-world-workload extensions (docs/rww.md) over the built-in pgbench capture, quick form.
    c.tests = {"rww-sweep", "rww-streams", "rww-replay"};
    c.presets = {"quick"};
    c.tested_by = "Fixture Labs, Inc.";
    c.seed = 27;
    c.start_epoch = 1'769'767'200;  // 2026-01-30T10:00:00Z
  } else if (name == "worst-case") {
    // Not checked in (tens of MB): the largest document a full five-test PTS-E 2.0.2 run at
    // spec defaults writes. A 3.84 TB NVMe drive whose performance never settles (every
    // steady-state phase runs to the Round cap), dense histograms in every segment, WSAT to its
    // 6 h time limit (4X of 3.84 TB at the model's ~377 MB/s would take ~11 h).
    c.tests = {"iops", "throughput", "latency", "wsat", "cbw"};
    c.tested_by = "Fixture Labs, Inc.";
    c.seed = 99;
    c.start_epoch = 1'770'976'800;  // 2026-02-13T10:00:00Z
    c.device.capacity_bytes = 3'840'755'982'336;
    c.model.oscillation_pct = 30;
    c.oscillate_all = true;
    c.dense_histograms = true;
  } else {
    throw std::invalid_argument("unknown results fixture \"" + name + "\"");
  }
  return c;
}

device::DeviceIdentity identity_of(const DeviceFacts& d) {
  device::DeviceIdentity id;
  id.kernel_name = d.kernel_name;
  id.path = "/dev/" + d.kernel_name;
  id.canonical_path = id.path;
  id.capacity_bytes = d.capacity_bytes;
  id.logical_block_bytes = d.logical_block_bytes;
  id.rotational = false;
  if (d.loop) {
    id.transport = device::Transport::loop;
    id.source = "sysfs";
    id.model = d.model;
    id.physical_block_bytes = d.logical_block_bytes;
    id.backing_file = "/dev/shm/ptsuite-scratch-4242-FiXtUr (deleted)";
    id.direct_io = true;
    id.backing_offset_bytes = 0;
    id.purge.discard = true;
    id.queue.scheduler = "none";
    id.queue.write_cache = "write back";
    id.notes = {"loop device: no device write cache or purge; the backing file's filesystem decides"};
    return id;
  }
  id.device_path = "/dev/" + d.kernel_name.substr(0, d.kernel_name.find('n', 4));
  id.transport = device::Transport::nvme;
  id.source = "nvme-identify";
  id.vendor = "Fixture Storage";
  id.model = d.model;
  id.serial = d.serial;
  id.firmware = d.firmware;
  id.identifier = "eui.00a0b1c2d3e4f5" + d.serial.substr(d.serial.size() - 2);
  id.physical_block_bytes = 4096;
  id.nvme_nsid = 1;
  id.lba_formats = {{0, 512, 0, 2}, {1, 4096, 0, 0}};
  id.lba_format_in_use = d.logical_block_bytes == 4096 ? id.lba_formats[1] : id.lba_formats[0];
  id.warning_temperature_kelvin = 343;
  id.critical_temperature_kelvin = 353;
  id.write_cache_present = true;
  id.write_cache_enabled = true;
  id.purge.nvme_format = true;
  id.purge.nvme_format_crypto = true;
  id.purge.discard = true;
  id.queue.scheduler = "none";
  id.queue.nr_requests = 1023;
  id.queue.max_sectors_kb = 128;
  id.queue.max_hw_sectors_kb = 128;
  id.queue.discard_max_bytes = 2199023255040;
  id.queue.rotational = false;
  id.queue.write_cache = "write back";
  id.pci_address = "0000:3b:00.0";
  return id;
}

device::PlatformInfo platform_of(const DeviceFacts& d) {
  device::PlatformInfo p;
  p.cpu_model = d.loop ? "Intel(R) Xeon(R) Processor" : "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz";
  p.cpu_count = d.loop ? 2 : 64;
  p.memory_bytes = d.loop ? 8'323'346'432 : 270'215'806'976;
  p.kernel_release = "6.1.0-28-amd64";
  p.kernel_version = "#1 SMP PREEMPT_DYNAMIC Debian 6.1.119-1 (2024-11-22)";
  p.machine = "x86_64";
  p.distribution = "Debian GNU/Linux 12 (bookworm)";
  p.ptsuite_version = std::string(version());
  p.ptsuite_git_revision = "fixture";
  p.device = d.kernel_name;
  p.io_scheduler = "none";
  if (!d.loop) {
    p.pcie = device::PcieLink{"0000:3b:00.0", "16.0 GT/s PCIe", "16.0 GT/s PCIe", 4, 4};
    p.numa_node = 0;
  }
  return p;
}

json write_cache_of(const DeviceFacts& d, bool required_enabled) {
  device::WriteCacheRecord r;
  r.requested_enabled = required_enabled;
  if (d.loop) {
    const device::WriteCacheState na{
        false, std::nullopt, "none",
        "not applicable: loop device (the backing file's page cache is not a device cache)"};
    r.original = na;
    r.applied = na;
    r.messages = {na.note};
    return r;
  }
  r.original = {true, true, "nvme-feature-06h", ""};
  r.applied = {true, required_enabled, "nvme-feature-06h", ""};
  r.restored = device::WriteCacheState{true, true, "nvme-feature-06h", ""};
  r.messages = {fmt::format("volatile write cache {} (was enabled); read back: {}",
                            required_enabled ? "kept enabled" : "disabled", required_enabled ? "enabled" : "disabled"),
                "volatile write cache restored to enabled"};
  return r;
}

json make_document(const FixtureConfig& c) {
  const pts::DefinitionSet& defs = pts::DefinitionSet::embedded();
  pts::RunConfig config;
  config.tests = c.tests;
  config.presets = c.presets;
  config.seed = c.seed;
  config.tested_by = c.tested_by;
  config.report_formats = {"html", "csv", "text"};
  config.out_dir = "/srv/ptsuite/runs/" + c.name;
  config.command_line = {"ptsuite", "run", fmt::format("{}", fmt::join(c.tests, ","))};
  if (c.device.loop) {
    config.scratch_size_bytes = c.device.capacity_bytes;
    config.command_line.insert(config.command_line.end(), {"--scratch-size", "8GiB"});
  } else {
    config.target = "/dev/" + c.device.kernel_name;
    config.allow_destructive = true;
    config.confirm_serial = c.device.serial;
    config.command_line.insert(config.command_line.end(),
                               {"--target", config.target, "--allow-destructive", "--confirm-serial", c.device.serial});
  }
  for (const std::string& p : c.presets) {
    config.command_line.push_back("--" + p);
  }
  config.command_line.insert(config.command_line.end(), {"--out", config.out_dir, "--tested-by", c.tested_by});

  const pts::SpecContext spec{config.revision, config.profile};
  const pts::Settings settings = pts::Settings::build(defs, spec, config.presets, config.overrides);
  const pts::TargetFacts facts{c.device.capacity_bytes, c.device.logical_block_bytes};
  const pts::Plan best = pts::make_plan(config.tests, defs, spec, settings, facts, pts::PlanCase::best, {});
  const pts::Plan worst = pts::make_plan(config.tests, defs, spec, settings, facts, pts::PlanCase::worst, {});
  const std::string fingerprint =
      pts::detail::plan_fingerprint(config, settings, worst, c.device.capacity_bytes, c.device.logical_block_bytes);

  FixtureExecutor exec(c);
  json doc = pts::detail::results_skeleton(config, defs, spec, settings);
  // The build's git revision would make the fixtures stale at every commit.
  doc["tool"]["git_revision"] = "fixture";
  doc["run"] = {{"started_utc", utc_text(exec.now())}, {"resumes", json::array()}, {"plan_fingerprint", fingerprint}};
  doc["target"] = {
      {"path", "/dev/" + c.device.kernel_name},
      {"kind", "block_device"},
      {"scratch",
       c.device.loop ? json("loop device /dev/loop0 (8.00 GiB in /dev/shm, direct IO, 512-byte blocks)") : json()},
      {"capacity_bytes", c.device.capacity_bytes},
      {"logical_block_bytes", c.device.logical_block_bytes},
      {"physical_block_bytes", c.device.loop ? c.device.logical_block_bytes : 4096u}};
  doc["device"] = identity_of(c.device);
  doc["platform"] = platform_of(c.device);
  doc["plan"] = {{"best_case_ns", best.total_ns}, {"worst_case_ns", worst.total_ns}};
  exec.advance(5);

  // As pts/run.cpp's execute(): each test's record, its write-cache record, status, times and
  // compliance verdict; then the run's status, journal counts, health and verdict.
  std::vector<std::pair<std::string, pts::ComplianceVerdict>> verdicts;
  for (const std::string& id : config.tests) {
    const std::unique_ptr<pts::PtsTest> test = pts::make_test(id);
    const bool wc_enabled = defs.profile(spec.profile).at("write_cache").at("value") == "enabled";
    const std::string started = utc_text(exec.now());
    pts::TestContext ctx{defs, spec, settings, exec, facts};
    // The typed record, judged and written as pts/run.cpp does (so the checked-in fixtures pin
    // the record writer and the verdict on the typed record byte for byte).
    results::TestRecord record = test->run(ctx);
    record.header.write_cache = results::read_write_cache_record(write_cache_of(c.device, wc_enabled));
    record.header.status = "complete";
    record.header.started_utc = started;
    record.header.finished_utc = utc_text(exec.now());
    const pts::ComplianceVerdict verdict = pts::evaluate_test_compliance(record, {defs, settings, config.engine});
    record.compliance = pts::record_of(verdict);
    record.has_compliance = true;
    verdicts.emplace_back(test->id(), verdict);
    doc["tests"].push_back(json(std::move(record)));
    exec.advance(2);
  }
  doc["run"]["status"] = "complete";
  doc["run"]["finished_utc"] = utc_text(exec.now());
  doc["run"]["journal"] = {
      {"steps", exec.steps()}, {"replayed_this_session", 0}, {"executed_this_session", exec.steps()}};
  doc["health"] = {{"throttle", exec.throttle()}};
  doc["compliance"] = pts::evaluate_run_compliance(verdicts, "complete");
  return doc;
}

}  // namespace

std::vector<std::string> results_fixture_names() { return {"steady", "not-attained", "quick", "dirth", "rww"}; }

json generate_results_fixture(const std::string& name) { return make_document(fixture_config(name)); }

std::string serialize_results_fixture(const json& document) { return document.dump() + "\n"; }

std::string results_fixture_path(const std::string& name) {
  return std::string(PTSUITE_TEST_DATA_DIR) + "/results/" + name + ".json";
}

const json& load_results_fixture(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, json> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(name);
  if (it == cache.end()) {
    std::ifstream in(results_fixture_path(name), std::ios::binary);
    if (!in) {
      throw std::runtime_error("cannot read results fixture " + results_fixture_path(name));
    }
    std::stringstream text;
    text << in.rdbuf();
    it = cache.emplace(name, json::parse(text.str())).first;
  }
  return it->second;
}

const json& test_of(const json& doc, const std::string& id) {
  for (const json& t : doc.at("tests")) {
    if (t.at("id") == id) {
      return t;
    }
  }
  throw std::runtime_error("no test " + id);
}

}  // namespace ptsuite::test_support
