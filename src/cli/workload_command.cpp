// `ptsuite workload`: run one workload on a target and report it (docs/workload.md).
#include "cli/workload_command.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <cctype>
#include <charconv>
#include <csignal>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>

#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/device/target_gate.hpp>
#include <ptsuite/engine/target.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/output_file.hpp>
#include <ptsuite/util/units.hpp>
#include <ptsuite/workload/spec_parse.hpp>
#include <ptsuite/workload/workload_json.hpp>
#include <ptsuite/workload/workload_runner.hpp>

#include "cli/commands.hpp"
#include "cli/console.hpp"
#include "cli/flags.hpp"
#include "cli/path_roles.hpp"
#include "cli/signals.hpp"
#include "cli/target_option.hpp"

namespace ptsuite::cli {

namespace {

constexpr uint64_t k_progress_interval_ns = 500'000'000;

// The options exactly as typed; parsed by build_spec() so every error names its option.
struct WorkloadArgs {
  std::string target;
  std::string pattern = "random";
  std::string read_pct = "100";
  std::string block_size;
  std::string bs_split;
  std::string threads = "1";
  std::string queue_depth = "1";
  std::string submit_batch = std::to_string(workload::k_default_submit_batch);
  std::string duration;
  std::string seed;
  std::string json;  // --json-out FILE (and the old `--json FILE`)
  bool json_stdout = false;
  std::string range;
  std::string amount;
  std::string segments;
  std::string zones;
  std::string bytes;
  std::string ios;
  std::string rate_iops;
  std::string rate_mbps;
  std::string engine = "libaio";
  std::string cpus;
  std::string interval;
  std::string data = "random";
  bool allow_destructive = false;
  bool quiet = false;
};

uint32_t parse_u32(const std::string& text, const char* option) {
  const uint64_t value = units::parse_count(text, option);
  if (value > std::numeric_limits<uint32_t>::max()) {
    throw UsageError(option, fmt::format("{} is too large", text));
  }
  return static_cast<uint32_t>(value);
}

// IOPS as a plain decimal ("2500", "0.5") or a count with a suffix ("5k").
double parse_rate_iops(const std::string& text) {
  if (!text.empty() && std::isalpha(static_cast<unsigned char>(text.back())) != 0) {
    return static_cast<double>(units::parse_count(text, "--rate-iops"));
  }
  return workload::parse_decimal(text, "--rate-iops");
}

uint64_t positive(uint64_t value, const char* option) {
  if (value == 0) {
    throw UsageError(option, "0 is not a limit; give more than 0 or leave the option out");
  }
  return value;
}

workload::WorkloadSpec build_spec(const WorkloadArgs& a) {
  workload::WorkloadSpec spec;
  spec.pattern = workload::parse_access_pattern(a.pattern, "--pattern");
  spec.read_pct = units::parse_percent(a.read_pct, "--read-pct");
  if (!a.block_size.empty() && !a.bs_split.empty()) {
    throw UsageError("--bs-split", "give either --block-size or --bs-split, not both");
  }
  if (!a.bs_split.empty()) {
    spec.block_sizes = workload::parse_bs_split(a.bs_split, "--bs-split");
  } else if (!a.block_size.empty()) {
    spec.block_sizes = {{units::parse_size_bytes(a.block_size, "--block-size"), 1.0}};
  }
  spec.threads = parse_u32(a.threads, "--threads");
  spec.queue_depth = parse_u32(a.queue_depth, "--queue-depth");
  spec.submit_batch = parse_u32(a.submit_batch, "--submit-batch");
  if (!a.duration.empty()) {
    spec.limits.duration_ns = positive(units::parse_duration_ns(a.duration, "--duration"), "--duration");
  }
  if (!a.bytes.empty()) {
    const workload::ByteLimit limit = workload::parse_byte_limit(a.bytes, "--bytes");
    spec.limits.bytes = limit.bytes;
    spec.limits.bytes_range_multiple = limit.range_multiple;
  }
  if (!a.ios.empty()) {
    spec.limits.ios = positive(units::parse_count(a.ios, "--ios"), "--ios");
  }
  if (!a.range.empty()) {
    spec.active_range = workload::parse_range(a.range, "--range");
  }
  if (!a.amount.empty()) {
    spec.active_range.amount_bytes = positive(units::parse_size_bytes(a.amount, "--amount"), "--amount");
  }
  if (!a.segments.empty()) {
    spec.active_range.segments = parse_u32(a.segments, "--segments");
  }
  if (!a.zones.empty()) {
    spec.zones = workload::parse_zones(a.zones, "--zones");
  }
  if (!a.rate_iops.empty()) {
    spec.rate.iops = parse_rate_iops(a.rate_iops);
  }
  if (!a.rate_mbps.empty()) {
    spec.rate.mb_per_s = workload::parse_decimal(a.rate_mbps, "--rate-mbps");
  }
  if (!a.cpus.empty()) {
    spec.cpus = workload::parse_cpu_list(a.cpus, "--cpus");
  }
  if (!a.interval.empty()) {
    spec.interval_ns = units::parse_duration_ns(a.interval, "--interval");
  }
  spec.data = workload::parse_data_pattern(a.data, "--data");
  spec.engine = a.engine;
  spec.seed = a.seed.empty() ? random_seed() : parse_seed(a.seed);
  return spec;
}

int exit_code_for(const workload::WorkloadResult& result, const StopSignals& signals, const std::string& json_path) {
  const std::string where = json_path.empty() ? "" : fmt::format("; results written to {}", json_path);
  if (result.stop_reason == workload::StopReason::io_error) {
    fmt::print(stderr, "ptsuite: an IO error stopped the run: {}{}\n", describe_io_error(result), where);
    return static_cast<int>(ExitCode::io_error);
  }
  if (result.stop_reason == workload::StopReason::interrupted) {
    fmt::print(stderr, "ptsuite: interrupted by {}{}\n", signals.received() == SIGTERM ? "SIGTERM" : "SIGINT", where);
    return static_cast<int>(ExitCode::interrupted);
  }
  return static_cast<int>(ExitCode::success);
}

}  // namespace

uint64_t random_seed() {
  std::random_device device;
  return (static_cast<uint64_t>(device()) << 32) ^ device() ^ monotonic_ns();
}

uint64_t parse_seed(const std::string& text) {
  uint64_t seed = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) {
    throw UsageError("--seed", fmt::format("\"{}\" is not a whole number from 0 to 2^64-1", text));
  }
  return seed;
}

