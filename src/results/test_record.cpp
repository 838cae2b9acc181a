#include <array>
#include <type_traits>

#include <ptsuite/results/json_read.hpp>
#include <ptsuite/results/test_record.hpp>

namespace ptsuite::results {

using nlohmann::json;

ThroughputTable read_throughput_block(const json& block) { return ThroughputTable{read_throughput_table(block)}; }

namespace {

// One reader per block record of the test list, chosen by the record's type.
#define PTSUITE_BLOCK(Record, reader) \
  TestBlock read_block(std::type_identity<Record> /*kind*/, const json& block) { return TestBlock{reader(block)}; }
#include <ptsuite/results/test_kinds.def>

template <typename Record>
TestBlock read_as(const json& block) {
  return read_block(std::type_identity<Record>{}, block);
}

// Every block key a test record may hold, with its record: one per test of the list (iops and
// latency share "matrix"; the results schema's branches are generated from the same list,
// .ci/generate-results-schema).
constexpr auto k_block_kinds = std::to_array<BlockKind>({
#define PTSUITE_TEST(name, id, group, block_key, Record, schema_def) {block_key, read_as<Record>},
#include <ptsuite/results/test_kinds.def>
});

ParameterRecord read_parameter(const json& j) {
  return {str(j, "path"), at(j, "value"), str(j, "clause"), str(j, "tag"), str(j, "source"), str(j, "setting")};
}

std::optional<ToioRecord> read_toio(const json& j) {
  if (!j.is_object()) {
    return std::nullopt;
  }
  return ToioRecord{count32(at(j, "threads")), count32(at(j, "queue_depth")), flag(at(j, "operator_choice")),
                    read_setting_record(at(j, "threads_setting")), read_setting_record(at(j, "queue_depth_setting"))};
}

}  // namespace

std::span<const BlockKind> block_kinds() { return k_block_kinds; }

const BlockKind* find_block_kind(std::string_view key) {
  for (const BlockKind& kind : k_block_kinds) {
    if (kind.key == key) {
      return &kind;
    }
  }
  return nullptr;
}

json write_block(const TestBlock& block) {
  return std::visit(
      [](const auto& record) -> json {
        using T = std::decay_t<decltype(record)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return nullptr;
        } else if constexpr (std::is_same_v<T, ThroughputTable>) {
          return json(record.rows);
        } else {
          return json(record);
        }
      },
      block);
}

SpecValue read_spec_value(const json& j) { return {at(j, "value"), str(j, "clause"), str(j, "tag"), str(j, "source")}; }

TestHeader read_test_header(const json& test) {
  TestHeader h;
  h.id = str(test, "id");
  h.title = str(test, "title");
  h.subtitle = str(test, "subtitle");
  h.section = read_spec_value(at(test, "section"));
  h.spec_revision = str(test, "spec_revision");
  h.profile = str(test, "profile");
  h.toio = read_toio(at(test, "toio"));
  if (const json& ar = at(test, "active_range_pct"); ar.is_number()) {
    h.active_range_pct = ar.get<double>();
  }
  h.write_cache_required = read_spec_value(at(test, "write_cache_required"));
  h.data_pattern = str(test, "data_pattern");
  h.alignment = str(test, "alignment");
  h.parameters = read_each(at(test, "parameters"), read_parameter);
  h.omitted = read_each(at(test, "omitted"), [](const json& o) {
    return OmittedEntry{str(o, "what"), str(o, "reason")};
  });
  h.write_cache = read_write_cache_record(at(test, "write_cache"));
  h.status = str(test, "status");
  h.started_utc = str(test, "started_utc");
  h.finished_utc = str(test, "finished_utc");
  h.boot_id = str(test, "boot_id");
  h.max_queue_depth = count32(at(test, "max_queue_depth"));
  if (const json& ar = at(test, "ar_segments"); ar.is_object()) {
    h.ar_segments = ArSegments{count(at(ar, "count")), str(ar, "description"), opt_count(at(ar, "amount_bytes"))};
  }
  return h;
}

TestRecord read_test_record(const json& test) {
  TestRecord r;
  r.header = read_test_header(test);
  r.purges = read_purges(at(test, "purges"));
  r.preconditioning = read_wipcs(at(test, "preconditioning"));
  r.phases = read_round_phases(at(test, "phases"));
  r.captures = read_captures(at(test, "captures"));
  r.compliance = read_compliance(at(test, "compliance"));
  if (const json& applied = at(test, "applied_workload"); applied.is_object()) {
    r.applied_workload = read_applied_workload(applied);
  }
  r.has_compliance = at(test, "compliance").is_object();
  for (const BlockKind& kind : k_block_kinds) {
    if (const json& block = at(test, kind.key); !block.is_null()) {
      r.block_key = std::string(kind.key);
      r.block = kind.read(block);
      break;
    }
  }
  return r;
}

}  // namespace ptsuite::results
