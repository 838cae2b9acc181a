// Private: the factories behind procedures/registry.cpp, one per procedure source file.
#pragma once

#include <memory>

#include <ptsuite/pts/pts_test.hpp>

namespace ptsuite::pts {

std::unique_ptr<PtsTest> make_iops_test();
std::unique_ptr<PtsTest> make_throughput_test();
std::unique_ptr<PtsTest> make_latency_test();
std::unique_ptr<PtsTest> make_wsat_test();
std::unique_ptr<PtsTest> make_cbw_test();
std::unique_ptr<PtsTest> make_xsr_test();
std::unique_ptr<PtsTest> make_hir_test();
std::unique_ptr<PtsTest> make_dirth_test();
std::unique_ptr<PtsTest> make_ecw_test();
std::unique_ptr<PtsTest> make_rww_sweep_test();
std::unique_ptr<PtsTest> make_rww_streams_test();
std::unique_ptr<PtsTest> make_rww_replay_test();
std::unique_ptr<PtsTest> make_endurance_write_test();
std::unique_ptr<PtsTest> make_latency_sweep_test();
std::unique_ptr<PtsTest> make_claims_test();

}  // namespace ptsuite::pts
