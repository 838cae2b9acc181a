// Contract: a replay's document (results/replay.hpp, kind "ptsuite.replay") as compact JSON
// text, built a step at a time, for `ptsuite replay`'s results.json: a long replay's steps never
// exist as one JSON tree (99,000 steps: ~60 MB of text instead of ~600 MB of tree and text;
// ReplayMemory.ALongSparseCaptureReplaysWithinBoundedMemory). The same document as to_json()
// (keys in the same order, no indentation), ending with a newline. Pure; thread-safe.
#pragma once

#include <string>

#include <ptsuite/results/replay.hpp>

namespace ptsuite::results {

std::string to_json_text(const ReplayRecord& record);

}  // namespace ptsuite::results
