// Contract: the files of the pts/ folder, compiled into the binary at build time
// (third_party/embed_files.cmake). Paths are relative to pts/, e.g. "tests/iops.json".
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace ptsuite {

struct EmbeddedFile {
  std::string_view path;
  std::string_view content;
};

std::span<const EmbeddedFile> embedded_files() noexcept;
std::optional<std::string_view> embedded_file(std::string_view path) noexcept;

}  // namespace ptsuite
