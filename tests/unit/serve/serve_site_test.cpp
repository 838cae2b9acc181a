// `ptsuite serve`'s pages without HTTP (serve/site.hpp) over a SQLite lab history read through
// a read-only store: lists paginate, filter and sort; every table downloads as CSV and JSON; a
// run's report, document and CSV come from its run directory or its stored bundle; a stored
// bundle's status is verified, not signed or tampered; an app run is listed and its report
// renders; hostile strings are inert on every page; a request reaches no path but a run id;
// compare, trend and campaign pages have every row; the campaign follows the scheduler and
// streams its rows as server-sent events; the listen rules; the static export; the same pages
// on PostgreSQL.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <filesystem>
#include <regex>
#include <set>
#include <thread>

#include <httplib.h>

#include <nlohmann/json.hpp>

#include <ptsuite/bundle/ed25519.hpp>
#include <ptsuite/bundle/manifest.hpp>
#include <ptsuite/bundle/signature.hpp>
#include <ptsuite/fleet/progress.hpp>
#include <ptsuite/serve/catalog.hpp>
#include <ptsuite/serve/export.hpp>
#include <ptsuite/serve/server.hpp>
#include <ptsuite/util/base64.hpp>
#include <ptsuite/util/error.hpp>
#include <ptsuite/util/sha256.hpp>
#include "support/postgres_server.hpp"
#include "support/report_fixtures.hpp"
#include "support/test_outputs.hpp"
#include "unit/serve/serve_fixture.hpp"

namespace ptsuite::serve {
namespace {

using testing::kHostileCampaign;
using testing::kHostileModel;
using testing::kHostileSerial;
using testing::kLabRuns;

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// No raw markup of the hostile strings: the only <script> is live.js's, no <img> or <b> at all.
void expect_inert(const std::string& body, const std::string& where) {
  EXPECT_EQ(body.find("<script>document"), std::string::npos) << where;
  EXPECT_EQ(body.find("<img"), std::string::npos) << where;
  EXPECT_EQ(body.find("<b>bold"), std::string::npos) << where;
  EXPECT_EQ(body.find("onerror=\"document"), std::string::npos) << where;
}

class ServeSite : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string db = m_dir.file("history.sqlite");
    {
      history::HistoryStore writable = history::HistoryStore::open(test_support::sqlite_history(db));
      m_ids = testing::fill_test_lab(writable, m_dir);
    }
    m_store =
        std::make_unique<history::HistoryStore>(history::HistoryStore::open_readonly(test_support::sqlite_history(db)));
    SiteOptions options;
    options.jobs = [this] { return m_jobs; };
    m_site = std::make_unique<Site>(*m_store, options);
  }
  Response get(const std::string& route, const Params& params = {}) { return m_site->handle({route, params}); }

  test_support::ShmTempDir m_dir{"ptsuite-serve-test"};
  testing::LabIds m_ids;
  std::vector<fleet::SlurmJob> m_jobs;
  std::unique_ptr<history::HistoryStore> m_store;
  std::unique_ptr<Site> m_site;
};

