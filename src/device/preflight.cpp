#include <ptsuite/device/preflight.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include <ptsuite/device/identity.hpp>
#include <ptsuite/util/clock.hpp>
#include <ptsuite/util/error.hpp>

#include "device/preflight_checks.hpp"

namespace ptsuite::device {

namespace fs = std::filesystem;
using namespace preflight_detail;

namespace {

// A path that exists as anything but a block device is a file target; otherwise (a block
// device, or a /dev path in a fake tree) it is looked up in sysfs.
TargetView view_of(const PreflightInputs& in) {
  TargetView t;
  t.inputs = &in;
  struct stat st {};
  const bool exists = ::stat(in.target.c_str(), &st) == 0;
  if (exists && !S_ISBLK(st.st_mode)) {
    std::error_code ec;
    const fs::path canonical = fs::canonical(in.target, ec);
    t.file_path = ec ? in.target : canonical.string();
    return t;
  }
  t.disk = sysfs::node_by_dev_path(in.target, in.roots);
  if (!t.disk) {
    t.file_path = in.target;
    return t;
  }
  t.nodes.push_back(*t.disk);
  if (!t.disk->is_partition) {
    for (const sysfs::BlockNode& part : sysfs::partitions_of(*t.disk, in.roots)) {
      t.nodes.push_back(part);
    }
  }
  return t;
}

}  // namespace

std::string_view to_string(PreflightSeverity severity) {
  switch (severity) {
    case PreflightSeverity::info:
      return "info";
    case PreflightSeverity::warning:
      return "warning";
    case PreflightSeverity::error:
      return "error";
  }
  return "?";
}

size_t PreflightReport::count(PreflightSeverity severity) const {
  size_t n = 0;
  for (const PreflightFinding& f : findings) {
    n += f.severity == severity ? 1 : 0;
  }
  return n;
}

const PreflightFinding* PreflightReport::first_at_least(PreflightSeverity severity) const {
  // Errors first: a refusal names the worst finding.
  for (const PreflightSeverity s : {PreflightSeverity::error, PreflightSeverity::warning}) {
    for (const PreflightFinding& f : findings) {
      if (f.severity == s && s >= severity) {
        return &f;
      }
    }
  }
  return nullptr;
}

PreflightReport run_preflight(const PreflightInputs& in) {
  PreflightReport r;
  r.checked_utc = utc_now_iso8601();
  r.target = in.target;
  const TargetView t = view_of(in);
  r.findings = {check_pcie_link(t),
                check_cpu_governor(in.roots),
                check_io_scheduler(t),
                check_other_openers(t),
                check_sibling_mounts(t),
                check_temperature(in.health),
                check_free_memory(in.roots, in.needs),
                check_aio_max_nr(in.roots, in.needs)};
  return r;
}

PreflightReport preflight_target(const std::string& target, const PreflightNeeds& needs,
                                 const DeviceIdentity* identity) {
  PreflightInputs in;
  in.target = target;
  in.self_pid = static_cast<int>(::getpid());
  in.needs = needs;
  try {
    const DeviceIdentity id = identity != nullptr ? *identity : identify(target);
    in.health = read_health(target, id);
  } catch (const Error& e) {
    HealthSnapshot none;
    none.source = "none";
    none.note = e.what();
    in.health = none;
  }
  return run_preflight(in);
}

void to_json(nlohmann::json& j, const PreflightFinding& f) {
  j = nlohmann::json{{"check", f.check}, {"severity", to_string(f.severity)}, {"message", f.message}};
}

void to_json(nlohmann::json& j, const PreflightReport& r) {
  j = nlohmann::json{{"checked_utc", r.checked_utc},
                     {"target", r.target},
                     {"warnings", r.count(PreflightSeverity::warning)},
                     {"errors", r.count(PreflightSeverity::error)},
                     {"findings", r.findings}};
}

}  // namespace ptsuite::device
