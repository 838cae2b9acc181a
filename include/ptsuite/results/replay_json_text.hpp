// Contract: a replay's document (results/replay.hpp, kind "ptsuite.replay") as compact JSON
// text, built a step at a time, for `ptsuite replay`'s results.json: a long replay's steps never
// exist as one JSON tree, nor (write_json_text) as one text (99,000 steps measured with their
// response times: ~200 MB of text held by to_json_text, ~1 MiB by write_json_text;
// ReplayMemory.ALongSparseCaptureReplaysWithinBoundedMemory). The same document as to_json()
// (keys in the same order, no indentation), ending with a newline. Pure; thread-safe.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <ptsuite/results/replay.hpp>

namespace ptsuite::results {

// The text in consecutive parts of about 1 MiB (the first and last may be shorter), in order:
// their concatenation is to_json_text(record). For a file written as it grows.
void write_json_text(const ReplayRecord& record, const std::function<void(std::string_view)>& sink);
std::string to_json_text(const ReplayRecord& record);

}  // namespace ptsuite::results
