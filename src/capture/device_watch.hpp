// Private to capture: whether a captured block device is still the device the capture started
// on (docs/capture.md, "A device that vanishes"). A snapshot at the start records the device
// number's sysfs directory, its size and, for a loop device, its backing file; vanished_reason()
// compares the device with it: the device number gone (hot-unplug, `dmsetup remove`), a size of
// 0 where it had one (a detached loop device, removed media), or a loop device now over another
// file are a vanished device. A size that changes otherwise (a resize) is not. Reads sysfs only;
// thread-safe (no shared state).
#pragma once

#include <cstdint>
#include <string>

namespace ptsuite::capture::detail {

struct DeviceSnapshot {
  std::string path;   // for messages: "/dev/loop7"
  std::string sysfs;  // /sys/dev/block/MAJOR:MINOR
  uint64_t size_sectors = 0;
  std::string loop_backing;  // "" unless a loop device
};

DeviceSnapshot snapshot_device(const std::string& path, uint32_t major, uint32_t minor);
// "" while the device is the one of the snapshot; else what changed, e.g. "its size is now 0 (a
// detached loop device, or removed media)".
std::string vanished_reason(const DeviceSnapshot& before);

}  // namespace ptsuite::capture::detail
