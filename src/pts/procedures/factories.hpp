// Private: the factories behind procedures/registry.cpp, one per procedure source file, declared
// from the one test list (results/test_kinds.def).
#pragma once

#include <memory>

#include <ptsuite/pts/test_procedure.hpp>

namespace ptsuite::pts {

// make_<name>_test() of every test in the one list, defined in procedures/<id>.cpp.
#define PTSUITE_TEST(name, id, group, block_key, Record, schema_def) std::unique_ptr<PtsTest> make_##name##_test();
#include <ptsuite/results/test_kinds.def>

}  // namespace ptsuite::pts