TEST_F(ServeSite, RunsListPaginatesFiltersAndSorts) {
  const size_t all = kLabRuns + 4;
  const Response first = get("runs");
  ASSERT_EQ(first.status, 200);
  EXPECT_NE(first.body.find(fmt::format("rows 1-50 of {}", all)), std::string::npos);
  EXPECT_EQ(count_of(first.body, "<tr><td"), k_default_page_rows);
  const Response last = get("runs", {{"page", "3"}});
  EXPECT_NE(last.body.find(fmt::format("rows 101-{} of {}", all, all)), std::string::npos);
  EXPECT_EQ(count_of(last.body, "<tr><td"), all - 100);
  const Response per = get("runs", {{"per", "100000"}});
  EXPECT_EQ(count_of(per.body, "<tr><td"), k_max_page_rows < all ? k_max_page_rows : all) << "bounded";

  const auto ids = [&](const Params& p) {
    const nlohmann::json rows = nlohmann::json::parse(get("runs", p).body);
    std::vector<int64_t> out;
    for (const auto& r : rows) out.push_back(static_cast<int64_t>(r.at("id").get<double>()));
    return out;
  };
  Params p{{"format", "json"}, {"model", "LAB MODEL 1"}};
  EXPECT_EQ(ids(p).size(), kLabRuns / 2) << "one model of two";
  p["firmware"] = "FW1";
  const std::vector<int64_t> fw1 = ids(p);
  EXPECT_GT(fw1.size(), 10u);
  EXPECT_LT(fw1.size(), kLabRuns / 2);
  EXPECT_EQ(ids({{"format", "json"}, {"campaign", "c001"}}).size(), 40u);
  size_t not_compliant_model0 = 0;  // lab runs i % 7 == 0 are not compliant; model = (i % 24) % 2
  for (size_t i = 0; i < kLabRuns; ++i) not_compliant_model0 += i % 7 == 0 && i % 24 % 2 == 0 ? 1 : 0;
  EXPECT_EQ(ids({{"format", "json"}, {"verdict", "not"}, {"model", "LAB MODEL 0"}}).size(), not_compliant_model0);
  const std::string test = test_support::lab_record({}, 0).tests.front();
  EXPECT_GE(ids({{"format", "json"}, {"test", test}}).size(), kLabRuns + 2) << "the lab runs, the hostile and steady";
  EXPECT_EQ(ids({{"format", "json"}, {"test", "no-such-test"}}).size(), 0u);
  EXPECT_EQ(ids({{"format", "json"}, {"from", "2026-01-01T01"}, {"to", "2026-01-01T01"}}).size(), 60u)
      << "one run a minute, inclusive date prefixes";
  const std::vector<int64_t> asc = ids({{"format", "json"}, {"sort", "id"}, {"dir", "asc"}});
  EXPECT_TRUE(std::is_sorted(asc.begin(), asc.end()));
  EXPECT_EQ(asc.size(), all) << "a download holds every row up to k_max_download_rows";
  const std::vector<int64_t> bad_sort = ids({{"format", "json"}, {"sort", "id; DROP TABLE runs"}});
  EXPECT_EQ(bad_sort.size(), all) << "an unknown sort key is the default";
}

TEST_F(ServeSite, EveryTableDownloadsAsCsvAndJson) {
  const std::vector<std::pair<std::string, Params>> pages = {
      {"runs", {}},
      {"drives", {}},
      {"drive", {{"serial", "S0000LAB0000"}}},
      {"run", {{"id", std::to_string(m_ids.on_disk)}}},
      {"trend", {{"model", "LAB MODEL 0"}}},
      {"campaigns", {}},
      {"campaign", {{"name", "c000"}}},
  };
  for (const auto& [route, params] : pages) {
    Params csv = params;
    csv["format"] = "csv";
    const Response c = get(route, csv);
    EXPECT_EQ(c.status, 200) << route;
    EXPECT_EQ(c.content_type, "text/csv; charset=utf-8") << route;
    EXPECT_GE(count_of(c.body, "\r\n"), 2u) << route << ": a header and rows";
    Params json = params;
    json["format"] = "json";
    const Response j = get(route, json);
    EXPECT_EQ(j.status, 200) << route;
    EXPECT_TRUE(nlohmann::json::parse(j.body).is_array()) << route;
    EXPECT_NE(get(route, params).body.find("format=csv"), std::string::npos) << route << " links its download";
  }
  EXPECT_EQ(get("runs", {{"format", "xml"}}).status, 400);
  EXPECT_EQ(get("runs", {{"format", "csv"}, {"table", "nope"}}).status, 404);
}

TEST_F(ServeSite, RunDocumentsComeFromTheRunDirectoryOrTheStoredBundle) {
  for (const int64_t id : {m_ids.on_disk, m_ids.bundled, m_ids.scenario}) {
    const Params p{{"id", std::to_string(id)}};
    const Response page = get("run", p);
    ASSERT_EQ(page.status, 200) << id;
    EXPECT_NE(page.body.find("Verification"), std::string::npos);
    const Response report = get("run/report", p);
    EXPECT_EQ(report.status, 200) << id << report.body.substr(0, 300);
    EXPECT_NE(report.body.find("<svg"), std::string::npos) << id << ": the report's charts";
    const Response doc = get("run/results.json", p);
    EXPECT_EQ(doc.status, 200);
    EXPECT_TRUE(nlohmann::json::parse(doc.body).is_object());
  }
  const Response csv = get("run/csv", {{"id", std::to_string(m_ids.on_disk)}, {"test", "iops"}});
  EXPECT_EQ(csv.status, 200);
  EXPECT_EQ(csv.download_name, "iops.csv");
  // Generated runs point to directories that do not exist and store no bundle: said, not served.
  const Response gone = get("run/report", {{"id", "1"}});
  EXPECT_EQ(gone.status, 404);
  EXPECT_NE(gone.body.find("neither stored in the history"), std::string::npos);
}

