#include "pts/run_drive.hpp"

#include <fmt/format.h>
#include <filesystem>

#include <ptsuite/device/health.hpp>
#include <ptsuite/device/platform.hpp>
#include <ptsuite/device/purge.hpp>
#include <ptsuite/device/safety.hpp>
#include <ptsuite/device/session.hpp>
#include <ptsuite/device/target_gate.hpp>
#include <ptsuite/device/write_cache_record.hpp>
#include <ptsuite/engine/engine_registry.hpp>
#include <ptsuite/engine/scratch_target.hpp>
#include <ptsuite/pts/plan_probe.hpp>
#include <ptsuite/pts/step_check.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>

#include "pts/run_identity.hpp"
#include "pts/run_sim.hpp"
#include "pts/run_support.hpp"

namespace ptsuite::pts::detail {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// The device state the run found before changing it (today: the write cache), written once
// when the run starts, so a resume after kill -9 restores what the drive had before the run,
// not what the killed run left behind.
constexpr const char* k_device_state_file = "journal/device.json";

// A target (a block device, a file, or the run's own scratch target) on the wall clock.
class RealDrive final : public RunDrive {
 public:
  RealDrive(const DriveContext& ctx, device::OutputGate& outputs);

  [[nodiscard]] engine::TargetGeometry geometry() const override { return m_target->geometry(); }
  [[nodiscard]] const device::DeviceIdentity& identity() const override { return m_identity; }
  [[nodiscard]] std::string now_utc() const override { return utc_now_iso8601(); }
  [[nodiscard]] std::string log_note() const override { return ""; }
  [[nodiscard]] std::string outcome_prefix() const override { return ""; }
  PlanAssumptions plan_assumptions(const DeviceRunParams& shape) override;
  std::optional<results::PreflightSession> preflight(const std::string& session, const Plan& worst) override {
    return run_preflight(session, m_target->path(), m_identity, worst, m_ctx.config);
  }
  void record(results::RunDraft& draft) override;
  void update(results::RunDraft& /*draft*/) const override {}
  StepExecutor& executor(DeviceRunParams shape, RunLog& observer) override;
  void apply_write_cache(bool want_enabled, RunLog& observer) override;
  [[nodiscard]] results::WriteCacheRecord test_write_cache() const override {
    return device::record_of(*m_session->write_cache_record());
  }
  void restore_write_cache(results::RunDraft& draft, RunLog& observer) override;
  void finish(results::RunDraft& draft, RunLog& /*observer*/) override {
    draft.throttle = m_exec ? json(m_exec->throttle()) : json(device::ThrottleMonitor{});
  }

 private:
  // The run-wide step parameters with what this target adds: our own scratch target needs no
  // consent flag, and a purge confirms the serial the target was named by.
  [[nodiscard]] DeviceRunParams shaped(DeviceRunParams shape) const {
    shape.allow_destructive = shape.allow_destructive || m_scratch.has_value();
    shape.confirm_serial = m_confirm_serial;
    return shape;
  }

