// Contract: what a test may bound about memory when this build runs under a sanitizer
// (AddressSanitizer or ThreadSanitizer, GCC's __SANITIZE_* or Clang's __has_feature), in one
// place for every test that bounds memory. Header-only; test code only.
//   * k_address_space_limit_applies: an RLIMIT_AS on a child process measures the product. Under
//     a sanitizer it does not: both reserve terabytes of address space for their shadow, so any
//     limit a test sets fails the child at its start.
//   * k_peak_rss_is_the_products: a peak RSS (VmHWM, wait4's ru_maxrss) is the product's. Under
//     a sanitizer it is its allocator's too: ASan's redzones, shadow and quarantine grow with every
//     allocation (measured +181 MB over sim.full_suites, 2026-12-03), TSan's shadow is several
//     times the application's memory. Tests print the figure there and bound it elsewhere.
#pragma once

namespace ptsuite::test_support {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool k_sanitized_build = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool k_sanitized_build = true;
#else
inline constexpr bool k_sanitized_build = false;
#endif
#else
inline constexpr bool k_sanitized_build = false;
#endif

inline constexpr bool k_address_space_limit_applies = !k_sanitized_build;
inline constexpr bool k_peak_rss_is_the_products = !k_sanitized_build;

}  // namespace ptsuite::test_support
