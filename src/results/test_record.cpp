#include <array>
#include <type_traits>
#include <utility>

#include <ptsuite/results/json_read.hpp>
#include <ptsuite/results/record_writers.hpp>
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

namespace {

// One body for the copying and the releasing block writer: `Block` is `const TestBlock` or
// `TestBlock` (then each record is written as an rvalue and hands its sub-documents over).
template <typename Block>
json write_any_block(Block& block) {
  return std::visit(
      [](auto& record) -> json {
        using T = std::decay_t<decltype(record)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return nullptr;
        } else if constexpr (std::is_same_v<T, ThroughputTable>) {
          return json(record.rows);
        } else if constexpr (std::is_const_v<Block>) {
          return json(record);
        } else {
          return json(std::move(record));
        }
      },
      block);
}

}  // namespace

json write_block(const TestBlock& block) { return write_any_block(block); }

json write_block(TestBlock&& block) { return write_any_block(block); }

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

void to_json(json& j, const SpecValue& v) {
  j = json{{"value", v.value}, {"clause", v.clause}, {"tag", v.tag}, {"source", v.source}};
}

void to_json(json& j, const ToioRecord& t) {
  j = json{{"threads", t.threads}, {"queue_depth", t.queue_depth}, {"operator_choice", t.operator_choice}};
  if (t.threads_setting) {
    j["threads_setting"] = *t.threads_setting;
  }
  if (t.queue_depth_setting) {
    j["queue_depth_setting"] = *t.queue_depth_setting;
  }
}

void to_json(json& j, const ParameterRecord& p) {
  j = json{{"path", p.path}, {"value", p.value}, {"clause", p.clause}, {"tag", p.tag}, {"source", p.source}};
  if (!p.setting.empty()) {
    j["setting"] = p.setting;
  }
}

void to_json(json& j, const OmittedEntry& o) { j = json{{"what", o.what}, {"reason", o.reason}}; }

void to_json(json& j, const ArSegments& a) {
  j = json{{"count", a.count}, {"description", a.description}};
  if (a.amount_bytes) {
    j["amount_bytes"] = *a.amount_bytes;
  }
}

namespace {

json header_json(const TestHeader& h) {
  json j{{"id", h.id},
         {"title", h.title},
         {"subtitle", h.subtitle},
         {"section", h.section},
         {"spec_revision", h.spec_revision},
         {"profile", h.profile},
         {"toio", h.toio ? json(*h.toio) : json(nullptr)},
         {"active_range_pct", h.active_range_pct},
         {"write_cache_required", h.write_cache_required},
         {"data_pattern", h.data_pattern},
         {"alignment", h.alignment},
         {"parameters", h.parameters},
         {"omitted", h.omitted},
         {"max_queue_depth", h.max_queue_depth}};
  for (const auto& [key, text] : {std::pair{"status", &h.status}, std::pair{"started_utc", &h.started_utc},
                                  std::pair{"finished_utc", &h.finished_utc}, std::pair{"boot_id", &h.boot_id}}) {
    if (!text->empty()) {
      j[key] = *text;
    }
  }
  if (h.write_cache) {
    j["write_cache"] = *h.write_cache;
  }
  if (h.ar_segments) {
    j["ar_segments"] = *h.ar_segments;
  }
  return j;
}

// Each item copied (`Items` a const vector) or, from a record being released, written as an
// rvalue, handing its owned sub-documents over.
template <typename Items>
json write_items(Items& items) {
  json out = json::array();
  for (auto& item : items) {
    if constexpr (std::is_const_v<Items>) {
      out.push_back(json(item));
    } else {
      out.push_back(json(std::move(item)));
    }
  }
  return out;
}

// One body for both writers: `Record` is `const TestRecord` (copies) or `TestRecord` (releases).
template <typename Record>
void write_test_record(json& j, Record& r) {
  j = header_json(r.header);
  j["purges"] = r.purges;
  j["preconditioning"] = write_items(r.preconditioning);
  j["phases"] = write_items(r.phases);
  j["captures"] = write_items(r.captures);
  if (r.has_compliance) {
    j["compliance"] = r.compliance;
  }
  if (r.applied_workload) {
    j["applied_workload"] = to_json(*r.applied_workload);
  }
  if (!r.block_key.empty()) {
    j[r.block_key] = write_any_block(r.block);
  }
}

}  // namespace

void to_json(json& j, const TestRecord& r) { write_test_record(j, r); }

void to_json(json& j, TestRecord&& r) { write_test_record(j, r); }

}  // namespace ptsuite::results
