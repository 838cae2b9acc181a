// Contract: the non-finite doubles the chart tests feed the renderers, one definition for every
// test source (a unity build puts several test sources in one translation unit).
#pragma once

#include <limits>

namespace ptsuite::test_support {

inline constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();
inline constexpr double k_inf = std::numeric_limits<double>::infinity();

}  // namespace ptsuite::test_support
