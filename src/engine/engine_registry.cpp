#include <ptsuite/engine/engine_registry.hpp>

#include <fmt/format.h>
#include <array>

#include <ptsuite/util/error.hpp>

#include "engine/engines.hpp"

namespace ptsuite::engine {

namespace {

struct EngineEntry {
  std::string_view name;
  std::string_view description;
  std::unique_ptr<IoEngine> (*create)();
  std::string (*unavailable_reason)();  // null: always available
};

// Listing order is the order of preference; the first entry is k_default_engine.
constexpr std::array<EngineEntry, 5> k_engines = {{
    {"libaio", "Linux native async IO (io_submit/io_getevents) on O_DIRECT; the default", make_libaio_engine,
     libaio_unavailable_reason},
    {"io_uring",
     "io_uring (liburing) on O_DIRECT: registered file and buffers, one single-issuer ring per thread; needs "
     "Linux 6.1+ with io_uring enabled (sysctl kernel.io_uring_disabled = 0)",
     make_io_uring_engine, io_uring_unavailable_reason},
    {"io_uring_poll",
     "io_uring with polled completion (IORING_SETUP_IOPOLL, one busy CPU per thread); only block devices with "
     "poll queues (queue/io_poll = 1, e.g. NVMe with nvme.poll_queues > 0), refused elsewhere",
     make_io_uring_poll_engine, io_uring_unavailable_reason},
    {"sync", "pread/pwrite, one IO at a time; the reference (latency meaningful at QD 1)", make_sync_engine, nullptr},
    {"null", "no IO, completes instantly; measures ptsuite's own cost per IO", make_null_engine, nullptr},
}};
static_assert(k_engines[0].name == k_default_engine);

std::string engine_names() {
  std::string names;
  for (const EngineEntry& entry : k_engines) {
    names += names.empty() ? "" : ", ";
    names += entry.name;
  }
  return names;
}

}  // namespace

std::vector<EngineInfo> list_engines() {
  std::vector<EngineInfo> infos;
  for (const EngineEntry& entry : k_engines) {
    EngineInfo info{std::string(entry.name), std::string(entry.description), true, {}};
    if (entry.unavailable_reason != nullptr) {
      info.unavailable_reason = entry.unavailable_reason();
      info.available = info.unavailable_reason.empty();
    }
    infos.push_back(std::move(info));
  }
  return infos;
}

std::unique_ptr<IoEngine> create_engine(std::string_view name) {
  for (const EngineEntry& entry : k_engines) {
    if (entry.name == name) {
      return entry.create();
    }
  }
  throw UsageError("engine", fmt::format("unknown engine \"{}\"; available: {}", name, engine_names()));
}

}  // namespace ptsuite::engine
