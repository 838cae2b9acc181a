// Private: the factories behind engine_registry.cpp, one per engine source file.
#pragma once

#include <memory>
#include <string>

#include <ptsuite/engine/io_engine.hpp>

namespace ptsuite::engine {

std::unique_ptr<IoEngine> make_libaio_engine();
std::unique_ptr<IoEngine> make_io_uring_engine();
std::unique_ptr<IoEngine> make_io_uring_poll_engine();
std::unique_ptr<IoEngine> make_sync_engine();
std::unique_ptr<IoEngine> make_null_engine();

// Empty when io_setup() works on this machine, else why not (probes with a 1-entry context).
std::string libaio_unavailable_reason();
// The libaio engine's idle AIO contexts (libaio_engine.cpp: a closed engine's context is kept
// for the next open(), since io_destroy() waits an RCU grace period): how many are kept now,
// and destroying them all (what a test that counts the process's kernel resources calls).
size_t libaio_idle_contexts();
void release_libaio_idle_contexts();
// Empty when an io_uring with the flags the engine uses can be set up here, else why not.
std::string io_uring_unavailable_reason();

}  // namespace ptsuite::engine
