// Contract: the reports of a replay (results/replay.hpp, docs/replay.md), rendered from the
// typed record only:
//   replay_text()  what `ptsuite replay` prints: capture, target, mode and speed, the IOs
//                  replayed / skipped / remapped, the issue-time error, the settings, and one
//                  line per step: captured vs replayed IOPS, MB/s, read %, mean outstanding,
//                  issue error p50 / p99 / max, "behind" when the step could not keep up, and
//                  whether the block-size distribution was reproduced exactly
//   replay_html()  the same as a document: summary and settings, the per-step table, IOPS and
//                  issue-error charts, and per step the block-size distributions side by side
//   replay_csv()   replay.csv: one row per step, the captured and replayed figures side by side
// In open loop the replay's expected IOPS and MB/s are the capture's x speed. Pure functions.
#pragma once

#include <string>

#include <ptsuite/results/replay.hpp>

namespace ptsuite::report {

std::string replay_text(const results::ReplayRecord& r);
std::string replay_html(const results::ReplayRecord& r);
std::string replay_csv(const results::ReplayRecord& r);

// The step's replayed sizes equal the captured ones (every size, every count).
bool sizes_reproduced(const results::ReplayStep& s);

}  // namespace ptsuite::report
