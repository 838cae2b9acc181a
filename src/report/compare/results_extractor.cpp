// The extractor of "ptsuite.results" documents (docs/results.md): the facts of a run and, per
// test, the workload fields that must match for an overlay.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <ptsuite/results/document_envelope.hpp>
#include <ptsuite/results/run_document.hpp>
#include <ptsuite/results/segment_result.hpp>
#include <ptsuite/results/setting_text.hpp>
#include <ptsuite/results/test_record.hpp>
#include <ptsuite/util/units.hpp>

#include "report/compare/extractors.hpp"
#include "report/results_read.hpp"
#include "report/writer_internal.hpp"

namespace ptsuite::report::compare {

namespace {

using nlohmann::json;

void add_unique(std::vector<std::string>& list, const std::string& item) {
  if (!item.empty() && std::find(list.begin(), list.end(), item) == list.end()) {
    list.push_back(item);
  }
}

std::string joined_list(const std::vector<std::string>& list) {
  std::string out;
  for (const std::string& s : list) {
    out += (out.empty() ? "" : ", ") + s;
  }
  return out;
}

// A weight as the document spells it (a double: 4.0 -> "4.0").
std::string weight_text(double weight) { return json(weight).dump(); }

// "4KiB", or "mix 0.5KiB:4.0, 4KiB:67.0" for a weighted block-size distribution.
std::string block_sizes_text(const std::vector<results::WeightedBlockSize>& block_sizes) {
  if (block_sizes.size() == 1) {
    return units::format_size_binary(block_sizes[0].bytes);
  }
  std::string out;
  for (const results::WeightedBlockSize& b : block_sizes) {
    out +=
        fmt::format("{}{}:{}", out.empty() ? "mix " : ", ", units::format_size_binary(b.bytes), weight_text(b.weight));
  }
  return out;
}

// What a segment spec (pts/segment.hpp, embedded in the records) says about the stimulus.
struct SpecFacts {
  std::vector<results::WeightedBlockSize> block_sizes;
  std::string rw_mix;
  std::string toio;  // "TC 4 x QD 32"
};

SpecFacts spec_facts(const results::SegmentSpecRecord& spec) {
  const auto count_text = [](const std::optional<uint32_t>& n) { return n ? std::to_string(*n) : std::string(); };
  SpecFacts f;
  for (const results::BlockSizeRecord& b : spec.block_sizes) {
    f.block_sizes.push_back({b.bytes.value_or(0), b.weight});
  }
  f.rw_mix = spec.rw_mix;
  f.toio = fmt::format("TC {} x QD {}", count_text(spec.threads), count_text(spec.queue_depth));
  return f;
}

std::string counts_text(const std::vector<uint32_t>& counts) {
  std::string out;
  for (uint32_t n : counts) {
    out += (out.empty() ? "" : ", ") + std::to_string(n);
  }
  return out;
}

// The workload fields a test's own block adds: a write stream's sample segment and workload
// (WSAT, endurance-write), a demand sweep's TC x QD grid and block-size mix (CBW, DIRTH, ECW,
// rww-sweep); `specs` collects the block's segment spec.
void block_workload(const results::TestRecord& test, std::vector<results::SegmentSpecRecord>& specs,
                    std::vector<Field>& workload) {
  std::visit(
      [&](const auto& block) {
        using Block = std::decay_t<decltype(block)>;
        if constexpr (std::is_same_v<Block, results::WriteStreamBlock>) {
          if (block.segment.get().is_object()) {
            specs.push_back(results::read_segment_spec(block.segment));
          }
          workload.emplace_back("WSAT workload", block.workload);
        } else if constexpr (std::is_same_v<Block, results::DemandSweepBlock>) {
          workload.emplace_back("thread counts", counts_text(block.thread_counts));
          workload.emplace_back("queue depths", counts_text(block.queue_depths));
          workload.emplace_back("block size mix", block_sizes_text(block.block_size_mix));
        }
      },
      test.block);
}

TestFacts test_facts(const results::TestRecord& test) {
  const results::TestHeader& h = test.header;
  TestFacts t;
  t.id = h.id;
  t.title = h.title;
  // The segment specs the stimulus is made of: every Round template entry, then the block's.
  std::vector<results::SegmentSpecRecord> specs;
  for (const results::RoundPhase& phase : test.phases) {
    for (const results::Embedded& s : phase.round_template) {
      specs.push_back(results::read_segment_spec(s));
    }
  }
  std::vector<Field> block_fields;
  block_workload(test, specs, block_fields);
  std::vector<std::string> sizes;
  std::vector<std::string> mixes;
  std::vector<std::string> toios;
  for (const results::SegmentSpecRecord& spec : specs) {
    const SpecFacts f = spec_facts(spec);
    add_unique(sizes, block_sizes_text(f.block_sizes));
    add_unique(mixes, f.rw_mix);
    add_unique(toios, f.toio);
  }
  t.workload = {{"TOIO", h.toio ? fmt::format("TC {} x QD {}", h.toio->threads, h.toio->queue_depth)
                                : std::string("swept (no single TOIO)")},
                {"active range (%)", json(h.active_range_pct).dump()},
                {"data pattern", h.data_pattern},
                {"block sizes", joined_list(sizes)},
                {"R/W mixes", joined_list(mixes)},
                {"segment TC x QD", joined_list(toios)}};
  t.workload.insert(t.workload.end(), block_fields.begin(), block_fields.end());
  return t;
}

// The drive compare matches runs on; "" (unknown) reads as null. The capacity is the device's,
// else the target's.
results::DriveIdentity identity_of(const results::RunHeader& h) {
  const auto known = [](const std::string& v) { return v.empty() ? std::nullopt : std::optional<std::string>(v); };
  const uint64_t capacity = h.device.capacity_bytes != 0 ? h.device.capacity_bytes : h.target.capacity_bytes;
  return {known(h.device.vendor),   known(h.device.model),     known(h.device.serial),
          known(h.device.firmware), known(h.device.transport), capacity != 0 ? std::optional(capacity) : std::nullopt};
}

class ResultsRun final : public ComparableRun {
 public:
  explicit ResultsRun(results::RunDocument doc) : m_doc(std::move(doc)) {}

