#include "pts/run_sim.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

#include <ptsuite/device/health.hpp>
#include <ptsuite/device/platform.hpp>
#include <ptsuite/device/write_cache_record.hpp>
#include <ptsuite/pts/sim_model.hpp>
#include <ptsuite/pts/step_check.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/embedded.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/sha256.hpp>
#include <ptsuite/util/units.hpp>

#include "pts/run_drive.hpp"

namespace ptsuite::pts::detail {

using nlohmann::json;

namespace {

constexpr const char* k_no_model = "none";

json model_file(const std::string& name) {
  const std::optional<std::string_view> text = embedded_file("sim/" + name + ".json");
  if (!text) {
    throw UsageError("--set sim.model", fmt::format("there is no simulated drive \"{}\"; the models are: {}", name,
                                                    fmt::join(sim_model_names(), ", ")));
  }
  return json::parse(*text);
}

}  // namespace

void check_sim_config(const RunConfig& config, const Settings& settings) {
  const std::string model = settings.text("sim.model");
  if (!is_sim_engine(config.engine)) {
    if (model != k_no_model) {
      throw UsageError("--set sim.model",
                       fmt::format("a simulated drive runs only with --engine sim (this run uses --engine {}); add "
                                   "--engine sim, or drop --set sim.model",
                                   config.engine));
    }
    return;
  }
  if (!config.target.empty()) {
    throw UsageError("--target",
                     "--engine sim runs on a simulated drive and opens no device: drop --target (and name the model "
                     "with --set sim.model=NAME), or drop --engine sim to test the target");
  }
  if (model == k_no_model) {
    throw UsageError("--set sim.model", fmt::format("--engine sim needs a simulated drive: add --set sim.model=NAME, "
                                                    "NAME one of: {}",
                                                    fmt::join(sim_model_names(), ", ")));
  }
  (void)model_file(model);
}

SimDrive sim_drive(const Settings& settings, uint64_t seed) {
  SimDrive d;
  d.name = settings.text("sim.model");
  const json file = model_file(d.name);
  d.title = file.value("title", d.name);
  d.sha256 = sha256_hex(*embedded_file("sim/" + d.name + ".json"));
  const uint64_t scale = settings.count("sim.scale");
  const json recommended = file.value("recommended_scale", json::object());
  d.scale = scale != 0 ? static_cast<double>(scale) : recommended.value("value", 1.0);
  d.model = engine::dilated(load_sim_model(d.name), std::max(d.scale, 1.0));
  if (const uint64_t capacity = settings.size_bytes("sim.capacity"); capacity != 0) {
    const engine::SimModel& m = d.model;
    const uint64_t stripe_bytes = uint64_t{m.unit_bytes} * m.block_units * m.channels * m.dies_per_channel;
    d.model.capacity_bytes = std::max<uint64_t>(capacity / stripe_bytes, 4) * stripe_bytes;
  }
  d.seed = seed;
  return d;
}

device::DeviceIdentity sim_identity(const SimDrive& drive) {
  device::DeviceIdentity id;
  id.path = "sim:" + drive.name;
  id.canonical_path = id.path;
  id.transport = device::Transport::other;
  id.source = "simulated";
  id.vendor = "ptsuite";
  id.model = "SIMULATED " + drive.name;
  id.serial = fmt::format("SIM-{}-{}", drive.name, drive.seed);
  id.firmware = "sim-" + drive.sha256.substr(0, 8);
  id.medium = fmt::format("simulated {} scale {:g} sha256 {}", drive.name, drive.scale, drive.sha256);
  id.capacity_bytes = drive.model.capacity_bytes;
  id.logical_block_bytes = 512;
  id.physical_block_bytes = drive.model.unit_bytes;
  id.rotational = false;
  id.notes.push_back("SIMULATED drive (docs/sim.md): " + drive.title + "; not a real device");
  return id;
}

results::TargetRecord sim_target_record(const SimDrive& drive, const engine::TargetGeometry& g) {
  return {"sim:" + drive.name,
          "simulated",
          fmt::format("SIMULATED {} (pts/sim/{}.json, scale {:g})", drive.name, drive.name, drive.scale),
          g.capacity_bytes,
          g.logical_block_bytes,
          g.physical_block_bytes};
}

// The plan of a simulated drive, derived from its (dilated) model; every figure is virtual time
// (docs/sim.md, "The ETA of a simulated run"):
//  * byte-limited steps (WIPC) write at the rate the drive sustains once full: its FOB rate,
//    min(interface, dies x unit / program time), over the write amplification of greedy GC under
//    uniform random writes, WA = (1 + OP) / (2 OP) (a victim block holds 1 - 1/WA valid units);
//    the FOB rate is a lower bound on time that a WIPC after a purge beats only in its first pass;
//    sequential byte-limited steps (WIPC) write at the FOB rate itself: a sequential stream
//    invalidates whole blocks, so GC relocates nothing and WA is 1 however full the drive
//    (measured once, 2026-12-04, PTS-E 1.1 on tlc-nvme x1000 with the drain on the run's clock:
//    timed at the saturated rate, the WIPCs counted ~183,000 s too many and the best plan was
//    1.19x the virtual time taken; at the FOB rate it is 0.79x, the worst 1.42x:
//    SimFullSuite.PlanBoundsAndEtaAgainstVirtualTime prints both plans);
//  * every segment's IOs in flight when its time is up wait behind at most one GC episode on
//    their die. That drain is part of the segment's own time (overhead_in_elapsed), so a
//    time-limited loop (WSAT, endurance-write) holds fewer samples than its limit / their length.
//    The run's clock counts it at the modelled drive's speed: the dilated model's episode / k
//    (SimModel::dilation; workload/sim_runner.hpp), below.
//    Unpaced GC (gc_units_per_step 0): an episode is a whole block relocated and erased,
//      drain = block_units x (read + program) + erase;
//    paced GC (gc_units_per_step g > 0, engine/sim_device.hpp): a host unit on a die whose GC is
//    due waits for at most g relocations (then is programmed), and the step that empties the
//    victim also erases it, so
//      drain = g x (read + program) + erase
//    (dc500r x240: 4 x 285 us x 240 + 0.72 s = 0.99 s of the dilated model, 4.1 ms on the run's
//    clock, where a block is 256 x 285 us x 240 + 0.72 s = 18.2 s). A victim not yet empty when
//    the open block fills is finished at once (as unpaced); a g of at least WA - 1 keeps that from
//    happening (0 in every paced run measured); the measured drains replace this figure as the
//    run goes (eta.hpp);
//  * purges, health snapshots and the results document take no virtual time.
// The ETA replaces the write rate and the drain with what the run's steps took (eta.hpp).
PlanAssumptions sim_plan_assumptions(const SimDrive& drive) {
  const engine::SimModel& m = drive.model;
  const double dies = static_cast<double>(m.channels) * m.dies_per_channel;
  const double flash_mb_per_s = dies * m.unit_bytes / static_cast<double>(m.program_ns) * 1e3;
  const double op = m.over_provisioning;
  const double write_amplification = (1 + op) / (2 * op);
  PlanAssumptions a;
  a.write_mb_per_s = std::min(m.interface_mb_per_s, flash_mb_per_s) / write_amplification;
  a.sequential_write_mb_per_s = std::min(m.interface_mb_per_s, flash_mb_per_s);
  const uint32_t gc_units = m.gc_units_per_step != 0 ? std::min(m.gc_units_per_step, m.block_units) : m.block_units;
  const uint64_t episode_ns = uint64_t{gc_units} * (m.read_ns + m.program_ns) + m.erase_ns;  // dilated
  a.step_overhead_ns = static_cast<uint64_t>(std::llround(static_cast<double>(episode_ns) / m.dilation));
  a.overhead_in_elapsed = true;
  a.show_likely = true;
  a.purge_ns = 0;
  a.health_ns = 0;
  a.document_ns_per_byte = 0;
  a.write_basis = fmt::format(
      "SIMULATED {}: writes at {:.1f} MB/s of virtual time, the model's {:.1f} MB/s over greedy GC's write "
      "amplification {:.2f} (OP {:.0f} %); sequential writes at the {:.1f} MB/s itself (whole blocks: no GC)",
      drive.name, a.write_mb_per_s, a.sequential_write_mb_per_s, write_amplification, op * 100,
      a.sequential_write_mb_per_s);
  a.purge_basis = "a simulated purge takes no virtual time";
  a.overhead_basis = fmt::format(
      "SIMULATED {}: every segment drains behind one GC {}, {} of virtual time (({} units x (read + program) + "
      "erase) / the time dilation {:g})",
      drive.name, m.gc_units_per_step != 0 ? "step (paced)" : "of a block", units::format_duration(a.step_overhead_ns),
      gc_units, m.dilation);
  return a;
}

results::SimulationRecord sim_record(const SimDrive& drive, uint64_t capacity_bytes) {
  results::SimulationRecord r;
  r.model = drive.name;
  r.model_title = drive.title;
  r.model_sha256 = drive.sha256;
  r.seed = drive.seed;
  r.scale = drive.scale;
  r.capacity_bytes = capacity_bytes;
  return r;
}

int64_t unix_seconds_of(const std::string& utc) {
  std::tm tm{};
  int year = 0, month = 0;
  if (std::sscanf(utc.c_str(), "%d-%d-%dT%d:%d:%d", &year, &month, &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) !=
      6) {
    return 0;
  }
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  return static_cast<int64_t>(timegm(&tm));
}

namespace {

// --engine sim: the simulated drive in place of a target and a session; its executor's virtual
// clock is the time of everything the run records. Virtual time 0 is the run's start, on resume
// too, so the stamps run on across sessions.
class SimRunDrive final : public RunDrive {
 public:
  explicit SimRunDrive(const DriveContext& ctx);

