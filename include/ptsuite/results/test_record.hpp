// Contract: one test's record in a results document (results schema "#/$defs/test_record"),
// typed: its header (id, titles, section, revision, profile, TOIO, ActiveRange, data pattern,
// alignment, the parameters read from pts/ and the omitted sizes, write cache, status, times),
// the parts every record shares (purges, WIPC passes, Round phases, captures, the compliance
// verdict) and the test's own block as a std::variant of the block records, chosen by the
// block's key (`block_key`: "matrix", "table", "wsat", ...). The key -> record table, block_kinds(),
// is expanded from the one test list (results/test_kinds.def) that pts (writing) and report / compare /
// history (dispatching on the variant) key on; a test whose block no kind reads (a newer writer) holds
// std::monostate and its raw key. Tolerant like every results reader (results/json_read.hpp).
// Sub-records borrow from the document (results/embedded.hpp): it must outlive the record,
// which results::RunDocument guarantees by owning it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/applied_workload.hpp>
#include <ptsuite/results/capture.hpp>
#include <ptsuite/results/compliance.hpp>
#include <ptsuite/results/demand_sweep.hpp>
#include <ptsuite/results/grid_matrix.hpp>
#include <ptsuite/results/hir.hpp>
#include <ptsuite/results/latency_sweep.hpp>
#include <ptsuite/results/purge.hpp>
#include <ptsuite/results/round_phase.hpp>
#include <ptsuite/results/run_header.hpp>
#include <ptsuite/results/rww_replay.hpp>
#include <ptsuite/results/rww_streams.hpp>
#include <ptsuite/results/throughput_table.hpp>
#include <ptsuite/results/validation.hpp>
#include <ptsuite/results/wipc.hpp>
#include <ptsuite/results/write_stream.hpp>
#include <ptsuite/results/xsr.hpp>

namespace ptsuite::results {

// A value from pts/ with its provenance ("#/$defs/spec_value").
struct SpecValue {
  nlohmann::json value;
  std::string clause;
  std::string tag;
  std::string source;
};

struct ToioRecord {
  uint32_t threads = 0;
  uint32_t queue_depth = 0;
  bool operator_choice = false;
  std::optional<SettingRecord> threads_setting;
  std::optional<SettingRecord> queue_depth_setting;
};

struct ArSegments {
  uint64_t count = 0;
  std::string description;
  std::optional<uint64_t> amount_bytes;
};

// A value the procedure read from pts/ (settings applied), for the disclosure.
struct ParameterRecord {
  std::string path;  // "iops/segment_duration"
  nlohmann::json value;
  std::string clause;
  std::string tag;
  std::string source;
  std::string setting;  // the setting that supplied it, "" when none
};

struct OmittedEntry {
  std::string what;  // a size label: "0.5KiB"
  std::string reason;
};

struct TestHeader {
  std::string id;
  std::string title;
  std::string subtitle;
  SpecValue section;
  std::string spec_revision;
  std::string profile;
  std::optional<ToioRecord> toio;  // none for a TC x QD grid (CBW)
  double active_range_pct = 100;
  SpecValue write_cache_required;
  std::string data_pattern;
  std::string alignment;
  std::vector<ParameterRecord> parameters;
  std::vector<OmittedEntry> omitted;
  std::optional<WriteCacheRecord> write_cache;
  std::string status;
  std::string started_utc;
  std::string finished_utc;
  std::string boot_id;
  uint32_t max_queue_depth = 0;
  std::optional<ArSegments> ar_segments;
};

// The Throughput test's block as one value.
struct ThroughputTable {
  std::vector<ThroughputRow> rows;
};

ThroughputTable read_throughput_block(const nlohmann::json& block);

// Every block record of the one test list (results/test_kinds.def), in its order.
// clang-format off
using TestBlock = std::variant<std::monostate
#define PTSUITE_BLOCK(Record, reader) , Record
#include <ptsuite/results/test_kinds.def>
>;
// clang-format on

// The block kinds a test record can hold: the block's key in the record and how it is read.
struct BlockKind {
  std::string_view key;
  TestBlock (*read)(const nlohmann::json& block);
};
std::span<const BlockKind> block_kinds();
// The block written back as its record's to_json() writes it (null for std::monostate).
nlohmann::json write_block(const TestBlock& block);
const BlockKind* find_block_kind(std::string_view key);

struct TestRecord {
  TestHeader header;
  std::vector<PurgeRecord> purges;
  std::vector<WipcRecord> preconditioning;
  std::vector<RoundPhase> phases;
  std::vector<CaptureRecord> captures;
  ComplianceRecord compliance;
  bool has_compliance = false;                      // the record holds a verdict (absent while the test runs)
  std::optional<AppliedWorkload> applied_workload;  // the real-world-workload tests (docs/rww.md)
  std::string block_key;                            // "" when the record has no block
  TestBlock block;

  // The block as T, or null when the record holds another kind.
  template <typename T>
  [[nodiscard]] const T* block_as() const {
    return std::get_if<T>(&block);
  }
};

SpecValue read_spec_value(const nlohmann::json& j);
std::optional<SettingRecord> read_setting_record(const nlohmann::json& j);  // nullopt unless an object
TestHeader read_test_header(const nlohmann::json& test);
// `test` must outlive the record (borrowed sub-documents).
TestRecord read_test_record(const nlohmann::json& test);
// The writers (src/results/record_writers.cpp), declared beside the type so that `json j =
// record;` compiles wherever the type is complete: nlohmann decides once per translation unit
// whether a type converts, and a unity batch that asked before record_writers.hpp was included
// refused every later conversion in the batch.
void to_json(nlohmann::json& j, const TestRecord& r);
void to_json(nlohmann::json& j, TestRecord&& r);

}  // namespace ptsuite::results
