// Contract: a capture's records -> its characterization (results/io_characterization.hpp,
// docs/capture.md "Characterization"). Streaming: add() every record in issue order (as
// capture files hold them), then finish(); memory is bounded by the number of distinct
// streams and steps, not by the capture's length.
//
// Definitions (docs/capture.md):
//   * stream = (SEQ or RND, transfer size, operation); an IO is SEQ when it starts exactly
//     where one of the last `seq_lookback` IOs of the same device and operation ended (the
//     look-back keeps several interleaved sequential streams - threads, files - sequential);
//     flushes form the stream "FLUSH" whatever their size.
//   * step = [origin + k x step_ns, origin + (k+1) x step_ns) of issue time; an IO belongs to the
//     step it was issued in (its latency too). The origin is the first record's issue time (a
//     capture of a running workload starts at its first IO, not at t0, when perf was still
//     being set up: the first step is never an empty one), or options.origin_ns when the caller
//     knows when the workload started (an app run's measured period); an IO issued before it
//     counts in step 0. The last step ends at the capture's end; shorter than step_ns, it is
//     marked partial (its rates over its own length; charts leave a stub out).
//   * queue depth: requests issued and not completed. qd_mean is time-weighted (each IO's
//     [issue, completion) interval is split across the steps it overlaps: the mean of a step
//     is its total in-flight time / step length, Little's law); qd_max is the most in flight
//     seen at an issue. IOs without a completion (lost events) count as IOs, not in latency
//     or queue depth.
//   * LBA heat map: the device's capacity in `lba_bins` equal bins, IOs by start offset.
// Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <tuple>
#include <vector>

#include <ptsuite/capture/capture_file.hpp>
#include <ptsuite/capture/io_record.hpp>
#include <ptsuite/results/io_characterization.hpp>
#include <ptsuite/stats/latency_histogram.hpp>

namespace ptsuite::capture {

inline constexpr uint64_t k_default_step_ns = 300'000'000'000ULL;  // 5 min, SNIA's reference captures
// Steps a characterization or replay keeps per capture: each step holds its counters, stream
// shares and 64 LBA bins (~1 KiB), so 100,000 steps are ~100 MiB, and cover 347 days of 5 min
// steps or 27.7 h of 1 s steps. A record later than that (a corrupt or hostile time) is refused.
inline constexpr uint64_t k_max_steps = 100'000;
// UsageError when step index `step` (of `step_ns` each) is beyond k_max_steps: names the time and
// says what to do (a longer --step, or check the capture's times).
void check_step_index(uint64_t step, uint64_t step_ns);

struct CharacterizeOptions {
  uint64_t step_ns = k_default_step_ns;
  uint32_t seq_lookback = 8;
  uint32_t lba_bins = 64;
  uint32_t step_streams = 12;  // top streams listed per step (the rest as "other")
  int device = -1;             // only this device index; -1: all
  // Where step 0 starts, since the capture's t0; nullopt: at the first record's issue time.
  std::optional<uint64_t> origin_ns;
};

class Characterizer {
 public:
  Characterizer(const CaptureHeader& header, CharacterizeOptions options);
  ~Characterizer();
  Characterizer(const Characterizer&) = delete;
  Characterizer& operator=(const Characterizer&) = delete;

  void add(const IoRecord& record);
  // `trailer`: the capture's own counts and length (nullopt for an incomplete file).
  results::IoCharacterization finish(const std::optional<CaptureTrailer>& trailer);

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

// Characterizes what `reader` has left to read (capture_file is not set).
results::IoCharacterization characterize_reader(CaptureReader& reader, const CharacterizeOptions& options);
// Reads a capture file and characterizes it.
results::IoCharacterization characterize_file(const std::string& path, const CharacterizeOptions& options);
// Characterizes a capture held in memory (capture_file.hpp); capture_file is set to `name`.
results::IoCharacterization characterize_bytes(std::string_view bytes, const std::string& name,
                                               const CharacterizeOptions& options);

// "4KiB", "128KiB", "1MiB", "520B": stream names' sizes.
std::string stream_size_text(uint32_t bytes);

}  // namespace ptsuite::capture