int execute_workload(const RunRequest& request) {
  device::OutputGate outputs(request.command);
  outputs.add_target(request.target_path, "--target");
  std::optional<OutputPath> json;
  if (!request.json_path.empty()) json = outputs.file(request.json_path, request.json_option);
  const bool writes = request.spec.read_pct < 100;
  // A bad option is exit 2 whatever the target: resolved against its geometry (a read-only open,
  // nothing written) before the gate, whose refusals (exit 3) are about the target itself.
  const workload::ResolvedWorkload resolved =
      workload::resolve(request.spec, engine::Target::open_read_only(request.target_path).geometry());
  const device::TargetGuard guard = device::pass_target_gate(
      {request.target_path, writes ? device::TargetAccess::read_write : device::TargetAccess::read_only,
       request.allow_destructive, request.command});
  const engine::Target target =
      writes ? engine::Target::open(guard.writable()) : engine::Target::open_read_only(request.target_path);

  const StopSignals signals;
  ProgressLine progress(!request.quiet);
  workload::RunControl control;
  control.stop_requested = &signals.flag();
  control.progress_interval_ns = k_progress_interval_ns;
  control.on_progress = [&progress](const workload::Progress& p) { progress.update(p); };
  const std::string started_at = utc_now_iso8601();
  const workload::WorkloadResult result = workload::run_workload(resolved, target, control);
  progress.clear();

  if (!request.quiet && !request.json_stdout) {
    print_summary(stdout, resolved, target, result);
    std::fflush(stdout);
  }
  if (!request.json_path.empty() || request.json_stdout) {
    const nlohmann::json doc =
        workload::workload_document(resolved, target, result, started_at, request.command, request.target_note);
    if (json) write_file_atomic(*json, doc.dump(2) + "\n");
    if (request.json_stdout) fmt::print("{}", doc.dump(2) + "\n");
  }
  return exit_code_for(result, signals, request.json_path);
}