// The verification table of a run's page as JSON rows.
nlohmann::json verification_of(Site& site, int64_t id) {
  const Response r = site.handle({"run", {{"id", std::to_string(id)}, {"format", "json"}, {"table", "verification"}}});
  EXPECT_EQ(r.status, 200) << r.body.substr(0, 300);
  return nlohmann::json::parse(r.body);
}

// One stored file of a run rewritten in the database as someone with write access would:
// content, size and SHA-256 consistent with each other.
void tamper_stored_file(history::HistoryStore& store, int64_t id, const std::string& path, const std::string& content) {
  (void)store.backend().query(
      "UPDATE run_files SET content_base64 = ?, size_bytes = ?, sha256 = ? WHERE run_id = ? AND path = ?",
      {base64_encode(content), std::to_string(content.size()), sha256_hex(content), std::to_string(id), path});
}

// Stored bundles (the run directory is not on this host): signed and intact = verified; a
// result edited in the database = tampered (the manifest no longer matches); the signature
// file edited = tampered (the Ed25519 check fails); no signature = not signed.
TEST_F(ServeSite, AStoredBundleIsVerifiedNotSignedOrTampered) {
  const std::string results = test_support::serialize_results_fixture(test_support::load_results_fixture("quick"));
  const auto stored_bundle = [&](const std::string& name, bool sign) {
    const std::string dir = m_dir.file(name);
    test_support::write_file(dir + "/results.json", results);
    (void)bundle::write_manifest(test_support::output_dir(dir));
    if (sign) {
      (void)bundle::sign_bundle(test_support::output_dir(dir), bundle::SigningKey::generate(), "ACME Lab",
                                "2026-12-02T10:00:00Z");
    }
    return std::make_pair(history::record_from_run_dir(dir), history::read_bundle_files(dir));
  };
  auto [signed_run, signed_files] = stored_bundle("run-signed", true);
  auto [plain_run, plain_files] = stored_bundle("run-unsigned", false);
  std::map<std::string, int64_t> ids;
  {
    history::HistoryStore writable =
        history::HistoryStore::open(test_support::sqlite_history(m_dir.file("history.sqlite")));
    for (const char* name : {"verified", "edited result", "edited signature"}) {
      history::RunRecord r = signed_run;
      r.run_uid += name;
      r.run_dir = m_dir.file(std::string("elsewhere/") + name);  // not on this host
      ids[name] = writable.add(r, false, &signed_files).id;
    }
    plain_run.run_uid += "not signed";  // the fixture's bundled run is the same "quick" document
    plain_run.run_dir = m_dir.file("elsewhere/unsigned");
    ids["not signed"] = writable.add(plain_run, false, &plain_files).id;
    tamper_stored_file(writable, ids["edited result"], "results.json", results + " ");
    const auto sig = std::find_if(signed_files.begin(), signed_files.end(),
                                  [](const history::BundleFile& f) { return f.path == bundle::k_signature_file_name; });
    ASSERT_NE(sig, signed_files.end());
    std::string edited = sig->content;
    const size_t at = edited.find("ACME Lab");
    ASSERT_NE(at, std::string::npos);
    tamper_stored_file(writable, ids["edited signature"], sig->path, edited.replace(at, 8, "Evil Lab"));
  }
  const std::map<std::string, std::string> expected = {{"verified", "verified"},
                                                       {"edited result", "tampered"},
                                                       {"edited signature", "tampered"},
                                                       {"not signed", "not signed"}};
  for (const auto& [name, status] : expected) {
    const nlohmann::json rows = verification_of(*m_site, ids.at(name));
    ASSERT_FALSE(rows.empty()) << name;
    EXPECT_EQ(rows[0].at("check"), "status") << name;
    EXPECT_EQ(rows[0].at("result"), status) << name << ": " << rows.dump(1);
  }
  const std::string edited_signature = verification_of(*m_site, ids.at("edited signature")).dump();
  EXPECT_NE(edited_signature.find("bad signature"), std::string::npos) << edited_signature;
  const std::string edited_result = verification_of(*m_site, ids.at("edited result")).dump();
  EXPECT_NE(edited_result.find("0 of 1 listed files"), std::string::npos) << edited_result;
  EXPECT_NE(get("run", {{"id", std::to_string(ids.at("verified"))}}).body.find(">verified<"), std::string::npos);
}

