// Contract: the seeded pseudo-random generators behind every workload decision and every byte
// of write data. Header-only, allocation-free, noexcept: they run on the hot path.
//
//   * splitmix64 (Steele, Lea, Flood 2014; Vigna's reference splitmix64.c): a 64-bit counter
//     advanced by the golden-ratio increment 0x9e3779b97f4a7c15, followed by a bijective
//     finalizer. Used to seed xoshiro and to hash (key, index) pairs (mix64). Reference output
//     from state 0: 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, ...
//   * xoshiro256** (Blackman, Vigna 2018): 256-bit state, period 2^256 - 1, full 64-bit output
//     (the PTS asks for >= 48 bits and a seedable generator). Seeded by four splitmix64 outputs
//     so that no seed yields the all-zero state. Reference output from state {1,2,3,4}:
//     11520, 0, 1509978240, 1215971899390074240, ...
//   * bounded(n): Lemire's multiply-shift with rejection ("Fast random integer generation in
//     an interval", 2019): uniform on [0, n) with no modulo bias, one multiply in the common
//     case.
//
// Streams: every worker thread owns independent generators per purpose, keyed by
// derive_seed(seed, thread, stream). The IO-decision stream and the data stream never share
// state, so changing the data pattern cannot change the offsets, sizes or directions.
#pragma once

#include <cstdint>

#include <ptsuite/util/int128.hpp>

namespace ptsuite::workload {

inline constexpr uint64_t k_golden_gamma = 0x9e3779b97f4a7c15ULL;

// The splitmix64 finalizer (a bijection on 64-bit values) applied to x + gamma: the output of
// a splitmix64 generator whose state was x before the call.
constexpr uint64_t mix64(uint64_t x) noexcept {
  uint64_t z = x + k_golden_gamma;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class SplitMix64 {
 public:
  constexpr explicit SplitMix64(uint64_t state) noexcept : m_state(state) {}
  constexpr uint64_t next() noexcept {
    const uint64_t out = mix64(m_state);
    m_state += k_golden_gamma;
    return out;
  }

 private:
  uint64_t m_state;
};

class Xoshiro256StarStar {
 public:
  // Seeds the 256-bit state with four consecutive splitmix64 outputs from `seed`.
  constexpr explicit Xoshiro256StarStar(uint64_t seed) noexcept {
    SplitMix64 sm(seed);
    for (uint64_t& word : m_s) {
      word = sm.next();
    }
  }
  // Raw state, for the published reference vectors (must not be all zero).
  constexpr Xoshiro256StarStar(uint64_t s0, uint64_t s1, uint64_t s2, uint64_t s3) noexcept : m_s{s0, s1, s2, s3} {}

  constexpr uint64_t next() noexcept {
    const uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
  }

  // Uniform on [0, n), n >= 1, without bias (Lemire). The rejection threshold (2^64 mod n)
  // is computed only when the low product word falls below n, i.e. with probability < n/2^64.
  uint64_t bounded(uint64_t n) noexcept {
    uint128_t m = static_cast<uint128_t>(next()) * n;
    auto low = static_cast<uint64_t>(m);
    if (low < n) {
      const uint64_t threshold = (0 - n) % n;  // 2^64 mod n
      while (low < threshold) {
        m = static_cast<uint128_t>(next()) * n;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

 private:
  static constexpr uint64_t rotl(uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
  uint64_t m_s[4];
};

// The purposes a worker thread draws random numbers for; each gets its own stream.
enum class RngStream : uint64_t { io_decisions = 1, data = 2 };

// Seed of thread `thread`'s stream `stream` under the run seed: two rounds of mix64 so that
// nearby seeds, threads and streams give unrelated generators. Documented in docs/workload.md;
// changing it changes every seeded workload, so it is fixed.
constexpr uint64_t derive_seed(uint64_t seed, uint32_t thread, RngStream stream) noexcept {
  const uint64_t per_run = mix64(seed);
  return mix64(per_run ^ (uint64_t{thread} << 8 | static_cast<uint64_t>(stream)));
}

}  // namespace ptsuite::workload