  [[nodiscard]] engine::TargetGeometry geometry() const override { return m_exec->geometry(); }
  [[nodiscard]] const device::DeviceIdentity& identity() const override { return m_identity; }
  [[nodiscard]] std::string now_utc() const override { return m_exec->virtual_utc(); }
  [[nodiscard]] std::optional<uint64_t> run_clock_ns() const override { return m_exec->clock().now_ns; }
  [[nodiscard]] std::string log_note() const override;
  [[nodiscard]] std::string outcome_prefix() const override { return "SIMULATED "; }
  // In the drive's virtual time: nothing to probe.
  PlanAssumptions plan_assumptions(const DeviceRunParams& shape) override;
  // No host preflight: no device is opened and no IO buffer allocated.
  std::optional<results::PreflightSession> preflight(const std::string& /*session*/, const Plan& /*worst*/) override {
    return std::nullopt;
  }
  void record(results::RunDraft& draft) override;
  void update(results::RunDraft& draft) const override;
  StepExecutor& executor(DeviceRunParams /*shape*/, RunLog& observer) override;
  void apply_write_cache(bool want_enabled, RunLog& observer) override;
  [[nodiscard]] results::WriteCacheRecord test_write_cache() const override { return device::record_of(m_cache); }
  void restore_write_cache(results::RunDraft& draft, RunLog& observer) override;
  void finish(results::RunDraft& draft, RunLog& observer) override;

