// Contract: the ptsuite version and the git revision it was built from ("unknown" outside a
// git checkout, "<rev>-dirty" with uncommitted changes). Stamped at build time.
#pragma once

#include <string_view>

namespace ptsuite {
std::string_view version() noexcept;
std::string_view git_revision() noexcept;
}  // namespace ptsuite
