// Contract: crash-safe file writes. write_file_atomic() writes `content` to "<path>.tmp",
// fsyncs it, renames it over `path` and fsyncs the directory, so that after a crash or power
// loss `path` holds either the old or the new content, never a torn mix. Throws SystemError;
// on every failure (ENOSPC included) the temporary file is removed and `path` is unchanged.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace ptsuite {

void write_file_atomic(const std::filesystem::path& path, std::string_view content);
std::string read_file(const std::filesystem::path& path);  // throws SystemError when unreadable

}  // namespace ptsuite
