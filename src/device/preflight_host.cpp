// Host checks of the preflight: CPU frequency governor, free memory, the AIO event limit.
#include <fmt/format.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include <ptsuite/util/units.hpp>

#include "device/preflight_checks.hpp"

namespace ptsuite::device::preflight_detail {

namespace {

namespace fs = std::filesystem;
using S = PreflightSeverity;

// A /proc/meminfo value in bytes ("MemAvailable:   123456 kB"); nullopt when absent.
std::optional<uint64_t> meminfo_bytes(const SystemRoots& roots, const std::string& key) {
  std::ifstream in(fs::path(roots.proc) / "meminfo");
  std::string name;
  uint64_t kib = 0;
  std::string rest;
  while (in >> name >> kib) {
    std::getline(in, rest);
    if (name == key + ":") {
      return kib * 1024;
    }
  }
  return std::nullopt;
}

std::optional<uint64_t> proc_number(const SystemRoots& roots, const char* rel) {
  const auto text = sysfs::read_attr(fs::path(roots.proc) / rel);
  if (!text) {
    return std::nullopt;
  }
  try {
    return std::stoull(*text);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

PreflightFinding check_cpu_governor(const SystemRoots& roots) {
  static const std::regex k_cpu("cpu[0-9]+");
  std::map<std::string, size_t> governors;
  size_t cpus = 0;
  const fs::path base = fs::path(roots.sys) / "devices/system/cpu";
  for (const std::string& name : sysfs::list_dir(base)) {
    if (!std::regex_match(name, k_cpu)) {
      continue;
    }
    if (const auto g = sysfs::read_attr(base / name / "cpufreq/scaling_governor")) {
      ++governors[*g];
      ++cpus;
    }
  }
  if (cpus == 0) {
    return {"cpu_governor", S::info, "no CPU frequency scaling exposed (a virtual machine, or a fixed frequency)"};
  }
  if (governors.size() == 1 && governors.begin()->first == "performance") {
    return {"cpu_governor", S::info, fmt::format("performance on all {} CPUs", cpus)};
  }
  std::string list;
  for (const auto& [name, n] : governors) {
    list += fmt::format("{}{} on {}", list.empty() ? "" : ", ", name, n);
  }
  return {"cpu_governor", S::warning,
          fmt::format("CPU frequency governor {} of {} CPUs: clock changes add latency and IOPS variance; set "
                      "performance (cpupower frequency-set -g performance)",
                      list, cpus)};
}

PreflightFinding check_free_memory(const SystemRoots& roots, const PreflightNeeds& needs) {
  const std::optional<uint64_t> available = meminfo_bytes(roots, "MemAvailable");
  if (!available) {
    return {"free_memory", S::info, "MemAvailable not found in /proc/meminfo"};
  }
  const std::string have = units::format_size_human(*available);
  if (needs.memory_bytes == 0) {
    return {"free_memory", S::info, fmt::format("{} available", have)};
  }
  const std::string need = units::format_size_human(needs.memory_bytes);
  if (*available < needs.memory_bytes) {
    return {"free_memory", S::error,
            fmt::format("{} available, the run needs about {} (IO buffers, scratch target, results): free memory "
                        "or lower TC/QD or --scratch-size",
                        have, need)};
  }
  // Below 1.5x the need, page-cache reclaim and swapping compete with the run.
  if (*available < needs.memory_bytes + needs.memory_bytes / 2) {
    return {"free_memory", S::warning,
            fmt::format("{} available for a run that needs about {}: little headroom; memory reclaim may disturb "
                        "the measurements",
                        have, need)};
  }
  return {"free_memory", S::info, fmt::format("{} available, the run needs about {}", have, need)};
}

PreflightFinding check_aio_max_nr(const SystemRoots& roots, const PreflightNeeds& needs) {
  const std::optional<uint64_t> max = proc_number(roots, "sys/fs/aio-max-nr");
  const std::optional<uint64_t> used = proc_number(roots, "sys/fs/aio-nr");
  if (!max) {
    return {"aio_max_nr", S::info, "fs.aio-max-nr not readable (no /proc/sys/fs/aio-max-nr)"};
  }
  const uint64_t in_use = used.value_or(0);
  if (needs.engine != "libaio") {
    return {"aio_max_nr", S::info,
            fmt::format("fs.aio-max-nr {} ({} in use); not used by the {} engine", *max, in_use, needs.engine)};
  }
  if (needs.aio_events == 0) {
    return {"aio_max_nr", S::info, fmt::format("fs.aio-max-nr {} ({} in use)", *max, in_use)};
  }
  // Each worker thread calls io_setup(QD); since Linux 4.12 the kernel charges exactly that
  // number against fs.aio-max-nr (fs/aio.c ioctx_alloc: aio_nr + max_reqs > aio_max_nr ->
  // EAGAIN), so a step with TC threads at QD needs TC x QD events free at once.
  const uint64_t free_events = *max > in_use ? *max - in_use : 0;
  if (needs.aio_events > free_events) {
    return {"aio_max_nr", S::error,
            fmt::format("the run's largest step needs {} AIO events (TC x QD), but fs.aio-max-nr is {} with {} in use: "
                        "io_setup would fail mid-run; raise it (sysctl -w fs.aio-max-nr={})",
                        needs.aio_events, *max, in_use, std::max<uint64_t>(1048576, in_use + needs.aio_events))};
  }
  return {"aio_max_nr", S::info,
          fmt::format("fs.aio-max-nr {} ({} in use), the run needs {}", *max, in_use, needs.aio_events)};
}

}  // namespace ptsuite::device::preflight_detail
