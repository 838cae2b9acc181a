// `ptsuite demo`: the README's main job. With no --target it creates a scratch target in RAM
// (a loop device over a /dev/shm file when running as root, else an O_DIRECT file there),
// pre-fills it with random data, runs a short mixed workload on it, removes it, and prints
// where the JSON results are. With --target it runs the same workload there, under the same
// safety rules as `ptsuite workload` (a block device needs --allow-destructive).
#include <fmt/format.h>
#include <unistd.h>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>

#include <ptsuite/device/output_gate.hpp>
#include <ptsuite/engine/engine_registry.hpp>
#include <ptsuite/engine/scratch_target.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/out_dir.hpp>
#include <ptsuite/util/units.hpp>

#include "cli/commands.hpp"
#include "cli/flags.hpp"
#include "cli/path_roles.hpp"
#include "cli/target_option.hpp"
#include "cli/workload_command.hpp"

namespace ptsuite::cli {

namespace {

namespace fs = std::filesystem;

constexpr uint64_t k_scratch_bytes = units::k_gib;  // large enough that caches do not hide the device

struct DemoArgs {
  std::string target;
  std::string duration = "5s";
  std::string out;
  std::string seed;
  std::string engine;
  bool allow_destructive = false;
  bool quiet = false;
};

// The demo workload: 4 KiB random, 70 % read / 30 % write, 1 thread x QD 16, one interval
// sample per second, random data.
workload::WorkloadSpec demo_spec(const DemoArgs& a) {
  workload::WorkloadSpec spec;
  spec.pattern = workload::AccessPattern::random;
  spec.read_pct = 70;
  spec.block_sizes = {{4096, 1.0}};
  spec.threads = 1;
  spec.queue_depth = 16;
  spec.limits.duration_ns = units::parse_duration_ns(a.duration, "--duration");
  if (spec.limits.duration_ns == 0) {
    throw UsageError("--duration", "0 is not a duration; give more than 0");
  }
  spec.interval_ns = units::k_ns_per_s;
  spec.data = workload::DataPattern::random;
  spec.seed = a.seed.empty() ? random_seed() : parse_seed(a.seed);
  if (!a.engine.empty()) {
    spec.engine = a.engine;
  } else {
    // libaio unless this machine cannot run it (then the portable pread/pwrite engine).
    spec.engine = "libaio";
    for (const engine::EngineInfo& e : engine::list_engines()) {
      if (e.name == "libaio" && !e.available) {
        spec.engine = "sync";
      }
    }
  }
  return spec;
}

std::string timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y%m%d-%H%M%S", &tm);
  return buf;
}

// Creates the results directory: the one given (new or empty: util/out_dir.hpp), or
// ./ptsuite-demo-<UTC time>[-N]. Returns whether this call created it (so a failed run can
// remove it again).
bool make_output_dir(const DemoArgs& a, fs::path& dir) {
  std::error_code ec;
  if (!a.out.empty()) {
    // Through the output gate first: never a device node, a special file or a target's file;
    // new or empty (the one output-directory check).
    device::OutputGate gate("demo");
    gate.add_target(a.target, "--target");
    const OutputDir out = gate.directory(a.out, "--out", device::OutputGate::Existing::must_be_empty);
    dir = out.path();
    const bool existed = fs::is_directory(dir, ec);
    out.create();
    return !existed;
  }
  const std::string base = "ptsuite-demo-" + timestamp();
  for (int n = 1;; ++n) {
    dir = n == 1 ? fs::path(base) : fs::path(fmt::format("{}-{}", base, n));
    if (fs::create_directory(dir, ec)) {
      return true;
    }
    if (ec) {
      throw UsageError("--out", fmt::format("cannot create {} in the current directory: {}; pick a writable "
                                            "directory with --out",
                                            dir.string(), ec.message()));
    }
  }
}

int run_demo(const DemoArgs& a) {
  RunRequest request;
  request.spec = demo_spec(a);
  request.allow_destructive = a.allow_destructive;
  request.quiet = a.quiet;
  request.command = "demo";
  request.json_option = "--out";

  fs::path dir;
  const bool created = make_output_dir(a, dir);
  request.json_path = (dir / "results.json").string();
  std::optional<engine::ScratchTarget> scratch;
  int code = 0;
  try {
    if (a.target.empty()) {
      engine::ScratchOptions options;
      options.fill_random = true;  // unwritten blocks would read back without doing the work
      options.fill_seed = request.spec.seed;
      scratch = engine::ScratchTarget::create(k_scratch_bytes, /*prefer_loop=*/true, options);
      request.target_path = scratch->path();
      // Our own scratch device holds nothing of the user's: consent is implied (the safety
      // gate's other checks still run).
      request.allow_destructive = true;
      request.target_note = "scratch: " + scratch->description();
      if (!a.quiet) {
        fmt::print("scratch  {}\n", scratch->description());
        std::fflush(stdout);
      }
    } else {
      request.target_path = a.target;
    }
    code = execute_workload(request);
  } catch (...) {
    std::error_code ec;
    if (created && fs::is_empty(dir, ec)) {
      fs::remove(dir, ec);
    }
    throw;
  }
  if (scratch) {
    scratch.reset();
    if (!a.quiet) {
      fmt::print("scratch  removed\n");
    }
  }
  std::error_code ec;
  const fs::path results = fs::absolute(request.json_path, ec);
  fmt::print("results  {}\n", results.empty() ? request.json_path : results.string());
  return code;
}

}  // namespace

void register_demo_command(CLI::App& app, CommandSlot& slot) {
  CLI::App* cmd = app.add_subcommand(
      "demo", "Run a short 4KiB random 70/30 workload on a scratch target in RAM (or --target) and save the results");
  auto args = std::make_shared<DemoArgs>();
  add_shared_option(cmd, "--target", args->target, "Run on this device or file instead of a scratch target")
      ->check(paths::target_write());
  add_shared_option(cmd, "--duration", args->duration, "Run time")->check(paths::none())->capture_default_str();
  add_out_dir(cmd, args->out, "Results directory, new or empty (default ./ptsuite-demo-<UTC time>)");
  add_deprecated(cmd, "--output-dir", args->out, "--out");
  add_shared_option(cmd, "--seed", args->seed, "PRNG seed (default: random, recorded in the results)")
      ->check(paths::none());
  add_shared_option(cmd, "--engine", args->engine, "IO engine (default libaio, else sync)")->check(paths::none());
  add_shared_flag(cmd, "--allow-destructive", args->allow_destructive,
                  "Allow writes to a block device, or a file holding data, given with --target (destroys its data)");
  add_shared_flag(cmd, "--quiet", args->quiet, "Print only where the results are");
  cmd->callback([&slot, args] {
    slot.fields = FieldFlags{{"engine", "--engine"}, {"target", "--target"}};
    slot.action = [args] {
      (void)resolve_target_option(args->target);
      return run_demo(*args);
    };
  });
}

}  // namespace ptsuite::cli