// An application run (`ptsuite app run`'s document) in the history: in the runs list, its page,
// its report (the app report, not an error) and its CSV.
TEST_F(ServeSite, AppRunsAreListedAndTheirReportRenders) {
  const std::string dir = m_dir.file("run-app");
  test_support::write_file(dir + "/results.json", nlohmann::json(test_support::app_run_fixture("pgbench", 2)).dump());
  history::RunRecord app = history::record_from_run_dir(dir);
  {
    history::HistoryStore writable =
        history::HistoryStore::open(test_support::sqlite_history(m_dir.file("history.sqlite")));
    app.id = writable.add(app).id;
  }
  const nlohmann::json newest = nlohmann::json::parse(get("runs", {{"format", "json"}, {"sort", "id"}}).body);
  ASSERT_FALSE(newest.empty());
  EXPECT_EQ(newest[0].at("id"), app.id);
  EXPECT_EQ(newest[0].at("model"), app.device_model);
  const Params p{{"id", std::to_string(app.id)}};
  const Response page = get("run", p);
  ASSERT_EQ(page.status, 200);
  EXPECT_NE(page.body.find(app.spec_revision), std::string::npos) << "the app's revision, \"app NAME\"";
  const Response report = get("run/report", p);
  ASSERT_EQ(report.status, 200) << report.body.substr(0, 500);
  EXPECT_NE(report.body.find("pgbench"), std::string::npos);
  EXPECT_NE(report.body.find("<svg"), std::string::npos) << "the app report's charts";
  ASSERT_FALSE(app.tests.empty());
  const Response csv = get("run/csv", {{"id", std::to_string(app.id)}, {"test", app.tests[0]}});
  EXPECT_EQ(csv.status, 200) << csv.body;
  EXPECT_EQ(csv.download_name, "app.csv");
}

TEST_F(ServeSite, RequestsReachNoPathButARunId) {
  for (const std::string id : {"../../etc/passwd", "/etc/passwd", "0", "-1", "999999", "1e3", "", "12abc"}) {
    EXPECT_EQ(get("run/report", {{"id", id}}).status, 404) << id;
    EXPECT_EQ(get("run/results.json", {{"id", id}}).status, 404) << id;
  }
  EXPECT_EQ(get("../../etc/passwd").status, 404);
  EXPECT_EQ(get("static/../../etc/passwd").status, 404);
  EXPECT_EQ(get("drive", {{"serial", "../../etc/passwd"}}).status, 404);
  EXPECT_EQ(get("run/csv", {{"id", std::to_string(m_ids.on_disk)}, {"test", "../../x"}}).status, 404);
}

TEST_F(ServeSite, HostileStringsAreInertOnEveryPage) {
  const std::string hostile = std::to_string(m_ids.hostile);
  const std::vector<std::pair<std::string, Params>> pages = {
      {"runs", {}},
      {"runs", {{"model", kHostileModel}}},
      {"drives", {}},
      {"drives", {{"model", kHostileModel}}},
      {"drive", {{"serial", kHostileSerial}}},
      {"run", {{"id", hostile}}},
      {"trend", {{"model", kHostileModel}}},
      {"campaigns", {}},
      {"campaign", {{"name", kHostileCampaign}}},
      {"nope<img src=x>", {}},
  };
  for (const auto& [route, params] : pages) {
    const Response r = get(route, params);
    expect_inert(r.body, route);
  }
  const Response run = get("run", {{"id", hostile}});
  EXPECT_NE(run.body.find("&lt;script&gt;document.title=&#39;owned&#39;&lt;/script&gt;"), std::string::npos);
  const Response drive = get("drive", {{"serial", kHostileSerial}});
  EXPECT_EQ(drive.status, 200) << "found by its serial, as a value";
  EXPECT_EQ(count_of(drive.body, "<tr><td"), 1u);
  const Response runs = get("runs", {{"model", kHostileModel}, {"format", "json"}});
  EXPECT_EQ(nlohmann::json::parse(runs.body).at(0).at("model"), kHostileModel) << "JSON keeps the value as data";
}

