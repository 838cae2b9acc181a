#include <gtest/gtest.h>

#include <set>

#include <ptsuite/pts/definitions.hpp>
#include <ptsuite/pts/settings.hpp>
#include <ptsuite/util/embedded.hpp>
#include <ptsuite/util/error.hpp>

namespace ptsuite::pts {
namespace {

std::vector<SpecContext> all_contexts(const DefinitionSet& defs) {
  std::vector<SpecContext> out;
  for (const std::string& rev : defs.revisions()) {
    for (const std::string& prof : defs.profiles()) {
      out.push_back(SpecContext{rev, prof});
    }
  }
  return out;
}

TEST(Definitions, EmbeddedSetHasTheFiveCoreTestsBothProfilesAndRevisions) {
  const DefinitionSet& defs = DefinitionSet::embedded();
  const std::vector<std::string> ids = defs.test_ids();
  for (const char* id : {"iops", "throughput", "latency", "wsat", "cbw"}) {
    EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
  }
  EXPECT_EQ(defs.profiles(), (std::vector<std::string>{"client", "enterprise"}));
  EXPECT_EQ(defs.revisions(), (std::vector<std::string>{"2.0.2", "e1.1"}));
}

// Every value of every file resolves for every revision x profile and carries provenance;
// every [U] value is a setting or an explicitly fixed, disclosed convention.
TEST(Definitions, EveryValueHasProvenanceAndEveryUnverifiedValueIsDisclosed) {
  const DefinitionSet& defs = DefinitionSet::embedded();
  for (const SpecContext& ctx : all_contexts(defs)) {
    const std::vector<SpecValue> values = defs.all_values(ctx);
    EXPECT_GT(values.size(), 40u);
    for (const SpecValue& v : values) {
      SCOPED_TRACE(v.path + " @ " + ctx.revision + "/" + ctx.profile);
      EXPECT_FALSE(v.provenance.clause.empty());
      EXPECT_FALSE(v.provenance.source.empty());
      if (v.provenance.tag == Confidence::unverified) {
        EXPECT_TRUE(!v.setting.empty() || !v.fixed_reason.empty());
      }
      if (!v.setting.empty()) {
        EXPECT_FALSE(v.type.empty());
        EXPECT_FALSE(v.description.empty());
      }
    }
  }
}

TEST(Definitions, EveryEmbeddedFileParses) {
  size_t json_files = 0;
  for (const EmbeddedFile& f : embedded_files()) {
    if (f.path.size() > 5 && f.path.substr(f.path.size() - 5) == ".json") {
      ++json_files;
      EXPECT_TRUE(nlohmann::json::accept(f.content)) << f.path;
    }
  }
  EXPECT_GE(json_files, 9u);
}

TEST(Definitions, RevisionSpecificTrackingVariables) {
  const DefinitionSet& defs = DefinitionSet::embedded();
  const SpecValue v202 = DefinitionSet::resolve_field(defs.test("iops").at("tracking"), {"2.0.2", "enterprise"}, "t");
  const SpecValue v11 = DefinitionSet::resolve_field(defs.test("iops").at("tracking"), {"e1.1", "enterprise"}, "t");
  EXPECT_EQ(v202.value.size(), 3u);
  EXPECT_EQ(v11.value.size(), 1u);
  EXPECT_EQ(v202.provenance.tag, Confidence::verified);
  EXPECT_EQ(v11.provenance.tag, Confidence::inferred);
}

TEST(Definitions, IopsLoopsInSpecOrder) {
  const DefinitionSet& defs = DefinitionSet::embedded();
  const nlohmann::json& iops = defs.test("iops");
  EXPECT_EQ(iops.at("rw_mixes").at("value"),
            nlohmann::json({"100/0", "95/5", "65/35", "50/50", "35/65", "5/95", "0/100"}));
  EXPECT_EQ(iops.at("block_sizes").at("value"),
            nlohmann::json({"1024KiB", "128KiB", "64KiB", "32KiB", "16KiB", "8KiB", "4KiB", "0.5KiB"}));
}

TEST(Definitions, CbwMixSumsTo100) {
  const nlohmann::json& cbw = DefinitionSet::embedded().test("cbw");
  double bs_total = 0;
  for (const auto& e : cbw.at("block_size_mix").at("value")) {
    bs_total += e.at("pct").get<double>();
  }
  EXPECT_DOUBLE_EQ(bs_total, 100.0);
  double io = 0;
  double range = 0;
  for (const auto& z : cbw.at("zones").at("value")) {
    io += z.at("io_pct").get<double>();
    range += z.at("range_pct").get<double>();
  }
  EXPECT_DOUBLE_EQ(io, 100.0);
  EXPECT_DOUBLE_EQ(range, 100.0);
}

TEST(Definitions, UnknownProfileOrRevisionIsAUsageError) {
  const DefinitionSet& defs = DefinitionSet::embedded();
  EXPECT_THROW(defs.check_context({"3.0", "enterprise"}), UsageError);
  EXPECT_THROW(defs.check_context({"2.0.2", "laptop"}), UsageError);
}

TEST(Definitions, MalformedDataIsReportedAsADefect) {
  EXPECT_THROW(DefinitionSet::from_files({{"common.json", "{not json"}}), Error);
  EXPECT_THROW(DefinitionSet::from_files({{"tests/iops.json", "{}"}}), Error);  // no common.json
  const DefinitionSet defs =
      DefinitionSet::from_files({{"common.json", R"({"revisions":{"2.0.2":{}}})"},
                                 {"profiles/enterprise.json", "{}"},
                                 {"tests/x.json", R"({"id":"x","a":{"value":1,"tag":"V","source":"s"}})"}});
  EXPECT_THROW((void)defs.all_values({"2.0.2", "enterprise"}), Error);  // missing clause
}

TEST(Settings, DefaultsComeFromTheFilesAndProfile) {
  const DefinitionSet& defs = DefinitionSet::embedded();
  const Settings ent = Settings::build(defs, {"2.0.2", "enterprise"}, {}, {});
  EXPECT_EQ(ent.count("iops.threads"), 4u);
  EXPECT_EQ(ent.count("iops.queue_depth"), 32u);
  EXPECT_EQ(ent.count("throughput.threads"), 1u);
  EXPECT_EQ(ent.count("throughput.queue_depth"), 32u);
  EXPECT_EQ(ent.count("max_rounds"), 25u);
  EXPECT_EQ(ent.duration_ns("iops.segment_duration"), 60'000'000'000ull);
  EXPECT_EQ(ent.duration_ns("wsat.time_limit"), 6ull * 3600 * 1'000'000'000ull);
  EXPECT_DOUBLE_EQ(ent.number("active_range_pct"), 100.0);
  EXPECT_TRUE(ent.changed().empty());

  const Settings cli = Settings::build(defs, {"2.0.2", "client"}, {}, {});
  EXPECT_EQ(cli.count("iops.threads"), 2u);
  EXPECT_EQ(cli.count("iops.queue_depth"), 16u);
  EXPECT_DOUBLE_EQ(cli.number("active_range_pct"), 75.0);
  EXPECT_TRUE(cli.has("throughput.client_block_sizes"));
  EXPECT_FALSE(ent.has("throughput.client_block_sizes"));

  const Settings e11 = Settings::build(defs, {"e1.1", "enterprise"}, {}, {});
  EXPECT_EQ(e11.duration_ns("wsat.time_limit"), 24ull * 3600 * 1'000'000'000ull);
}

TEST(Settings, PresetThenOverridesAreAppliedAndRecorded) {
  const DefinitionSet& defs = DefinitionSet::embedded();
  const Settings s = Settings::build(defs, {"2.0.2", "enterprise"}, {"quick"},
                                     {{"iops.threads", "16"}, {"iops.queue_depth", "8"}, {"max_rounds", "7"}});
  EXPECT_EQ(s.count("iops.threads"), 16u);
  EXPECT_EQ(s.record("iops.threads").changed_by, "--set");
  EXPECT_EQ(s.count("max_rounds"), 7u);
  EXPECT_EQ(s.record("max_rounds").changed_by, "--set");
  EXPECT_EQ(s.duration_ns("iops.segment_duration"), 200'000'000ull);
  EXPECT_EQ(s.record("iops.segment_duration").changed_by, "preset:quick");
  EXPECT_GE(s.changed().size(), 10u);
}

TEST(Settings, BadOverridesAreUsageErrors) {
  const DefinitionSet& defs = DefinitionSet::embedded();
  const SpecContext ctx{"2.0.2", "enterprise"};
  EXPECT_THROW(Settings::build(defs, ctx, {}, {{"no.such.setting", "1"}}), UsageError);
  EXPECT_THROW(Settings::build(defs, ctx, {}, {{"iops.segment_duration", "fast"}}), UsageError);
  EXPECT_THROW(Settings::build(defs, ctx, {}, {{"iops.threads", "0"}}), UsageError);
  EXPECT_THROW(Settings::build(defs, ctx, {}, {{"wsat.workload", "gaming"}}), UsageError);
  EXPECT_THROW(Settings::build(defs, ctx, {}, {{"cbw.rw_mix", "40/50"}}), UsageError);
  EXPECT_THROW(parse_setting_assignment("novalue"), UsageError);
  EXPECT_THROW(parse_setting_assignment("=3"), UsageError);
  EXPECT_EQ(parse_setting_assignment("a.b=3").second, "3");
}

TEST(Settings, ApplyReplacesTheSpecValue) {
  const DefinitionSet& defs = DefinitionSet::embedded();
  const SpecContext ctx{"2.0.2", "enterprise"};
  const Settings s = Settings::build(defs, ctx, {}, {{"cbw.rw_mix", "60/40"}});
  const SpecValue v = s.apply(DefinitionSet::resolve_field(defs.test("cbw").at("rw_mix"), ctx, "cbw/rw_mix"));
  EXPECT_EQ(v.value, "60/40");
}

}  // namespace
}  // namespace ptsuite::pts
