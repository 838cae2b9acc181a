// plan_assumptions_for() (plan.hpp): what a plan assumes about a known target.
#include <fmt/format.h>
#include <optional>

#include <ptsuite/device/purge.hpp>
#include <ptsuite/pts/plan.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/units.hpp>

namespace ptsuite::pts {

namespace {

constexpr uint64_t k_ns_per_s = 1'000'000'000;
// Measured per segment of `ptsuite run --quick` on the CI machine kind (2 cores): 35-50 ms
// between one segment's end and the next one's, at 0.5 s segments (docs/performance.md).
constexpr uint64_t k_step_overhead_ns = 40'000'000;
// nlohmann::json's dump of results documents: about 50 MB/s on the CI machine kind.
constexpr double k_document_ns_per_byte = 20;
// A discard of a loop device over tmpfs, a zram disk or a file: the kernel drops pages; one
// second covers the ioctl and the sync, plus one second per 10 GB it walks.
constexpr double k_discard_bytes_per_s = 10e9;
// Writes to memory-backed targets (loop over tmpfs, zram): 1000 MB/s is what a 2-core machine
// sustains at QD 32 with 128 KiB blocks; the run measures its own rate anyway (eta.hpp).
constexpr double k_memory_target_write_mb_per_s = 1000;

std::optional<device::PurgeMethod> method_for(const device::DeviceIdentity& id, const std::string& setting) {
  if (setting == "none") {
    return std::nullopt;
  }
  try {
    return device::choose_purge_method(id, device::parse_purge_method(setting), id.is_partition);
  } catch (const Error&) {
    return std::nullopt;  // the run refuses it before any purge: nothing to time
  }
}

// The drive's own estimate for `m`, in seconds, with where it comes from.
std::optional<std::pair<uint64_t, std::string>> drive_estimate(const device::DeviceIdentity& id,
                                                               device::PurgeMethod m) {
  using device::PurgeMethod;
  const device::PurgeCapabilities& p = id.purge;
  const auto sanitize = [](const std::optional<uint32_t>& s,
                           const char* what) -> std::optional<std::pair<uint64_t, std::string>> {
    if (!s) return std::nullopt;
    return std::pair{uint64_t{*s} * k_ns_per_s, fmt::format("the drive's Sanitize Status log estimate for {}", what)};
  };
  switch (m) {
    case PurgeMethod::nvme_sanitize_block:
      return sanitize(p.nvme_sanitize_block_s, "block erase");
    case PurgeMethod::nvme_sanitize_crypto:
      return sanitize(p.nvme_sanitize_crypto_s, "crypto erase");
    case PurgeMethod::nvme_sanitize_overwrite:
      return sanitize(p.nvme_sanitize_overwrite_s, "overwrite");
    case PurgeMethod::ata_security_erase: {
      if (!id.ata_security) return std::nullopt;
      const bool enhanced = id.ata_security->enhanced_erase_supported && id.ata_security->enhanced_erase_minutes > 0;
      const uint32_t minutes = enhanced ? id.ata_security->enhanced_erase_minutes : id.ata_security->erase_minutes;
      if (minutes == 0) return std::nullopt;
      return std::pair{uint64_t{minutes} * 60 * k_ns_per_s,
                       fmt::format("the drive's IDENTIFY word {} estimate", enhanced ? 90 : 89)};
    }
    default:
      return std::nullopt;
  }
}

}  // namespace

PlanAssumptions plan_assumptions_for(const device::DeviceIdentity& target, const std::string& purge_method) {
  PlanAssumptions a;
  a.step_overhead_ns = k_step_overhead_ns;
  a.document_ns_per_byte = k_document_ns_per_byte;
  a.overhead_basis = fmt::format("step overhead assumed {} per segment (measured on the CI machine kind, unloaded)",
                                 units::format_duration(k_step_overhead_ns));
  const bool memory_like = target.transport == device::Transport::loop || target.transport == device::Transport::zram ||
                           target.transport == device::Transport::file;
  if (memory_like) {
    a.write_mb_per_s = k_memory_target_write_mb_per_s;
    a.write_basis =
        fmt::format("writes assumed at {:.0f} MB/s ({} target)", a.write_mb_per_s, device::to_string(target.transport));
  }
  const std::optional<device::PurgeMethod> method = method_for(target, purge_method);
  if (!method) {
    a.purge_ns = 0;
    a.purge_basis = purge_method == "none" ? "no purge (purge.method=none)" : a.purge_basis;
    return a;
  }
  if (const auto estimate = drive_estimate(target, *method)) {
    a.purge_ns = estimate->first;
    a.purge_basis = fmt::format("purges of {} from {}", units::format_duration(a.purge_ns), estimate->second);
  } else if (*method == device::PurgeMethod::discard || *method == device::PurgeMethod::secure_discard) {
    a.purge_ns =
        k_ns_per_s + static_cast<uint64_t>(static_cast<double>(target.capacity_bytes) / k_discard_bytes_per_s * 1e9);
    a.purge_basis = fmt::format("purges assumed at {} (a discard)", units::format_duration(a.purge_ns));
  } else if (*method == device::PurgeMethod::zero_fill) {
    a.purge_ns = static_cast<uint64_t>(static_cast<double>(target.capacity_bytes) / (a.write_mb_per_s * 1e6) * 1e9);
    a.purge_basis =
        fmt::format("purges assumed at {} (a zero fill at the write rate)", units::format_duration(a.purge_ns));
  }
  return a;
}

}  // namespace ptsuite::pts
