// Private: the factories behind engine_registry.cpp, one per engine source file.
#pragma once

#include <memory>
#include <string>

#include <ptsuite/engine/io_engine.hpp>

namespace ptsuite::engine {

std::unique_ptr<IoEngine> make_libaio_engine();
std::unique_ptr<IoEngine> make_sync_engine();
std::unique_ptr<IoEngine> make_null_engine();

// Empty when io_setup() works on this machine, else why not (probes with a 1-entry context).
std::string libaio_unavailable_reason();

}  // namespace ptsuite::engine