 private:
  DriveContext m_ctx;
  SimDrive m_drive;
  std::unique_ptr<SimExecutor> m_exec;
  device::DeviceIdentity m_identity;
  device::WriteCacheRecord m_cache;
  RunObserver* m_observer = nullptr;       // where the steps' progress goes (executor())
  double m_wall_before_s = 0;              // wall seconds of the run's earlier sessions
  uint64_t m_started_ns = monotonic_ns();  // this session's start
};

SimRunDrive::SimRunDrive(const DriveContext& ctx) : m_ctx(ctx), m_drive(sim_drive(ctx.settings, ctx.config.seed)) {
  SimRunParams params;
  params.active_range_pct = ctx.settings.number("active_range_pct");
  params.ar_amount_bytes = ctx.settings.size_bytes("active_range.amount");
  params.ar_segments = static_cast<uint32_t>(ctx.settings.count("active_range.segments"));
  params.align_to_logical_block = ctx.settings.text("alignment") == "logical";
  params.seed = ctx.config.seed;
  params.epoch_unix_s = unix_seconds_of(ctx.started_utc);
  params.stop = ctx.stop;
  params.on_progress = [this](const StepProgress& p) {
    if (m_observer != nullptr) m_observer->step_progress(p);
  };
  m_exec = std::make_unique<SimExecutor>(m_drive.model, std::move(params));
  m_identity = sim_identity(m_drive);
  m_identity.capacity_bytes = m_exec->geometry().capacity_bytes;
}

std::string SimRunDrive::log_note() const {
  const std::string note = fmt::format(
      "SIMULATED drive: {} (pts/sim/{}.json, scale {:g}, {} simulated); nothing this run measures is "
      "a real drive's result; every step's time is the drive's virtual time",
      m_drive.title, m_drive.name, m_drive.scale, units::format_size_binary(geometry().capacity_bytes));
  return m_ctx.resuming ? note + "; the journaled steps are re-executed on it to rebuild its state" : note;
}

PlanAssumptions SimRunDrive::plan_assumptions(const DeviceRunParams& shape) {
  const PlanAssumptions assumed = sim_plan_assumptions(m_drive);
  DeviceRunParams checked = shape;
  checked.engine = "null";  // resolve()'s engine look-up; the steps run on the model
  (void)checked_worst_plan(m_ctx.config.tests, DefinitionSet::embedded(), m_ctx.spec, m_ctx.settings, geometry(),
                           checked, assumed);
  return assumed;
}

void SimRunDrive::record(results::RunDraft& draft) {
  draft.target = sim_target_record(m_drive, geometry());
  draft.device = m_identity;
  draft.platform = device::capture_platform();  // the host that simulated the drive
  if (!draft.simulation) draft.simulation = sim_record(m_drive, geometry().capacity_bytes);
  m_wall_before_s = draft.simulation->wall_s;
}

// The simulation record brought up to now (IOs, virtual and wall seconds).
void SimRunDrive::update(results::RunDraft& draft) const {
  results::SimulationRecord& r = *draft.simulation;
  r.simulated_ios = m_exec->simulated_ios();
  r.replayed_ios = m_exec->replayed_ios();
  r.virtual_s = static_cast<double>(m_exec->clock().now_ns) / 1e9;
  r.wall_s = m_wall_before_s + static_cast<double>(monotonic_ns() - m_started_ns) / 1e9;
}

StepExecutor& SimRunDrive::executor(DeviceRunParams /*shape*/, RunLog& observer) {
  m_observer = &observer;
  observer.use_clock([this] { return m_exec->clock().now_ns; });
  return *m_exec;
}

// The model's write buffer is its write cache (docs/sim.md "Write cache"). Every session starts
// from the model as made (cache enabled) and replays the journaled steps after this, so nothing
// of an earlier session's setting needs keeping.
void SimRunDrive::apply_write_cache(bool want_enabled, RunLog& observer) {
  m_cache = {};
  m_cache.requested_enabled = want_enabled;
  m_cache.original = m_exec->write_cache_state();
  m_exec->set_write_cache(want_enabled);
  m_cache.applied = m_exec->write_cache_state();
  m_cache.messages.push_back(fmt::format("SIMULATED drive: write cache {} (was {}); {}",
                                         want_enabled ? "enabled" : "disabled",
                                         *m_cache.original.enabled ? "enabled" : "disabled", m_cache.applied.note));
  for (const std::string& m : m_cache.messages) observer.message("write cache: " + m);
}

void SimRunDrive::restore_write_cache(results::RunDraft& draft, RunLog& observer) {
  if (m_cache.messages.empty()) return;  // never applied: the run stopped before
  m_exec->set_write_cache(*m_cache.original.enabled);
  m_cache.restored = m_exec->write_cache_state();
  m_cache.messages.push_back(
      fmt::format("SIMULATED drive: write cache restored to {}", *m_cache.original.enabled ? "enabled" : "disabled"));
  draft.write_cache = device::record_of(m_cache);
  observer.message(m_cache.messages.back());
}

void SimRunDrive::finish(results::RunDraft& draft, RunLog& observer) {
  draft.throttle = json(device::ThrottleMonitor{});  // no temperature: an empty throttle summary
  update(draft);
  const results::SimulationRecord& r = *draft.simulation;
  observer.message(
      fmt::format("SIMULATED run ({}): {} of virtual time in {:.1f} s of wall time; {} IOs simulated, "
                  "{} of them re-executed on resume to rebuild the drive",
                  results::simulation_banner(r), units::format_duration(static_cast<uint64_t>(r.virtual_s * 1e9)),
                  r.wall_s, r.simulated_ios, r.replayed_ios));
}

}  // namespace

std::unique_ptr<RunDrive> open_sim_drive(const DriveContext& ctx) { return std::make_unique<SimRunDrive>(ctx); }

}  // namespace ptsuite::pts::detail
