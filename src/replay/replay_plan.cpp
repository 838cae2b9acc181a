// The pass over a capture before a replay, and the LBA remap (replay/replay_plan.hpp).
#include <ptsuite/replay/replay_plan.hpp>

#include <fmt/format.h>
#include <algorithm>
#include <array>

#include <ptsuite/util/error.hpp>
#include <ptsuite/util/sha256.hpp>

namespace ptsuite::replay {

PlacedIo map_to_target(uint64_t offset_bytes, uint32_t length_bytes, uint64_t capacity_bytes,
                       uint32_t logical_block_bytes) noexcept {
  PlacedIo p;
  const uint64_t block = logical_block_bytes;
  // Round the length up to whole logical blocks (a 512-byte IO on a 4096-byte target).
  const uint64_t length = (length_bytes + block - 1) / block * block;
  p.length_bytes = static_cast<uint32_t>(length);
  p.resized = length != length_bytes;
  // Offset modulo the capacity, aligned down; when the IO would run past the end it ends at
  // the last whole block instead (last_start = capacity rounded down to blocks - length).
  uint64_t offset = offset_bytes % capacity_bytes / block * block;
  const uint64_t last_start = capacity_bytes / block * block - length;
  offset = std::min(offset, last_start);
  p.offset_bytes = offset;
  p.remapped = offset != offset_bytes;
  return p;
}

ReplayPlan plan_replay(capture::CaptureReader& reader, uint16_t device, uint64_t step_ns) {
  if (device >= reader.header().devices.size()) {
    throw UsageError("--device", fmt::format("the capture has {} device(s); give an index from 0 to {}",
                                             reader.header().devices.size(),
                                             reader.header().devices.empty() ? 0 : reader.header().devices.size() - 1));
  }
  ReplayPlan plan;
  plan.device = device;
  StepMeter meter(step_ns);
  CapturedOutstanding outstanding;
  const auto on_complete = [&meter](uint64_t t, uint32_t n) { meter.in_flight(t, n); };
  std::vector<capture::IoRecord> batch(4096);
  bool first = true;
  Sha256 id;
  std::array<uint8_t, capture::k_record_bytes> encoded{};
  reader.rewind();
  for (size_t n = reader.read(batch); n > 0; n = reader.read(batch)) {
    for (size_t i = 0; i < n; ++i) {
      const capture::IoRecord& r = batch[i];
      capture::encode(r, encoded);  // the capture's identity: every record, as the file stores it
      id.update(encoded.data(), encoded.size());
      if (r.device != device) continue;
      ++plan.device_ios;
      if (!replayable(r)) continue;
      ++plan.replay_ios;
      // The replay waits for each IO's time after the one before: a damaged (or hostile) file
      // whose times go back would have it wait ~2^64 ns. Refused before anything is written.
      if (!first && r.issue_ns < plan.last_issue_ns) {
        throw UsageError("capture", fmt::format("IO {} of device {} is issued at {} ns, before the one ahead of it "
                                                "({} ns): a capture's records are in issue order (docs/capture.md); "
                                                "the file is damaged",
                                                plan.replay_ios, device, r.issue_ns, plan.last_issue_ns));
      }
      if (first) plan.first_issue_ns = r.issue_ns;
      first = false;
      plan.last_issue_ns = r.issue_ns;
      plan.end_ns = std::max({plan.end_ns, r.issue_ns + 1, r.completed() ? r.complete_ns : 0});
      plan.max_length_bytes = std::max<uint64_t>(plan.max_length_bytes, r.length_bytes);
      plan.writes = plan.writes || r.op == capture::IoOp::write;
      plan.has_completions = plan.has_completions || r.completed();
      const uint32_t in_flight = outstanding.issue(r, on_complete);
      plan.max_outstanding = std::max(plan.max_outstanding, in_flight);
      meter.issue(r.issue_ns, r.op == capture::IoOp::read ? Direction::read : Direction::write, r.length_bytes,
                  in_flight);
    }
  }
  outstanding.finish(on_complete);
  reader.rewind();
  plan.capture_id = "sha256:" + to_hex(id.final());
  plan.captured = meter.figures(plan.end_ns, 1.0, 0);
  return plan;
}

}  // namespace ptsuite::replay
