#include <ptsuite/util/embedded.hpp>

namespace ptsuite {

std::optional<std::string_view> embedded_file(std::string_view path) noexcept {
  for (const EmbeddedFile& file : embedded_files()) {
    if (file.path == path) {
      return file.content;
    }
  }
  return std::nullopt;
}

}  // namespace ptsuite
