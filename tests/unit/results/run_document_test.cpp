// results::RunDocument: every fixture reads into the typed document, the header fields are the
// document's, every test holds the block of its registered key in the variant and writes it
// back byte for byte, and partial documents read with defaults.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <type_traits>
#include <variant>

#include <nlohmann/json.hpp>

#include <ptsuite/pts/procedures/registry.hpp>
#include <ptsuite/results/run_document.hpp>
#include <ptsuite/results/test_kinds.hpp>

#include "support/results_fixture.hpp"

namespace ptsuite::results {
namespace {

using nlohmann::json;

// Each registered id visits its own tag (results/test_kinds.hpp), whose block key is the
// registry's and whose block record is the one its block kind reads; another id visits unknown.
TEST(RunDocument, EveryRegisteredIdVisitsItsTestKind) {
  for (const pts::ProcedureInfo& p : pts::procedures()) {
    SCOPED_TRACE(std::string(p.id));
    const auto [id, key, holds] = visit_test_kind(p.id, [&](auto kind) {
      using Kind = decltype(kind);
      const BlockKind* block_kind = find_block_kind(Kind::block_key);
      const bool reads_its_record =
          block_kind != nullptr && std::holds_alternative<typename Kind::Block>(block_kind->read(json::object()));
      return std::tuple{Kind::id, Kind::block_key, reads_its_record};
    });
    EXPECT_EQ(id, p.id);
    EXPECT_EQ(key, p.record_key);
    EXPECT_TRUE(holds);
  }
  EXPECT_EQ(visit_test_kind("jesd219", [](auto kind) { return decltype(kind)::id; }), "");
  EXPECT_TRUE(visit_test_kind("jesd219", [](auto kind) { return std::is_same_v<decltype(kind), test_kind::unknown>; }));
}

TEST(RunDocument, FixturesReadTheirHeaderAndEveryBlockTyped) {
  for (const std::string& name : test_support::results_fixture_names()) {
    SCOPED_TRACE(name);
    const json& j = test_support::load_results_fixture(name);
    const RunDocument doc = read_run_document(j);
    EXPECT_EQ(doc.header.tool.version, j.at("tool").at("version").get<std::string>());
    EXPECT_EQ(doc.header.spec.revision, j.at("spec").at("revision").get<std::string>());
    EXPECT_EQ(doc.header.config.seed, j.at("config").at("seed").get<uint64_t>());
    EXPECT_EQ(doc.header.run.sessions.started_utc, j.at("run").at("started_utc").get<std::string>());
    EXPECT_EQ(doc.header.run.status, j.at("run").at("status").get<std::string>());
    EXPECT_EQ(doc.header.target.capacity_bytes, j.at("target").at("capacity_bytes").get<uint64_t>());
    EXPECT_EQ(doc.header.device.transport, j.at("device").at("transport").get<std::string>());
    EXPECT_EQ(doc.header.settings.size(), j.at("settings").size());
    EXPECT_EQ(doc.header.conventions.size(), j.at("conventions").size());
    ASSERT_TRUE(doc.header.plan.has_value());
    EXPECT_EQ(doc.header.plan->worst_case_ns, j.at("plan").at("worst_case_ns").get<uint64_t>());
    EXPECT_TRUE(doc.has_compliance);
    EXPECT_EQ(doc.compliance.summary, j.at("compliance").at("summary").get<std::string>());
    ASSERT_EQ(doc.tests.size(), j.at("tests").size());
    for (size_t i = 0; i < doc.tests.size(); ++i) {
      const TestRecord& t = doc.tests[i];
      const json& jt = j.at("tests").at(i);
      const std::string key(pts::find_procedure(t.header.id).record_key);
      SCOPED_TRACE(t.header.id);
      EXPECT_EQ(t.header.id, jt.at("id").get<std::string>());
      EXPECT_EQ(t.header.title, jt.at("title").get<std::string>());
      EXPECT_EQ(t.header.parameters.size(), jt.at("parameters").size());
      EXPECT_EQ(t.phases.size(), jt.at("phases").size());
      EXPECT_EQ(t.has_compliance, jt.at("compliance").is_object());
      EXPECT_EQ(t.block_key, key);
      EXPECT_FALSE(std::holds_alternative<std::monostate>(t.block));
      EXPECT_EQ(write_block(t.block).dump(), jt.at(key).dump());
      EXPECT_EQ(doc.find_test(t.header.id), &t);
    }
  }
}

TEST(RunDocument, PartialAndForeignDocumentsReadWithDefaults) {
  const RunDocument empty = read_run_document(json::object());
  EXPECT_TRUE(empty.tests.empty());
  EXPECT_FALSE(empty.has_compliance);
  EXPECT_FALSE(empty.header.plan.has_value());
  EXPECT_EQ(empty.header.device.serial, "");
  EXPECT_FALSE(empty.header.preflight_recorded);  // a run older than the host preflight
  EXPECT_TRUE(read_run_document(json::parse(R"({"preflight": []})")).header.preflight_recorded);
  EXPECT_FALSE(read_run_document(json::parse(R"({"preflight": null})")).header.preflight_recorded);

  const RunDocument odd = read_run_document(json::parse(R"({
    "device": {"serial": null, "rotational": false, "write_cache": {"present": true, "enabled": null}},
    "tests": [{"id": "future-test", "title": 7, "future_block": {"x": 1}}, 3]
  })"));
  EXPECT_EQ(odd.header.device.serial, "");
  EXPECT_EQ(odd.header.device.rotational, std::optional<bool>(false));
  EXPECT_EQ(odd.header.device.write_cache_present, std::optional<bool>(true));
  EXPECT_FALSE(odd.header.device.write_cache_enabled.has_value());
  ASSERT_EQ(odd.tests.size(), 2u);
  EXPECT_EQ(odd.tests[0].header.id, "future-test");
  EXPECT_EQ(odd.tests[0].header.title, "7");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(odd.tests[0].block));
  EXPECT_EQ(odd.tests[0].block_key, "");
  EXPECT_FALSE(odd.tests[0].has_compliance);
  EXPECT_EQ(odd.tests[1].header.id, "");
  EXPECT_EQ(odd.find_test("nothing"), nullptr);
}

TEST(RunDocument, RecordsBorrowFromTheDocumentItOwns) {
  const json& j = test_support::load_results_fixture("steady");
  RunDocument doc = read_run_document(j);
  const RunDocument moved = std::move(doc);
  ASSERT_FALSE(moved.tests.empty());
  ASSERT_FALSE(moved.tests[0].phases.empty());
  // A Round's segment result is borrowed from the owned tree; it survives the move.
  EXPECT_EQ(&moved.source(), moved.source_json.get());
  EXPECT_TRUE(moved.source().at("tests").is_array());
}

}  // namespace
}  // namespace ptsuite::results
