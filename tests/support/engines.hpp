// Contract: which I/O engines this machine can run, for tests that skip without one (one copy
// for every test source: a unity build puts several of them in one translation unit).
#pragma once

#include <string_view>

#include <ptsuite/engine/engine_registry.hpp>

namespace ptsuite::test_support {

// True when the engine registry lists `name` ("libaio", "io_uring", ...) as available here.
inline bool engine_available(std::string_view name) {
  for (const engine::EngineInfo& e : engine::list_engines()) {
    if (e.name == name) {
      return e.available;
    }
  }
  return false;
}

inline bool libaio_available() { return engine_available("libaio"); }

}  // namespace ptsuite::test_support