  DriveContext m_ctx;
  std::optional<engine::ScratchTarget> m_scratch;
  // ptsuite's advisory lock on the target (device/target_gate.hpp), released after the
  // session and the target are closed.
  device::TargetGuard m_guard;
  std::optional<engine::Target> m_target;
  // The run's one exclusive claim (purge, write cache, health); destroyed before the scratch
  // target it may sit on.
  std::unique_ptr<device::DeviceSession> m_session;
  device::DeviceIdentity m_identity;
  // The serial a purge of a real drive must confirm: --confirm-serial, or the one --target
  // serial:SERIAL named the drive by.
  std::optional<std::string> m_confirm_serial;
  std::optional<DeviceExecutor> m_exec;  // refers to the target and the session
};

RealDrive::RealDrive(const DriveContext& ctx, device::OutputGate& outputs) : m_ctx(ctx) {
  const RunConfig& config = ctx.config;
  const bool scratch = config.target.empty();
  if (scratch) {
    m_scratch.emplace(engine::ScratchTarget::create(config.scratch_size_bytes, /*prefer_loop=*/true));
  }
  // "serial:SERIAL" is looked up again at every start and resume (a drive's /dev name may change).
  const device::ResolvedTarget named =
      scratch ? device::ResolvedTarget{m_scratch->path(), "", false, false} : device::resolve_target(config.target);
  const std::string& path = named.path;
  outputs.add_target(path, "--target");
  // Our own scratch target needs no consent flag; anything else goes through the gate with it.
  // The session claims the device exclusively; the workload's own opens are plain opens.
  device::SessionOptions session_options;
  session_options.allow_destructive = config.allow_destructive || scratch;
  m_guard = device::pass_target_gate({path, device::TargetAccess::read_write, session_options.allow_destructive,
                                      config.claims.is_null() ? "run" : "validate"});
  m_session = device::DeviceSession::open(m_guard.writable(), session_options);
  m_target.emplace(engine::Target::open(m_guard.writable()));
  m_identity = m_session->identity();
  m_confirm_serial = check_named_identity(named, m_identity, config);
}

// The step overheads (and a scratch target's write rates) are measured on the target
// (pts/plan_probe.hpp), so the worst case bounds this host.
PlanAssumptions RealDrive::plan_assumptions(const DeviceRunParams& shape) {
  const PlanAssumptions fitted = plan_assumptions_for(m_identity, m_ctx.settings.text("purge.method"));
  const Plan checked = checked_worst_plan(m_ctx.config.tests, DefinitionSet::embedded(), m_ctx.spec, m_ctx.settings,
                                          m_target->geometry(), shaped(shape), fitted);
  const ProbeOptions probe{m_scratch.has_value(), m_ctx.config.engine, [this] { (void)m_session->health(); }};
  return probe_assumptions(*m_target, checked, fitted, probe);
}

void RealDrive::record(results::RunDraft& draft) {
  const engine::TargetGeometry& g = m_target->geometry();
  draft.target =
      results::TargetRecord{m_target->path(),
                            m_target->kind() == engine::TargetKind::block_device ? "block_device" : "regular_file",
                            m_scratch ? m_scratch->description() : "",
                            g.capacity_bytes,
                            g.logical_block_bytes,
                            g.physical_block_bytes};
  draft.device = m_identity;
  draft.platform = device::capture_platform(m_target->path());
}

StepExecutor& RealDrive::executor(DeviceRunParams shape, RunLog& observer) {
  DeviceRunParams params = shaped(std::move(shape));
  params.target = &*m_target;
  params.session = m_session.get();
  params.stop = m_ctx.stop;
  params.on_progress = [&observer](const StepProgress& p) { observer.step_progress(p); };
  // A purge's messages are progress, except the temporary ATA password (shown even with
  // --quiet: it must be on screen before it is set, in case the run is killed mid-erase).
  params.on_message = [&observer](const std::string& m) {
    if (m.find(device::k_ata_temporary_password) != std::string::npos) {
      observer.warning(m);
    } else {
      observer.message(m);
    }
  };
  return m_exec.emplace(std::move(params));
}

// Applied on the run's one claim (and again after every purge, by the executor). The state
// found before the run changed anything is kept in journal/device.json, so a resume after
// kill -9 restores that.
void RealDrive::apply_write_cache(bool want_enabled, RunLog& observer) {
  const fs::path state_file = m_ctx.out.path() / k_device_state_file;
  std::optional<bool> known_original;
  if (fs::exists(state_file)) {
    const json saved = json::parse(read_file(state_file));
    if (saved.value("write_cache_original", json()).is_boolean()) {
      known_original = saved.at("write_cache_original").get<bool>();
    }
  } else {
    // Written before anything is changed: a kill at any later moment still finds it.
    known_original = m_session->read_write_cache_state().enabled;
    write_file_atomic(m_ctx.out.file(k_device_state_file),
                      json{{"write_cache_original", known_original ? json(*known_original) : json(nullptr)}}.dump());
  }
  const device::WriteCacheRecord& rec = m_session->apply_write_cache(want_enabled, known_original);
  for (const std::string& m : rec.messages) observer.message("write cache: " + m);
}

// The session's destructor covers the exit paths that do not reach here.
void RealDrive::restore_write_cache(results::RunDraft& draft, RunLog& observer) {
  try {
    m_session->restore_write_cache();
  } catch (const Error& e) {
    observer.warning(fmt::format("restoring the write cache failed: {}", e.what()));
  }
  if (const auto rec = m_session->write_cache_record()) {
    draft.write_cache = device::record_of(*rec);
    if (rec->restored) observer.message(rec->messages.back());
  }
}

}  // namespace

void check_drive_config(const RunConfig& config, const Settings& settings) {
  if (!is_sim_engine(config.engine)) {
    (void)engine::create_engine(config.engine);  // an unknown engine is bad input (exit 2), before any IO
  }
  check_sim_config(config, settings);
}

std::unique_ptr<RunDrive> open_real_drive(const DriveContext& ctx, device::OutputGate& outputs) {
  if (ctx.resuming && ctx.config.target.empty()) {
    throw SafetyRefusal(
        fmt::format("the run in {} used a scratch target, which was removed when ptsuite exited; "
                    "it cannot be resumed",
                    ctx.out.path().string()));
  }
  return std::make_unique<RealDrive>(ctx, outputs);
}

std::unique_ptr<RunDrive> open_drive(const DriveContext& ctx, device::OutputGate& outputs) {
  return is_sim_engine(ctx.config.engine) ? open_sim_drive(ctx) : open_real_drive(ctx, outputs);
}

}  // namespace ptsuite::pts::detail
