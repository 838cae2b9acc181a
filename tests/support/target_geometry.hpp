// Contract: the engine::TargetGeometry of a plain target for the workload tests: `capacity`
// bytes with logical = physical block = memory alignment = `logical` bytes (one copy for every
// test source: a unity build puts several of them in one translation unit).
#pragma once

#include <cstdint>

#include <ptsuite/engine/target.hpp>

namespace ptsuite::test_support {

inline engine::TargetGeometry geometry(uint64_t capacity, uint32_t logical = 512) {
  engine::TargetGeometry g;
  g.capacity_bytes = capacity;
  g.logical_block_bytes = logical;
  g.physical_block_bytes = logical;
  g.memory_alignment_bytes = logical;
  return g;
}

}  // namespace ptsuite::test_support