TEST_F(ServeSite, DrivesHaveTheirLastVerdictHeadlineAndRunsOverTime) {
  const nlohmann::json drives = nlohmann::json::parse(get("drives", {{"format", "json"}}).body);
  EXPECT_EQ(drives.size(), 24u + 4u) << "24 lab drives, the three fixtures' drives and the hostile one";
  const nlohmann::json lab =
      nlohmann::json::parse(get("drives", {{"format", "json"}, {"serial", "S0001LAB0005"}}).body);
  ASSERT_EQ(lab.size(), 1u);
  EXPECT_EQ(lab[0].at("runs").get<double>(), static_cast<double>((kLabRuns - 5 + 23) / 24));
  EXPECT_NE(lab[0].at("headline figures").get<std::string>().find("IOPS"), std::string::npos);
  EXPECT_EQ(lab[0].at("last started (UTC)"), "2026-01-01T02:05:00Z") << "run 125 is the drive's last";
  const nlohmann::json host = nlohmann::json::parse(get("drives", {{"format", "json"}, {"host", "host-01"}}).body);
  EXPECT_EQ(host.size(), 8u) << "drives 16-23";
  const nlohmann::json label =
      nlohmann::json::parse(get("drives", {{"format", "json"}, {"label", "campaign=c003"}}).body);
  EXPECT_EQ(label.size(), 10u) << "runs 120-129";
  const nlohmann::json runs =
      nlohmann::json::parse(get("drive", {{"format", "json"}, {"serial", "S0001LAB0005"}}).body);
  ASSERT_EQ(runs.size(), lab[0].at("runs").get<double>());
  EXPECT_LT(runs.front().at("started (UTC)").get<std::string>(), runs.back().at("started (UTC)").get<std::string>());
}

TEST_F(ServeSite, CompareAndTrendHaveEveryRow) {
  const Response compare =
      get("compare", {{"runs", fmt::format("{},{}", m_ids.on_disk, m_ids.bundled)}, {"force", "1"}});
  ASSERT_EQ(compare.status, 200) << compare.body.substr(0, 400);
  EXPECT_NE(compare.body.find("#" + std::to_string(m_ids.on_disk)), std::string::npos);
  EXPECT_NE(compare.body.find("#" + std::to_string(m_ids.bundled)), std::string::npos);
  EXPECT_EQ(get("compare", {{"runs", "1,2"}}).status, 404) << "documents on no disk";
  std::string many;
  for (int i = 1; i <= 20; ++i) many += std::to_string(i) + ",";
  EXPECT_EQ(get("compare", {{"runs", many}}).status, 400) << "bounded";

  const nlohmann::json trend = nlohmann::json::parse(get("trend", {{"model", "LAB MODEL 0"}, {"format", "json"}}).body);
  std::set<std::string> firmware;
  std::set<std::string> metrics;
  for (const auto& row : trend) {
    firmware.insert(row.at("firmware").get<std::string>());
    metrics.insert(row.at("metric").get<std::string>());
    EXPECT_LE(row.at("min").get<double>(), row.at("median").get<double>());
    EXPECT_LE(row.at("median").get<double>(), row.at("max").get<double>());
  }
  EXPECT_EQ(firmware, (std::set<std::string>{"FW1", "FW2", "FW3"}));
  EXPECT_EQ(trend.size(), firmware.size() * metrics.size()) << "every metric at every firmware";
  const Response page = get("trend", {{"model", "LAB MODEL 0"}});
  EXPECT_GE(count_of(page.body, "<svg"), 1u);
}

