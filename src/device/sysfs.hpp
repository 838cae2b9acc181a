// Private: reading the kernel's view of block devices from /sys and /proc (rooted at
// SystemRoots so tests can use a fake tree). Pure reads; no function here opens a device node.
//
// Layout relied on (Documentation/ABI/stable/sysfs-block): /sys/dev/block/<maj>:<min> and
// /sys/class/block/<name> link to the device directory; a partition's directory holds a
// `partition` file and sits inside its whole disk's directory; `holders/` and `slaves/` list
// stacked devices; `queue/` holds the request-queue parameters.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <ptsuite/device/safety.hpp>

namespace ptsuite::device::sysfs {

struct DevNum {
  unsigned major = 0;
  unsigned minor = 0;
  bool operator==(const DevNum&) const = default;
};

// "8:0" -> {8, 0}; nullopt when malformed.
std::optional<DevNum> parse_devnum(std::string_view text);

// Content of a sysfs/proc attribute with trailing whitespace removed; nullopt when unreadable.
std::optional<std::string> read_attr(const std::filesystem::path& path);
// A decimal attribute ("1953525168"): nullopt when unreadable, empty or not wholly a uint64.
std::optional<uint64_t> read_attr_u64(const std::filesystem::path& path);
// Names in a directory (sorted); empty when missing.
std::vector<std::string> list_dir(const std::filesystem::path& dir);

struct BlockNode {
  DevNum devnum;
  std::string name;           // kernel name: "sda", "sda1", "nvme0n1", "loop3p1"
  std::filesystem::path dir;  // canonical sysfs directory
  bool is_partition = false;
  std::string disk_name;  // the whole disk ("sda" for "sda1"; itself for a disk)
};

std::optional<BlockNode> node_by_devnum(DevNum devnum, const SystemRoots& roots);
std::optional<BlockNode> node_by_name(const std::string& name, const SystemRoots& roots);
// "/dev/sda1", "/dev/mapper/vg-root", "/dev/disk/by-id/..." -> node (via roots.dev symlinks,
// falling back to the last path component as kernel name). nullopt when it names no device.
std::optional<BlockNode> node_by_dev_path(const std::string& path, const SystemRoots& roots);

std::vector<BlockNode> partitions_of(const BlockNode& disk, const SystemRoots& roots);
std::vector<std::string> holders_of(const BlockNode& node);
std::vector<std::string> slaves_of(const BlockNode& node);

// One /proc/self/mountinfo line (proc(5)); octal escapes (\040) decoded.
struct MountEntry {
  DevNum devnum;
  std::string mount_point;
  std::string fs_type;
  std::string source;
};
std::vector<MountEntry> read_mountinfo(const SystemRoots& roots);
// Device paths in /proc/swaps of type "partition" (swap files live on a mounted filesystem).
std::vector<std::string> read_swap_devices(const SystemRoots& roots);

// Decodes the \ooo escapes the kernel uses in mountinfo and /proc/swaps.
std::string unescape_octal(std::string_view text);

}  // namespace ptsuite::device::sysfs

namespace ptsuite::device::sysfs {

// One attached loop device (Documentation/ABI/testing/sysfs-block-loop): its node and the
// text of <dir>/loop/backing_file (the backing path as the kernel last knew it; the kernel
// appends " (deleted)" when it was unlinked). Devices without a backing file (detached) are
// not listed.
struct LoopDevice {
  BlockNode node;
  std::string backing_file;
};
std::vector<LoopDevice> attached_loop_devices(const SystemRoots& roots);

}  // namespace ptsuite::device::sysfs

namespace ptsuite::device::sysfs {

// Paths in /proc/swaps of type "file" (swap files; matched by the caller by st_dev + st_ino).
std::vector<std::string> read_swap_files(const SystemRoots& roots);

}  // namespace ptsuite::device::sysfs
