// Is a captured device still there (device_watch.hpp)?
#include "capture/device_watch.hpp"

#include <fmt/format.h>
#include <filesystem>
#include <fstream>

namespace ptsuite::capture::detail {

namespace {

namespace fs = std::filesystem;

// The first line of a sysfs attribute; nullopt-like "" with ok = false when it cannot be read.
std::string attribute(const fs::path& path, bool& ok) {
  std::ifstream in(path);
  std::string line;
  ok = static_cast<bool>(in) && static_cast<bool>(std::getline(in, line));
  return line;
}

uint64_t size_of(const fs::path& sysfs, bool& ok) {
  const std::string text = attribute(sysfs / "size", ok);
  try {
    return ok ? std::stoull(text) : 0;
  } catch (const std::exception&) {
    ok = false;
    return 0;
  }
}

}  // namespace

DeviceSnapshot snapshot_device(const std::string& path, uint32_t major, uint32_t minor) {
  DeviceSnapshot s;
  s.path = path;
  s.sysfs = fmt::format("/sys/dev/block/{}:{}", major, minor);
  bool ok = false;
  s.size_sectors = size_of(s.sysfs, ok);
  s.loop_backing = attribute(fs::path(s.sysfs) / "loop" / "backing_file", ok);
  if (!ok) s.loop_backing.clear();
  return s;
}

std::string vanished_reason(const DeviceSnapshot& before) {
  std::error_code ec;
  if (!fs::exists(before.sysfs, ec)) return "the device no longer exists (removed)";
  bool ok = false;
  const uint64_t size = size_of(before.sysfs, ok);
  if (!ok) return "its size can no longer be read (removed)";
  if (size == 0 && before.size_sectors != 0) return "its size is now 0 (a detached loop device, or removed media)";
  if (!before.loop_backing.empty()) {
    const std::string backing = attribute(fs::path(before.sysfs) / "loop" / "backing_file", ok);
    if (!ok) return "the loop device was detached";
    if (backing != before.loop_backing) {
      return fmt::format("the loop device is now over {} (it was over {})", backing, before.loop_backing);
    }
  }
  return "";
}

}  // namespace ptsuite::capture::detail
