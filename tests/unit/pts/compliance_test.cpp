#include <gtest/gtest.h>

#include <ptsuite/pts/compliance.hpp>
#include <ptsuite/pts/test_procedure.hpp>

#include "support/fake_step_executor.hpp"

namespace ptsuite::pts {
namespace {

using nlohmann::json;

// Runs one test over the fake executor with a given purge record and write-cache record, the
// way the orchestrator completes a record, and judges it.
struct Judged {
  json record;
  ComplianceVerdict verdict;
};

// Not applicable (a loop device): the state is unknown (null), as device::read_write_cache reports it.
json write_cache_record(bool applicable, bool enabled) {
  json applied{{"applicable", applicable},
               {"enabled", applicable ? json(enabled) : json()},
               {"note", applicable ? "" : "loop device"}};
  return json{{"requested_enabled", enabled}, {"original", applied}, {"applied", applied}};
}

json good_purge() { return {{"method", "nvme-format"}, {"pts_compliant", true}, {"outcome", "succeeded"}}; }

Judged judge(const std::string& test, std::vector<std::pair<std::string, std::string>> overrides = {},
             std::vector<std::string> presets = {}, json purge = good_purge(),
             json wc = write_cache_record(true, false), double iops_noise = 0, const std::string& engine = "libaio",
             const SpecContext& spec = {"2.0.2", "enterprise"}) {
  const Settings settings = Settings::build(DefinitionSet::embedded(), spec, presets, overrides);
  // With noise, odd Rounds are (1 + noise) times the even ones in IOPS and latency alike.
  auto factor = [iops_noise](const StepId& id) {
    const bool odd = !id.name.empty() && id.name[0] == 'r' && (id.name[3] - '0') % 2 == 1;
    return 1.0 + (odd ? iops_noise : 0.0);
  };
  testing::FakeExecutor exec(
      [factor](const StepId& id, const SegmentSpec&) { return 1000.0 * factor(id); },
      [factor](const StepId& id, const SegmentSpec&) { return static_cast<uint64_t>(100'000.0 * factor(id)); });
  exec.purge_result = std::move(purge);
  TestContext ctx{DefinitionSet::embedded(), spec, settings, exec, {1ull << 30, 512}};
  Judged j;
  j.record = make_test(test)->run(ctx);
  j.record["write_cache"] = std::move(wc);
  j.record["status"] = "complete";
  j.verdict = evaluate_test_compliance(j.record, {DefinitionSet::embedded(), settings, engine});
  return j;
}

const ClauseVerdict* find(const ComplianceVerdict& v, const std::string& clause, ClauseStatus status) {
  for (const ClauseVerdict& c : v.clauses) {
    if (c.clause == clause && c.status == status) {
      return &c;
    }
  }
  return nullptr;
}

// WSAT under wsat.stop_rule=steady-state is judged on its check samples like a Round loop.
TEST(Compliance, WsatSteadyStateStopRuleIsJudgedOnItsCheckSamples) {
  const Judged j = judge("wsat", {{"wsat.stop_rule", "steady-state"}, {"wsat.sample_duration", "1s"}});
  const ClauseVerdict* ss = find(j.verdict, "steady_state", ClauseStatus::pass);
  ASSERT_NE(ss, nullptr);
  EXPECT_EQ(ss->detail, "WSAT stopped at steady state of its check samples, Rounds 1-5");
  EXPECT_EQ(find(j.verdict, "steady_state", ClauseStatus::not_applicable), nullptr);
  const Judged plain = judge("wsat", {{"wsat.sample_duration", "1s"}, {"wsat.time_limit", "3s"}});
  EXPECT_NE(find(plain.verdict, "steady_state", ClauseStatus::not_applicable), nullptr);
}

TEST(Compliance, SpecRunWithRealPurgeAndWcdIsCompliant) {
  const Judged j = judge("iops");
  EXPECT_TRUE(j.verdict.compliant) << json(j.verdict).dump(1);
  EXPECT_EQ(j.verdict.summary, "compliant");
  EXPECT_NE(find(j.verdict, "toio", ClauseStatus::disclosed), nullptr);
  EXPECT_NE(find(j.verdict, "steady_state", ClauseStatus::pass), nullptr);
}

TEST(Compliance, QuickRunIsNotCompliantShortened) {
  const Judged j = judge("iops", {}, {"quick"});
  EXPECT_FALSE(j.verdict.compliant);
  EXPECT_TRUE(j.verdict.shortened);
  EXPECT_EQ(j.verdict.summary, "not compliant: shortened");
  const ClauseVerdict* c = find(j.verdict, "durations", ClauseStatus::fail);
  ASSERT_NE(c, nullptr);
  EXPECT_NE(c->detail.find("shortened"), std::string::npos);
  // 0.25X WIPC: the conditioning rule's line (the WIPC itself wrote its whole 0.25X target).
  bool wipc_short = false;
  for (const ClauseVerdict& d : j.verdict.clauses) {
    wipc_short = wipc_short || (d.clause == "durations" && d.status == ClauseStatus::fail &&
                                d.detail.find("WIPC, sequential pass (main): 0.25X user capacity written, below 2X") !=
                                    std::string::npos);
  }
  EXPECT_TRUE(wipc_short) << json(j.verdict).dump(1);
  EXPECT_NE(find(j.verdict, "preconditioning", ClauseStatus::pass), nullptr);
}

TEST(Compliance, SettingsATestNeverReadCannotShortenIt) {
  // WSAT has no Rounds and no WIPC: quick's max_rounds and WIPC amount are not its deviations.
  const Judged j = judge("wsat", {}, {"quick"});
  for (const ClauseVerdict& c : j.verdict.clauses) {
    EXPECT_EQ(c.detail.find("max_rounds"), std::string::npos) << c.detail;
    EXPECT_EQ(c.detail.find("wipc.capacity_multiple"), std::string::npos) << c.detail;
  }
  EXPECT_NE(find(j.verdict, "durations", ClauseStatus::fail), nullptr);  // its own sample/limit settings
}

TEST(Compliance, FallbackPurgeFails) {
  const Judged j =
      judge("latency", {}, {}, {{"method", "discard"}, {"pts_compliant", false}, {"outcome", "succeeded"}});
  EXPECT_FALSE(j.verdict.compliant);
  EXPECT_FALSE(j.verdict.shortened);
  EXPECT_EQ(j.verdict.summary, "not compliant");
  EXPECT_NE(find(j.verdict, "purge", ClauseStatus::fail), nullptr);
}

// The WIPC clause reads the typed record (results/wipc.hpp): a pass whose result or target
// is missing wrote nothing that can be shown, so it fails rather than passing on zeros.
TEST(Compliance, AWipcRecordWithoutItsResultOrTargetFails) {
  Judged j = judge("iops");
  ASSERT_NE(find(j.verdict, "preconditioning", ClauseStatus::pass), nullptr);
  const Settings settings = Settings::build(DefinitionSet::embedded(), {"2.0.2", "enterprise"}, {}, {});
  for (const char* member : {"result", "bytes_target"}) {
    json record = j.record;
    record.at("preconditioning").at(0).erase(member);
    const ComplianceVerdict v = evaluate_test_compliance(record, {DefinitionSet::embedded(), settings, "libaio"});
    EXPECT_NE(find(v, "preconditioning", ClauseStatus::fail), nullptr) << member;
    EXPECT_EQ(find(v, "preconditioning", ClauseStatus::pass), nullptr) << member;
  }
}

TEST(Compliance, SanitizeAcceptanceIsASetting) {
  const json sanitize{{"method", "nvme-sanitize-block"}, {"pts_compliant", true}, {"outcome", "succeeded"}};
  EXPECT_TRUE(judge("latency", {}, {}, sanitize).verdict.compliant);
  const Judged off = judge("latency", {{"purge.accept_nvme_sanitize", "false"}}, {}, sanitize);
  EXPECT_NE(find(off.verdict, "purge", ClauseStatus::fail), nullptr);
}

TEST(Compliance, UncontrollableWriteCacheFails) {
  const Judged j = judge("iops", {}, {}, good_purge(), write_cache_record(false, false));
  EXPECT_NE(find(j.verdict, "write_cache", ClauseStatus::fail), nullptr);
  const Judged wrong = judge("iops", {}, {}, good_purge(), write_cache_record(true, true));  // WCE on enterprise
  EXPECT_NE(find(wrong.verdict, "write_cache", ClauseStatus::fail), nullptr);
}

// NVMe VWC = 0: read_write_cache reports not applicable with enabled = false. WCD is met by
// construction (enterprise passes); WCE cannot be had from such a drive (client: disclosed).
TEST(Compliance, ADriveWithoutVolatileWriteCacheMeetsWcdAndDisclosesWce) {
  json none{{"applicable", false},
            {"enabled", false},
            {"mechanism", "nvme-feature-06h"},
            {"note", "not applicable: the controller reports no volatile write cache (VWC bit 0 = 0)"}};
  const json wc{{"requested_enabled", false}, {"original", none}, {"applied", none}};
  const Judged e = judge("iops", {}, {}, good_purge(), wc);
  const ClauseVerdict* pass = find(e.verdict, "write_cache", ClauseStatus::pass);
  ASSERT_NE(pass, nullptr) << json(e.verdict).dump(1);
  EXPECT_NE(pass->detail.find("no volatile write cache"), std::string::npos) << pass->detail;
  const Judged c = judge("iops", {}, {}, good_purge(), wc, 0, "libaio", {"2.0.2", "client"});
  EXPECT_NE(find(c.verdict, "write_cache", ClauseStatus::disclosed), nullptr) << json(c.verdict).dump(1);
}

TEST(Compliance, AWriteCacheThatAPurgeResetAndNobodySetAgainFails) {
  // PTS order: purge (step 1), then WCE/WCD (step 2.1.1): the read-back after the purge counts.
  json purge = good_purge();
  purge["step"] = "iops/main/purge";
  purge["write_cache_after_purge"] = {
      {"requested_enabled", false}, {"found_enabled", true}, {"read_back", {{"applicable", true}, {"enabled", true}}}};
  const Judged lost = judge("iops", {}, {}, purge);
  const ClauseVerdict* c = find(lost.verdict, "write_cache", ClauseStatus::fail);
  ASSERT_NE(c, nullptr) << json(lost.verdict).dump(1);
  EXPECT_NE(c->detail.find("after the purge of step iops/main/purge"), std::string::npos) << c->detail;
  purge["write_cache_after_purge"]["read_back"]["enabled"] = false;  // set again and read back disabled
  const Judged kept = judge("iops", {}, {}, purge);
  EXPECT_NE(find(kept.verdict, "write_cache", ClauseStatus::pass), nullptr) << json(kept.verdict).dump(1);
}

TEST(Compliance, OperatorToioAndUnverifiedSettingsAreDisclosedNotFailed) {
  const Judged j = judge("cbw", {{"cbw.max_iops_art_ceiling", "10ms"}, {"cbw.precondition_round_duration", "45min"}});
  EXPECT_TRUE(j.verdict.compliant) << json(j.verdict).dump(1);
  EXPECT_NE(find(j.verdict, "settings", ClauseStatus::disclosed), nullptr);
  const Judged toio = judge("iops", {{"iops.threads", "16"}, {"iops.queue_depth", "8"}});
  EXPECT_TRUE(toio.verdict.compliant);
}

TEST(Compliance, InferredValueChangedIsADeviation) {
  const Judged j = judge("cbw", {{"cbw.rw_mix", "60/40"}});
  const ClauseVerdict* c = find(j.verdict, "settings", ClauseStatus::fail);
  ASSERT_NE(c, nullptr);
  EXPECT_NE(c->detail.find("deviation"), std::string::npos);
}

TEST(Compliance, ZerosDataAndOtherActiveRangeFail) {
  EXPECT_NE(find(judge("iops", {{"data_pattern", "zeros"}}).verdict, "data_pattern", ClauseStatus::fail), nullptr);
  EXPECT_NE(find(judge("iops", {{"active_range_pct", "50"}}).verdict, "active_range", ClauseStatus::fail), nullptr);
}

// Issue 11 item 6: the PTS-C options (AR Amount / Segments, random WIPC) are disclosed under
// the client profile and deviations under enterprise; a test they did not reach has no clause.
TEST(Compliance, ClientOptionsAreDisclosedForClientsAndDeviationsForEnterprise) {
  const std::vector<std::pair<std::string, std::string>> options = {
      {"active_range.amount", "64MiB"}, {"active_range.segments", "16"}, {"wipc.random", "true"}};
  const SpecContext client_spec{"2.0.2", "client"};
  const Judged client =
      judge("iops", options, {}, good_purge(), write_cache_record(true, true), 0, "libaio", client_spec);
  EXPECT_NE(find(client.verdict, "active_range", ClauseStatus::disclosed), nullptr);
  EXPECT_NE(find(client.verdict, "preconditioning", ClauseStatus::disclosed), nullptr);
  EXPECT_EQ(find(client.verdict, "active_range", ClauseStatus::fail), nullptr);
  EXPECT_EQ(find(client.verdict, "preconditioning", ClauseStatus::fail), nullptr);
  EXPECT_TRUE(client.verdict.compliant) << json(client.verdict).dump(1);

  const Judged enterprise = judge("iops", options);
  const ClauseVerdict* ar = find(enterprise.verdict, "active_range", ClauseStatus::fail);
  ASSERT_NE(ar, nullptr);
  EXPECT_NE(ar->detail.find("AR Amount 64MiB in 16 segment(s)"), std::string::npos) << ar->detail;
  EXPECT_NE(find(enterprise.verdict, "preconditioning", ClauseStatus::fail), nullptr);
  EXPECT_FALSE(enterprise.verdict.compliant);

  const Judged tp = judge("throughput", {{"active_range.amount", "64MiB"}}, {}, good_purge(),
                          write_cache_record(true, true), 0, "libaio", client_spec);
  EXPECT_EQ(find(tp.verdict, "active_range", ClauseStatus::disclosed), nullptr) << "sequential IO was not segmented";
}

// Part A.1: stopping at the Round cap without steady state is what the spec allows (window
// x-4..x, "SS NOT ACHIEVED" in the report): disclosed, prominently, not a failure.
TEST(Compliance, SteadyStateNotAchievedByTheRoundCapIsDisclosedProminently) {
  const Judged j = judge("latency", {}, {}, good_purge(), write_cache_record(true, false), 2.0);
  const ClauseVerdict* c = find(j.verdict, "steady_state", ClauseStatus::disclosed);
  ASSERT_NE(c, nullptr) << json(j.verdict).dump(1);
  EXPECT_NE(c->detail.find("SS NOT ACHIEVED"), std::string::npos);
  EXPECT_NE(c->detail.find("RND 4KiB 0/100"), std::string::npos);
  EXPECT_NE(c->detail.find("Rounds 21-25"), std::string::npos);
  EXPECT_EQ(find(j.verdict, "steady_state", ClauseStatus::fail), nullptr);
  EXPECT_TRUE(j.verdict.compliant);
  EXPECT_EQ(j.verdict.summary, "compliant: SS NOT ACHIEVED (disclosed)");
  ASSERT_EQ(j.verdict.notes.size(), 1u);
  EXPECT_NE(j.verdict.notes[0].find("SS NOT ACHIEVED"), std::string::npos);
  const ComplianceVerdict run = evaluate_run_compliance({{"latency", j.verdict}}, "complete");
  EXPECT_EQ(run.summary, "compliant: SS NOT ACHIEVED (disclosed)");
  ASSERT_EQ(run.notes.size(), 1u);
  EXPECT_EQ(run.notes[0].rfind("latency: ", 0), 0u);
}

// Part A.2: the engine is judged: null does no IO; sync runs QD 1 per thread.
TEST(Compliance, NullEngineFailsAndSyncFailsAboveQueueDepthOne) {
  const Judged null_run = judge("iops", {}, {}, good_purge(), write_cache_record(true, false), 0, "null");
  const ClauseVerdict* n = find(null_run.verdict, "engine", ClauseStatus::fail);
  ASSERT_NE(n, nullptr);
  EXPECT_NE(n->detail.find("null"), std::string::npos);
  EXPECT_FALSE(null_run.verdict.compliant);
  const Judged sync_iops = judge("iops", {}, {}, good_purge(), write_cache_record(true, false), 0, "sync");
  const ClauseVerdict* s = find(sync_iops.verdict, "engine", ClauseStatus::fail);
  ASSERT_NE(s, nullptr);
  EXPECT_NE(s->detail.find("effective QD was 1, not the QD 32"), std::string::npos) << s->detail;
  // Latency runs at QD 1 throughout: sync is fine there.
  const Judged sync_lat = judge("latency", {}, {}, good_purge(), write_cache_record(true, false), 0, "sync");
  EXPECT_NE(find(sync_lat.verdict, "engine", ClauseStatus::pass), nullptr);
  EXPECT_TRUE(sync_lat.verdict.compliant) << json(sync_lat.verdict).dump(1);
  EXPECT_NE(find(judge("iops").verdict, "engine", ClauseStatus::pass), nullptr);
}

// Part A.3: only the IOPS (and WSAT) TOIO is the operator's; Throughput's TC 1 / QD 32 is fixed.
TEST(Compliance, ThroughputToioChangedIsADeviationIopsToioIsDisclosed) {
  const Judged tp = judge("throughput", {{"throughput.threads", "2"}});
  EXPECT_NE(find(tp.verdict, "toio", ClauseStatus::fail), nullptr) << json(tp.verdict).dump(1);
  EXPECT_FALSE(tp.verdict.compliant);
  EXPECT_NE(find(judge("throughput").verdict, "toio", ClauseStatus::pass), nullptr);
  const Judged iops = judge("iops", {{"iops.threads", "16"}});
  EXPECT_NE(find(iops.verdict, "toio", ClauseStatus::disclosed), nullptr);
  EXPECT_TRUE(iops.verdict.compliant);
}

// A changed [U] value is disclosed with its value; a [U] duration is disclosed while it stays at
// or above its floor (the lowest value a cited source uses) and shortens the run below it
// (duration_rule_test.cpp holds the whole table).
TEST(Compliance, ChangedUnverifiedValuesAreDisclosedWithTheirValueNotShortened) {
  const Judged cbw = judge("cbw", {{"cbw.max_iops_art_ceiling", "2ms"}, {"cbw.precondition_round_duration", "10min"}});
  EXPECT_FALSE(cbw.verdict.shortened);
  EXPECT_TRUE(cbw.verdict.compliant) << json(cbw.verdict).dump(1);
  bool saw_ceiling = false;
  for (const ClauseVerdict& c : cbw.verdict.clauses) {
    saw_ceiling = saw_ceiling || (c.status == ClauseStatus::disclosed &&
                                  c.detail.find("cbw.max_iops_art_ceiling = 2ms") != std::string::npos);
  }
  EXPECT_TRUE(saw_ceiling);
  const Judged wsat = judge("wsat", {{"wsat.time_limit", "12h"}});
  EXPECT_FALSE(wsat.verdict.shortened) << json(wsat.verdict).dump(1);
  EXPECT_NE(find(wsat.verdict, "settings", ClauseStatus::disclosed), nullptr);
  // Below ADATA's and PTSU's 6 h and it stopped the run (the fake writes 4 MB a sample: a
  // 10-minute limit comes before 4X of 1 GiB; a 1-hour one never acts, duration_rule_test.cpp).
  EXPECT_TRUE(judge("wsat", {{"wsat.time_limit", "10min"}}).verdict.shortened);
  // A [V] duration lowered is still shortening.
  EXPECT_TRUE(judge("iops", {{"iops.segment_duration", "30s"}}).verdict.shortened);
}

// Part A.5: WSAT's optional workloads are a PTS 2.0 addition.
TEST(Compliance, OptionalWsatWorkloadIsDisclosedIn202AndADeviationInE11) {
  const Judged v202 = judge("wsat", {{"wsat.workload", "oltp"}});
  EXPECT_TRUE(v202.verdict.compliant) << json(v202.verdict).dump(1);
  const Judged e11 = judge("wsat", {{"wsat.workload", "oltp"}}, {}, good_purge(), write_cache_record(true, false), 0,
                           "libaio", {"e1.1", "enterprise"});
  const ClauseVerdict* c = find(e11.verdict, "settings", ClauseStatus::fail);
  ASSERT_NE(c, nullptr) << json(e11.verdict).dump(1);
  EXPECT_NE(c->detail.find("wsat.workload"), std::string::npos);
}

TEST(Compliance, ClauseTitlesAndReferencesComeFromPtsData) {
  const Judged j = judge("iops");
  for (const ClauseVerdict& c : j.verdict.clauses) {
    const auto [title, ref] = DefinitionSet::embedded().clause(c.clause);
    EXPECT_EQ(c.title, title);
    if (c.clause == "settings" || c.clause == "active_range" || c.clause == "durations") {
      continue;  // those cite the setting's or the conditioning rule's own clause
    }
    EXPECT_EQ(c.spec_ref, ref);
  }
}

TEST(Compliance, RunVerdictNeedsEveryTestAndCompletion) {
  const ComplianceVerdict ok = judge("latency").verdict;
  const ComplianceVerdict bad = judge("latency", {}, {"quick"}).verdict;
  EXPECT_TRUE(evaluate_run_compliance({{"latency", ok}}, "complete").compliant);
  EXPECT_FALSE(evaluate_run_compliance({{"latency", ok}}, "interrupted").compliant);
  const ComplianceVerdict mixed = evaluate_run_compliance({{"latency", ok}, {"iops", bad}}, "complete");
  EXPECT_FALSE(mixed.compliant);
  EXPECT_EQ(mixed.summary, "not compliant: shortened");
  EXPECT_FALSE(evaluate_run_compliance({}, "complete").compliant);
}

}  // namespace
}  // namespace ptsuite::pts