TEST_F(ServeSite, CampaignFollowsTheScheduler) {
  const Response none = get("campaign", {{"name", "c000"}});
  ASSERT_EQ(none.status, 200);
  EXPECT_NE(none.body.find("data-live-url=\"/campaign/status.json?name=c000\""), std::string::npos);
  EXPECT_NE(none.body.find("src=\"/static/live.js\""), std::string::npos);
  EXPECT_NE(none.body.find("data-events-url=\"/campaign/events?name=c000\""), std::string::npos);
  fleet::SlurmJob job;
  job.id = 4242;
  job.name = "ptsuite-S0000LAB0000";
  job.state = "RUNNING";
  job.node = "host-00";
  job.comment = fleet::progress_comment({"c000", "running", 3, 10, "iops", "2026-12-02T10:00:00Z", ""});
  m_jobs = {job};
  const nlohmann::json rows = nlohmann::json::parse(get("campaign/status.json", {{"name", "c000"}}).body);
  const auto it =
      std::find_if(rows.begin(), rows.end(), [](const auto& r) { return r.at("serial") == "S0000LAB0000"; });
  ASSERT_NE(it, rows.end());
  EXPECT_EQ(it->at("job_id"), 4242);
  EXPECT_EQ(it->at("state"), "running");
  const nlohmann::json campaigns = nlohmann::json::parse(get("campaigns", {{"format", "json"}}).body);
  EXPECT_EQ(campaigns.size(), 4u + 1u) << "c000-c003 and the hostile one";
}

TEST_F(ServeSite, TheStoreIsReadOnly) {
  EXPECT_THROW((void)m_store->add(test_support::lab_record({}, 77777)), SystemError);
  const std::string empty = m_dir.file("empty.sqlite");
  { (void)history::open_sqlite(test_support::database_path(empty)); }
  EXPECT_THROW((void)history::HistoryStore::open_readonly(test_support::sqlite_history(empty)), UsageError)
      << "not a ptsuite history yet: never migrated by serve";
  EXPECT_THROW((void)history::HistoryStore::open_readonly(test_support::sqlite_history(m_dir.file("missing.sqlite"))),
               UsageError);
  EXPECT_FALSE(std::filesystem::exists(m_dir.file("missing.sqlite"))) << "serve creates no database";
}

// The campaign's event stream over HTTP: "retry" and the status rows as one "data:" line (the
// stream ends after it here: event_stream_ms 0); refused (503: the page polls) when the server
// follows no more pages.
TEST_F(ServeSite, TheCampaignStreamsItsRowsAsServerSentEvents) {
  for (const size_t streams : {size_t{2}, size_t{0}}) {
    ServerOptions o;
    o.port = 0;
    o.event_streams = streams;
    o.event_stream_ms = 0;
    Server server(*m_site, o);
    std::thread thread([&server] { server.run(); });
    httplib::Client client("127.0.0.1", server.port());
    const httplib::Result r = client.Get("/campaign/events?name=c001");
    server.stop();
    thread.join();
    ASSERT_TRUE(r) << "no response";
    if (streams == 0) {
      EXPECT_EQ(r->status, 503);
      continue;
    }
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->get_header_value("Content-Type"), "text/event-stream");
    EXPECT_EQ(r->body.rfind("retry: 2000\ndata: [", 0), 0u) << r->body.substr(0, 200);
    const size_t data = r->body.find("data: ");
    const nlohmann::json rows = nlohmann::json::parse(r->body.substr(data + 6, r->body.find('\n', data) - data - 6));
    EXPECT_EQ(rows, nlohmann::json::parse(get("campaign/status.json", {{"name", "c001"}}).body));
    EXPECT_FALSE(rows.empty());
    EXPECT_EQ(r->body.substr(r->body.size() - 2), "\n\n");
  }
}

TEST(ServeListen, OtherHostsNeedAToken) {
  ServerOptions o = parse_listen("0.0.0.0:8080");
  EXPECT_EQ(o.host, "0.0.0.0");
  EXPECT_EQ(o.port, 8080);
  EXPECT_THROW(check_listen(o), UsageError);
  o.token = "short";
  EXPECT_THROW(check_listen(o), UsageError);
  o.token = std::string(32, 'k');
  EXPECT_NO_THROW(check_listen(o));
  EXPECT_NO_THROW(check_listen(parse_listen("127.0.0.1:0")));
  EXPECT_NO_THROW(check_listen(parse_listen("[::1]:9000")));
  EXPECT_NO_THROW(check_listen(parse_listen("9000")));
  EXPECT_THROW(check_listen(parse_listen("lab-server:80")), UsageError);
  EXPECT_THROW(check_listen(parse_listen("[::]:80")), UsageError);
  EXPECT_THROW(check_listen(parse_listen("10.0.0.5")), UsageError);
  EXPECT_THROW((void)parse_listen("127.0.0.1:99999"), UsageError);
  EXPECT_THROW((void)parse_listen(":80"), UsageError);
  EXPECT_TRUE(is_loopback("127.1.2.3"));
  EXPECT_FALSE(is_loopback("128.0.0.1"));
}

