// Contract: a PTS test as a small class over the shared machinery (the procedures live in
// src/pts/procedures/, one file each, listed in pts/procedures/registry.hpp). A test reads its
// definition through TestSpec (which applies settings and records every value it read, with
// provenance, for disclosure), performs every action as a step through the executor
// (purge, WIPC, segments, Rounds via run_rounds), and returns its typed record
// (results/test_record.hpp, whose writer gives the object results.json stores under "tests"):
// begin_record() starts it, the procedure adds its purges, passes, phases and captures, and
// close_record() ends it with the test's own block and the disclosure of what it read. Tests never touch the device,
// clocks or files directly, so the same code runs for real, on resume (journal replay) and for `ptsuite plan`.
// PtsTest::run() wraps the procedure: it watches every step the procedure asks for and adds
// what the compliance verdict and the report header need about the stimulus as a whole
// (max_queue_depth: the deepest queue any segment used; ar_segments: how the ActiveRange was
// addressed, contiguous or in LBA zones).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/pts/definitions.hpp>
#include <ptsuite/pts/round_loop.hpp>
#include <ptsuite/pts/rw_mix.hpp>
#include <ptsuite/pts/settings.hpp>
#include <ptsuite/pts/step_executor.hpp>
#include <ptsuite/results/capture.hpp>
#include <ptsuite/results/purge.hpp>
#include <ptsuite/results/record_writers.hpp>
#include <ptsuite/results/test_record.hpp>
#include <ptsuite/results/wipc.hpp>

namespace ptsuite::pts {

struct TargetFacts {
  uint64_t capacity_bytes = 0;  // user capacity
  uint32_t logical_block_bytes = 512;
};

struct TestContext {
  const DefinitionSet& defs;
  SpecContext spec;
  const Settings& settings;
  StepExecutor& exec;
  TargetFacts target;
};

class PtsTest {
 public:
  virtual ~PtsTest() = default;
  [[nodiscard]] virtual std::string id() const = 0;
  // Runs the procedure and returns its record with max_queue_depth and ar_segments set.
  [[nodiscard]] results::TestRecord run(TestContext& ctx) const;

 protected:
  // The test itself: every step through ctx.exec; returns the record (close_record()).
  [[nodiscard]] virtual results::TestRecord procedure(TestContext& ctx) const = 0;
};

// The five core tests (registry.hpp: the group "core", what `ptsuite run` runs by default), every
// PTS test (the group "all": the core five, HIR, XSR, DIRTH), in the order `ptsuite run`
// executes them, and any registered test by id or alias (throws UsageError naming the known ones).
std::vector<std::string> core_test_ids();
std::vector<std::string> all_pts_test_ids();
std::unique_ptr<PtsTest> make_test(std::string_view id);

// Reads one test's definition for the context, applying settings; remembers what was read.
class TestSpec {
 public:
  TestSpec(const TestContext& ctx, std::string test_id);

  [[nodiscard]] const std::string& test_id() const noexcept { return m_id; }
  [[nodiscard]] const nlohmann::json& file() const noexcept { return m_file; }

  // `key` is a '/'-separated path into the test file ("precondition/round_duration").
  SpecValue get(std::string_view key);
  SpecValue common(std::string_view key);  // from pts/common.json
  bool has(std::string_view key) const;

  uint64_t duration_ns(std::string_view key);
  std::vector<uint64_t> block_sizes(std::string_view key);  // drops sizes the device cannot do
  std::vector<RwMix> rw_mixes(std::string_view key);
  RwMix rw_mix(std::string_view key);
  std::vector<uint32_t> counts(std::string_view key);

  // TOIO: the <test>.threads / <test>.queue_depth settings (defaults from the file/profile).
  uint32_t threads() const;
  uint32_t queue_depth() const;

  // Sizes of `block_sizes()` calls that the device cannot do (not a multiple of the logical
  // block), with the reason; the record discloses them.
  [[nodiscard]] const std::vector<results::OmittedEntry>& omitted() const noexcept { return m_omitted; }
  void omit(const std::string& what, const std::string& why);
  // Every value read, for disclosure (path, value, provenance, the setting that supplied it).
  [[nodiscard]] std::vector<results::ParameterRecord> parameters() const;

  [[nodiscard]] const TestContext& context() const noexcept { return m_ctx; }

 private:
  [[nodiscard]] uint32_t toio_member(const std::string& member) const;

  const TestContext& m_ctx;
  std::string m_id;
  const nlohmann::json& m_file;
  std::vector<SpecValue> m_read;
  std::vector<results::OmittedEntry> m_omitted;
};

// --- steps every test shares --------------------------------------------------------------

// The common record header: id, title, subtitle, section, revision, profile, TOIO, AR, data
// pattern, alignment; the shared lists empty.
results::TestRecord begin_record(TestSpec& spec);

// The record's end, one for every procedure: `block` under the test's record key (the one test
// list, procedures/registry.hpp), every value the procedure read (spec.parameters()) and the
// sizes it omitted.
results::TestRecord close_record(const TestSpec& spec, results::TestRecord rec, results::TestBlock block);

// Purge before a test or phase (method from the purge.method setting); returns its record
// (results/purge.hpp) with the phase set.
results::PurgeRecord purge_step(TestSpec& spec, const std::string& phase);

// WIPC: SEQ writes of `block_bytes` over the ActiveRange, wipc.capacity_multiple x user
// capacity, at the test's TOIO (and the PTS-C random pass under wipc.random); returns its record.
results::WipcRecord wipc_step(TestSpec& spec, const std::string& phase, uint64_t block_bytes, uint32_t threads,
                              uint32_t queue_depth);

// The common WIPC block size (pts/common.json wipc/block_size: SEQ 128 KiB).
uint64_t wipc_block_bytes(TestSpec& spec);

// Steady-state criteria and round limits from pts/common.json + settings.
void apply_round_rules(TestSpec& spec, RoundLoopSpec& loop);

// A fixed-size segment.
SegmentSpec make_segment(workload::AccessPattern pattern, RwMix mix, uint64_t block_bytes, uint32_t threads,
                         uint32_t queue_depth, uint64_t duration_ns);

// A capture segment's record: spec, result, the confidence-level (cumulative) series and the
// display-ready histogram bars (histogram_bars()).
results::CaptureRecord capture_record(const std::string& name, const SegmentSpec& spec, const SegmentResult& result);

// The response-time histogram of a capture as the report draws it: one bar per 1/16 octave
// (8 adjacent buckets of the exact 1/128-octave histogram, too narrow to see one by one), so
// every IO is in exactly one bar, in ascending order, upper_ns exclusive.
std::vector<results::HistogramBar> histogram_bars(const stats::LatencyHistogram& histogram);

// What a stimulus is, as the report header names it: "RND 4KiB 100% W", "SEQ 128KiB R/W 90/10",
// "RND CBW mix 100% W".
std::string stimulus_text(const SegmentSpec& spec);

// The record's subtitle from the test file's "subtitle", with "{stimulus}" replaced by
// stimulus_text(spec) (WSAT names the workload that ran).
std::string subtitle_for(TestSpec& spec, const SegmentSpec& stimulus);

}  // namespace ptsuite::pts