void register_workload_command(CLI::App& app, CommandSlot& slot) {
  CLI::App* cmd = app.add_subcommand("workload", "Run one workload on a block device or file and measure it exactly");
  auto args = std::make_shared<WorkloadArgs>();
  WorkloadArgs& a = *args;
  add_shared_option(cmd, "--target", a.target, "Block device or regular file (opened with O_DIRECT)")
      ->check(paths::target_write())
      ->required();
  cmd->add_option("--pattern", a.pattern, "random (rand) or sequential (seq)")
      ->check(paths::none())
      ->capture_default_str();
  cmd->add_option("--read-pct", a.read_pct, "Share of reads, 0..100 (100 = read-only)")
      ->check(paths::none())
      ->capture_default_str();
  cmd->add_option("--block-size", a.block_size, "IO size, e.g. 4KiB (binary units; default 4KiB)")
      ->check(paths::none());
  cmd->add_option("--bs-split", a.bs_split, "Weighted IO sizes, e.g. 512/4:4k/67:64k/3")->check(paths::none());
  cmd->add_option("--threads", a.threads, "Worker threads (TC)")->check(paths::none())->capture_default_str();
  add_shared_option(cmd, "--queue-depth", a.queue_depth, "IOs in flight per thread (QD)")
      ->check(paths::none())
      ->capture_default_str();
  cmd->add_option("--submit-batch", a.submit_batch,
                  "IOs per submit call at most (0 = all free slots at once; docs/engine.md)")
      ->check(paths::none())
      ->capture_default_str();
  add_shared_option(cmd, "--duration", a.duration, "Run time, e.g. 30s, 5m")->check(paths::none());
  cmd->add_option("--bytes", a.bytes, "Stop after this many bytes, e.g. 10GiB, or 2x the range")->check(paths::none());
  cmd->add_option("--ios", a.ios, "Stop after this many IOs")->check(paths::none());
  add_shared_option(cmd, "--seed", a.seed, "PRNG seed (default: random, recorded in the results)")
      ->check(paths::none());
  add_json_with_deprecated_file(cmd, a.json_stdout, a.json, "The results as JSON on stdout instead of the summary");
  add_shared_option(cmd, "--json-out", a.json, "Write the results to this JSON file")->check(paths::output_file());
  cmd->add_option("--range", a.range, "Active range: 75% of capacity, or OFFSET:LENGTH")->check(paths::none());
  cmd->add_option("--amount", a.amount, "ActiveRange Amount: random IO addresses only this much of the range")
      ->check(paths::none());
  cmd->add_option("--segments", a.segments, "Spread the --amount over this many equal segments of the range")
      ->check(paths::none());
  cmd->add_option("--zones", a.zones, "Zoned random access IO%/RANGE%, e.g. 50/5:30/15:20/80")->check(paths::none());
  cmd->add_option("--rate-iops", a.rate_iops, "Rate limit in IOPS (total over threads)")->check(paths::none());
  cmd->add_option("--rate-mbps", a.rate_mbps, "Rate limit in MB/s, decimal (10^6 bytes)")->check(paths::none());
  add_shared_option(cmd, "--engine", a.engine, "IO engine (see `ptsuite engines`)")
      ->check(paths::none())
      ->capture_default_str();
  cmd->add_option("--cpus", a.cpus, "Pin thread i to the i-th CPU of this list, e.g. 0,1 or 0-3")->check(paths::none());
  cmd->add_option("--interval", a.interval, "Record an interval series every this long, e.g. 1s")->check(paths::none());
  cmd->add_option("--data", a.data, "Write data: random, refill or zeros")->check(paths::none())->capture_default_str();
  add_shared_flag(cmd, "--allow-destructive", a.allow_destructive,
                  "Allow writes to a block device or a file holding data (destroys its data)");
  add_shared_flag(cmd, "--quiet", a.quiet, "No progress line and no summary");
  cmd->callback([&slot, args] {
    // workload::resolve() and the IO queue name fields; this command's flags spell them.
    slot.fields =
        FieldFlags{{"target", "--target"},       {"threads", "--threads"},       {"queue_depth", "--queue-depth"},
                   {"read_pct", "--read-pct"},   {"block_size", "--block-size"}, {"bs_split", "--bs-split"},
                   {"range", "--range"},         {"zones", "--zones"},           {"amount", "--amount"},
                   {"segments", "--segments"},   {"bytes", "--bytes"},           {"duration", "--duration"},
                   {"rate_iops", "--rate-iops"}, {"rate_mbps", "--rate-mbps"},   {"interval", "--interval"},
                   {"cpus", "--cpus"},           {"engine", "--engine"}};
    slot.action = [args] {
      (void)resolve_target_option(args->target);
      RunRequest request;
      request.target_path = args->target;
      request.spec = build_spec(*args);
      request.json_path = args->json;
      request.json_option = "--json-out";
      request.json_stdout = args->json_stdout;
      request.allow_destructive = args->allow_destructive;
      request.quiet = args->quiet;
      return execute_workload(request);
    };
  });
}

}  // namespace ptsuite::cli