TEST(ServeStatic, FileNamesHoldNoPath) {
  EXPECT_EQ(static_file_name("", {}), "index.html");
  EXPECT_EQ(static_file_name("run", {{"id", "12"}}), "run-id_12.html");
  EXPECT_EQ(static_file_name("run/results.json", {{"id", "12"}}), "run_results-id_12.json");
  EXPECT_EQ(static_file_name("runs", {{"format", "csv"}, {"table", "runs"}}), "runs-table_runs.csv");
  for (const std::string& hostile : std::vector<std::string>{"../../etc/passwd", "a/b", "..", kHostileSerial}) {
    const std::string name = static_file_name("drive", {{"serial", hostile}});
    EXPECT_EQ(name.find('/'), std::string::npos) << name;
    EXPECT_EQ(name.find(".."), std::string::npos) << name;
  }
}

TEST_F(ServeSite, ExportWritesTheSamePagesAsFiles) {
  const std::string out = m_dir.file("site");
  const ExportResult r = export_site(*m_store, test_support::output_dir(out), {});
  EXPECT_GT(r.files, kLabRuns);
  for (const char* name : {"index.html", "runs.html", "drives.html", "campaigns.html", "live.js", "run-id_1.html"}) {
    EXPECT_TRUE(std::filesystem::is_regular_file(out + "/" + name)) << name;
  }
  const std::string report = out + "/" + static_file_name("run/report", {{"id", std::to_string(m_ids.on_disk)}});
  EXPECT_NE(test_support::file_text(report).find("<svg"), std::string::npos);
  const std::string index = test_support::file_text(out + "/index.html");
  EXPECT_NE(index.find("href=\"run-id_"), std::string::npos) << "links are the exported files";
  EXPECT_TRUE(std::filesystem::is_regular_file(out + "/runs-page_2-per_50.html")) << "the pager's pages";
  EXPECT_EQ(index.find("<form"), std::string::npos) << "no filter form on a static page";
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    // CSV and JSON carry the strings as data; every page is inert.
    if (entry.path().extension() == ".html") expect_inert(test_support::file_text(entry.path()), entry.path());
  }
}

TEST(ServePostgres, TheSamePagesOnPostgres) {
  auto server = test_support::PostgresServer::start();
  if (!server) GTEST_SKIP() << test_support::PostgresServer::last_skip_reason();
  test_support::ShmTempDir dir{"ptsuite-serve-pg"};
  testing::LabIds ids;
  {
    history::HistoryStore writable = history::HistoryStore::open({server->uri(), std::nullopt});
    ids = testing::fill_test_lab(writable, dir);
  }
  history::HistoryStore store = history::HistoryStore::open_readonly({server->uri(), std::nullopt});
  Site site(store, {});
  const Response runs = site.handle({"runs", {{"format", "json"}, {"sort", "model"}, {"dir", "asc"}}});
  EXPECT_EQ(nlohmann::json::parse(runs.body).size(), kLabRuns + 4);
  EXPECT_EQ(nlohmann::json::parse(site.handle({"runs", {{"format", "json"}, {"campaign", "c001"}}}).body).size(), 40u);
  EXPECT_EQ(nlohmann::json::parse(site.handle({"drives", {{"format", "json"}}}).body).size(), 28u);
  EXPECT_EQ(nlohmann::json::parse(site.handle({"drives", {{"format", "json"}, {"host", "host-01"}}}).body).size(), 8u);
  EXPECT_EQ(site.handle({"run/report", {{"id", std::to_string(ids.bundled)}}}).status, 200);
  EXPECT_EQ(site.handle({"campaign", {{"name", "c002"}}}).status, 200);
  const nlohmann::json trend =
      nlohmann::json::parse(site.handle({"trend", {{"model", "LAB MODEL 1"}, {"format", "json"}}}).body);
  EXPECT_FALSE(trend.empty());
  expect_inert(site.handle({"run", {{"id", std::to_string(ids.hostile)}}}).body, "run");
  expect_inert(site.handle({"drives", {}}).body, "drives");
  EXPECT_THROW((void)store.add(test_support::lab_record({}, 77777)), SystemError) << "a READ ONLY session";
}

}  // namespace
}  // namespace ptsuite::serve
