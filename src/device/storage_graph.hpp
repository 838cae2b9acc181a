// Private: the storage relation graph around a target, the one model behind the target gate
// (target_gate.hpp), the safety checks (safety.hpp) and the output gate (output_gate.hpp).
//
// Objects are regular files (st_dev + st_ino) and block devices (major:minor). Edges, each
// with the byte mapping between its ends:
//   * loop device -> what backs it (a file or a block device): the loop's bytes [0, n) are the
//     backing object's bytes [offset, offset + n) (LOOP_GET_STATUS64 lo_offset; n is the loop's
//     own size, which the kernel caps at lo_sizelimit), and back: object -> every loop over it;
//   * partition -> its disk: bytes [0, n) are the disk's [start, start + n) (sysfs start and
//     size, 512-byte units), and back: disk -> its partitions;
//   * holder -> slave (device-mapper, md, LVM, bcache: sysfs holders/ and slaves/), and back.
//     A holder's mapping onto its slaves is not read (dm tables, md layouts): it is taken as
//     covering every byte of every slave, which can only refuse more, never less.
// A size or offset the kernel does not report is taken as covering everything (same reason).
//
// resolve() walks the graph breadth-first from the target over the bytes it overlaps: the
// target's range is [0, its size); each edge maps the range into the next object, and an
// object joins the set only when the mapped range is not empty. "Overlap" is of half-open byte
// ranges: [a, a + n) and [b, b + m) overlap when a < b + m and b < a + n, so ranges that only
// touch (a + n == b) do not: a loop device over the last bytes of an image file that ends where
// a mounted loop's window begins is not related to it; one byte further and it is.
// So a second loop device over a mounted image is in the set (loop2 -> image -> loop1), a
// loop device over a mounted partition too (loop3 -> loop0p1), a sibling partition is not
// (loop0p2 -> loop0 [its range] -> loop0p1 does not overlap).
//
// Reads sysfs and, on a real system, opens loop device nodes read-only (loop_backing.hpp).
// Never writes. Thread-safe (no shared state).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <ptsuite/device/safety.hpp>

#include "device/loop_backing.hpp"
#include "device/sysfs.hpp"

namespace ptsuite::device::graph {

// A half-open byte range [begin, end); end == k_unknown_size: to the end, whatever it is.
struct ByteRange {
  uint64_t begin = 0;
  uint64_t end = k_unknown_size;
  [[nodiscard]] bool empty() const noexcept { return begin >= end; }
  bool operator==(const ByteRange&) const = default;
};

[[nodiscard]] bool overlaps(ByteRange a, ByteRange b) noexcept;
[[nodiscard]] ByteRange intersect(ByteRange a, ByteRange b) noexcept;

// How a member of the set was reached from its parent member.
enum class Edge {
  target,          // the target itself
  loop_backing,    // the parent is a loop device; this is what backs it
  loop_over,       // this is a loop device over the parent
  partition_disk,  // the parent is a partition; this is its disk
  disk_partition,  // this is a partition of the parent
  holder_slave,    // the parent is stacked on this (dm, md, LVM, bcache)
  slave_holder,    // this is stacked on the parent: the parent is held
};

// Whether the edge leads from an object to one stacked on it (towards users of the bytes).
[[nodiscard]] bool is_upward(Edge edge) noexcept;

struct StorageObject {
  std::optional<sysfs::BlockNode> block;  // a block device, or
  std::optional<FileId> file;             // a regular file
  std::string path;                       // a file's path as the user or the kernel names it
  uint64_t size_bytes = k_unknown_size;

  [[nodiscard]] bool is_block() const noexcept { return block.has_value(); }
  // "loop1" for a block device (its kernel name), the path for a file.
  [[nodiscard]] std::string name() const;
  bool operator==(const StorageObject& other) const noexcept;  // same device number / inode
};

struct Member {
  StorageObject object;
  ByteRange range;  // the target's bytes in this object's coordinates (never empty)
  Edge edge = Edge::target;
  int parent = -1;  // index of the member it was reached from; -1 for the target
  int loop = -1;    // a loop device member: its window's index in StorageSet::loops
};

struct StorageSet {
  std::vector<LoopWindow> loops;  // every attached loop device (read once)
  std::vector<Member> members;    // [0] is the target; breadth-first, nearest first

  // The chain from the target to member `index` in words: "loop2 is a loop device over
  // /dev/shm/fs.img; loop1 is a loop device over /dev/shm/fs.img". Empty for the target.
  [[nodiscard]] std::string relation(size_t index) const;
  // The members on the path from the target to `index`, the target first.
  [[nodiscard]] std::vector<size_t> path_to(size_t index) const;
  // The window of a loop device member; nullptr for any other.
  [[nodiscard]] const LoopWindow* loop_of(const Member& m) const;
};

// The set around a block device, or around a regular file (`path` names it in messages).
StorageSet resolve_block(const sysfs::BlockNode& node, const SystemRoots& roots);
StorageSet resolve_file(FileId id, const std::string& path, uint64_t size_bytes, const SystemRoots& roots);

// Every regular file that backs an attached loop device (for the output gate: none of them
// may be replaced or truncated), with the loop device's name.
std::vector<std::pair<FileId, std::string>> loop_backing_files(const SystemRoots& roots);

}  // namespace ptsuite::device::graph