  [[nodiscard]] RunFacts facts() const override {
    const results::RunHeader& h = m_doc.header;
    RunFacts f;
    f.identity = identity_of(h);
    f.revision = h.spec.revision;
    f.profile = h.spec.profile;
    f.started_utc = h.run.sessions.started_utc;
    f.tested_by = h.config.tested_by;
    f.simulated = h.simulation.has_value();
    f.workload = {{"spec revision", f.revision}, {"profile", f.profile}};
    const std::string presets = joined_list(h.config.presets);
    f.settings =
        std::vector<Field>{{"presets", presets.empty() ? "none" : presets},
                           {"engine", h.config.engine},
                           {"ptsuite version", fmt::format("{} (git {})", h.tool.version, h.tool.git_revision)}};
    for (const results::SettingRecord& s : h.settings) {
      f.settings.emplace_back(s.name, results::setting_value_text(s));
    }
    for (const results::TestRecord& test : m_doc.tests) {
      f.tests.push_back(test_facts(test));
    }
    return f;
  }

  [[nodiscard]] std::vector<Group> groups(const std::string& test_id) const override {
    const results::TestRecord* test = m_doc.find_test(test_id);
    return test == nullptr ? std::vector<Group>{} : results_test_groups(*test);
  }

 private:
  results::RunDocument m_doc;
};

class ResultsExtractor final : public ValueExtractor {
 public:
  [[nodiscard]] std::string_view kind() const override { return "ptsuite.results"; }

  [[nodiscard]] std::unique_ptr<const ComparableRun> read(std::shared_ptr<const json> document,
                                                          const std::string& what) const override {
    check_results_document(results::read_envelope(*document), what);
    return std::make_unique<const ResultsRun>(results::read_run_document(std::move(document)));
  }
};

}  // namespace

std::unique_ptr<ValueExtractor> make_results_extractor() { return std::make_unique<ResultsExtractor>(); }

}  // namespace ptsuite::report::compare
