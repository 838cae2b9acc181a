// Private: the inode behind a loop device, shared by the target gate (a file traced to the
// loop devices over it) and identity (the medium a run started on, for resume). Opens the
// loop device node read-only for LOOP_GET_STATUS64 (exact even after the backing file was
// renamed); falls back to stat() of the sysfs backing_file path (fake trees in tests).
#pragma once

#include <sys/types.h>
#include <optional>
#include <string>

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

}  // namespace ptsuite::device
