// Contract: 128-bit unsigned integers (a GCC/Clang extension) under one name, marked so that
// -Wpedantic accepts them. Used for exact latency sums and overflow-free unit arithmetic.
#pragma once

namespace ptsuite {
__extension__ typedef unsigned __int128 uint128_t;
}  // namespace ptsuite
