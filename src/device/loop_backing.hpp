// Private: what lies under a loop device, shared by the target gate's relation graph
// (storage_graph.hpp: a file traced to every loop device over it, a loop device to its
// backing file or block device, with the byte window it presents) and identity (the medium a
// run started on, for resume). Opens loop device nodes read-only for LOOP_GET_STATUS64 (exact
// even after the backing file was renamed or unlinked); falls back to sysfs (loop/backing_file,
// loop/offset) and stat() of the backing path (fake trees in tests).
#pragma once

#include <sys/types.h>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "device/sysfs.hpp"

namespace ptsuite::device {

// A file's identity: the filesystem it lives on (st_dev) and its inode (st_ino).
struct FileId {
  dev_t dev = 0;
  ino_t ino = 0;
  bool operator==(const FileId&) const = default;
};

// `node_path`: the loop device node ("/dev/loop3"); `backing_file`: sysfs loop/backing_file.
std::optional<FileId> loop_backing_id(const std::string& node_path, sysfs::DevNum devnum,
                                      const std::string& backing_file);

// "st_dev 2049 st_ino 131077": how identities record a file's inode.
std::string file_id_text(FileId id);

inline constexpr uint64_t k_unknown_size = UINT64_MAX;

// One attached loop device and the bytes it presents: its bytes [0, size_bytes) are the
// backing object's bytes [offset_bytes, offset_bytes + size_bytes). Exactly one of
// backing_file_id / backing_block is set when the backing object is known.
struct LoopWindow {
  sysfs::LoopDevice loop;                      // node + the backing path as the kernel last knew it
  std::optional<FileId> backing_file_id;       // backed by a regular file
  std::optional<sysfs::DevNum> backing_block;  // backed by a block device (a loop over /dev/sdb1)
  uint64_t offset_bytes = 0;                   // LOOP_GET_STATUS64 lo_offset, sysfs loop/offset
  uint64_t size_bytes = k_unknown_size;        // the loop device's own size (sysfs size x 512)
};

// Every attached loop device, in sysfs order.
std::vector<LoopWindow> read_loop_windows(const SystemRoots& roots);

}  // namespace ptsuite::device
