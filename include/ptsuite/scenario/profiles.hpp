// Contract: the named mixed-IO profiles scenarios refer to by "profile" (pts/mixes.json):
// SQL / Oracle database mixes at 70, 80 and 90 % read, VDI boot / initial login / Monday
// login for full and linked clones, and the plain 4 / 8 / 16 KiB random mixes. The review
// sites' exact VDbench definitions are not public: each profile here is ptsuite's own
// reconstruction from published descriptions, and says so ("basis"). Loaded once from the
// embedded data (thread-safe static init); a malformed built-in file is Error(system).
#pragma once

#include <string>
#include <vector>

#include <ptsuite/workload/workload_spec.hpp>

namespace ptsuite::scenario {

struct MixProfile {
  std::string name;
  std::string title;
  std::string basis;  // what it is reconstructed from, and what ptsuite chose
  workload::AccessPattern pattern = workload::AccessPattern::random;
  double read_pct = 100;
  std::vector<workload::BlockSizeWeight> block_sizes;
};

const std::vector<MixProfile>& mix_profiles();
const MixProfile* find_profile(const std::string& name);
std::string profile_names();  // "a, b, c" for error messages

}  // namespace ptsuite::scenario
